import Foundation // exp, log and pow only
import EarsCore

/// A synthetic room impulse response for training: the direct sound, then a
/// diffuse tail of decaying noise that falls 60 dB in `rt60Seconds`, with
/// high frequencies absorbed faster (a one-pole low-pass on the tail), at a
/// chosen direct-to-reverberant ratio. A statistical model of a room
/// (Polack's), not an image-source simulation: cheap, seeded, pure Swift,
/// so `ears train` needs no Python. The benchmark's rooms are image-source
/// rooms from pyroomacoustics, a different model, so the bench still
/// measures rooms the training never saw.
///
/// The response has unit energy (Σ h² = 1), so convolving keeps a signal's
/// energy about where it was (white noise within a few tenths of a dB);
/// `apply` also puts the direct sound at sample 0, so a label at the
/// speech's end stays where it was.
package struct RoomImpulseResponse: Sendable, Equatable {
    /// The sample rate of the response, in Hz.
    package static let sampleRate = NoiseGenerator.sampleRate
    /// Reverberation times the planner draws, in seconds (living rooms to halls).
    package static let rt60RangeSeconds: ClosedRange<Double> = 0.2...0.9
    /// Direct-to-reverberant ratios the planner draws, in dB (a speaker
    /// across the room at −3 dB, one close to the microphone at +12 dB).
    package static let directToReverberantRangeDecibels: ClosedRange<Double> = -3...12
    /// Seconds between the direct sound and the tail's onset (first reflections).
    package static let tailOnsetSeconds = 0.004
    /// The tail's one-pole low-pass coefficient (0 = none): walls absorb
    /// treble, so a real tail is darker than white noise.
    package static let tailSmoothing = 0.4

    /// Seconds for the tail to fall by 60 dB.
    package let rt60Seconds: Double
    /// Direct sound's energy over the tail's, in dB.
    package let directToReverberantDecibels: Double
    /// The taps, `rt60Seconds` long, unit energy, direct sound first.
    package let taps: [Double]

    /// The response of a room with these figures; `seed` fixes its tail.
    package init(rt60Seconds: Double, directToReverberantDecibels: Double, seed: UInt64) {
        precondition(rt60Seconds > 0, "a room needs a positive reverberation time")
        self.rt60Seconds = rt60Seconds
        self.directToReverberantDecibels = directToReverberantDecibels
        let count = max(2, Int((rt60Seconds * Double(Self.sampleRate)).rounded()))
        let onset = min(count - 1, max(1, Int(Self.tailOnsetSeconds * Double(Self.sampleRate))))
        // Amplitude falls 60 dB (a factor 1000) over rt60: e^(−ln(1000)·t/rt60).
        let decayPerSample = log(1000) / (rt60Seconds * Double(Self.sampleRate))
        var generator = SeededGenerator(seed: seed)
        var tail = [Double](repeating: 0, count: count)
        var smoothed = 0.0
        for index in onset..<count {
            smoothed = Self.tailSmoothing * smoothed + (1 - Self.tailSmoothing) * generator.gaussian()
            tail[index] = smoothed * exp(-decayPerSample * Double(index))
        }
        let tailEnergy = tail.reduce(0) { $0 + $1 * $1 }
        // Direct energy 1; the tail scaled to 10^(−DRR/10) of it.
        let tailScale = tailEnergy > 0 ? (pow(10, -directToReverberantDecibels / 10) / tailEnergy).squareRoot() : 0
        var taps = tail.map { $0 * tailScale }
        taps[0] = 1
        let norm = taps.reduce(0) { $0 + $1 * $1 }.squareRoot()
        self.taps = taps.map { $0 / norm }
    }

    /// A room drawn within the planner's ranges.
    package static func random(using generator: inout SeededGenerator) -> RoomImpulseResponse {
        let rt60 = (generator.double(in: rt60RangeSeconds) * 100).rounded() / 100
        let ratio = (generator.double(in: directToReverberantRangeDecibels) * 10).rounded() / 10
        return RoomImpulseResponse(rt60Seconds: rt60, directToReverberantDecibels: ratio, seed: generator.next())
    }

    /// `samples` as heard in this room: convolved with the response and cut
    /// to their own length plus the tail that rings past their end.
    package func apply(_ samples: [Float]) -> [Float] {
        FourierTransform.convolve(samples.map(Double.init), taps).map { Float($0) }
    }
}
