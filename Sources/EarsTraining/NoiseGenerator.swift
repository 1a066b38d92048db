import Foundation // log10 and pow only
import EarsCore

/// Seeded background noise at 16 kHz and the mixer that lays it under speech
/// at a chosen signal-to-noise ratio. Pure: samples in, samples out.
///
/// Noise is returned as `Float` in full-scale units (±1 = Int16 full scale),
/// normalized to `noiseRMS` so that callers mix by ratio, never by absolute
/// level. Colours:
/// - white: Gaussian, flat spectrum;
/// - pink: white through Paul Kellet's refined 1/f filter (seven one-pole
///   sections), within ±0.05 dB of −3 dB/octave from 10 Hz up to a few kHz at 44.1 kHz and
///   close enough at 16 kHz for training;
/// - brown: leaky-integrated white (−6 dB/octave above the leak's 3 Hz corner);
/// - babble: given clips of other speech, each looped to length, summed.
package struct NoiseGenerator: Sendable {
    /// The sample rate all clips are made at, in Hz.
    package static let sampleRate = 16_000
    /// The RMS of generated noise in full-scale units (−20 dBFS): loud enough
    /// to be far above Int16 rounding, quiet enough never to clip.
    package static let noiseRMS = 0.1
    /// Frame length for finding the speech's active part: 20 ms.
    package static let frameSamples = 320
    /// A frame is active when its power is within this many dB of the loudest frame.
    package static let activeWithinDecibels = 35.0
    /// How many voices a babble sums at most.
    package static let babbleVoices = 4

    /// The seeded source of all randomness.
    private var generator: SeededGenerator

    /// A generator whose noise is fixed by `seed`.
    package init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// `count` samples of `kind` noise at `noiseRMS`. Babble needs `speech`
    /// (other clips, Int16 at 16 kHz); without any it falls back to pink.
    package mutating func noise(_ kind: Augmentation.NoiseKind, count: Int, speech: [[Int16]] = []) -> [Float] {
        guard count > 0 else { return [] }
        var samples: [Double]
        switch kind {
        case .white:
            samples = (0..<count).map { _ in generator.gaussian() }
        case .pink:
            samples = pink(count: count)
        case .brown:
            samples = brown(count: count)
        case .babble:
            let sources = speech.filter { !$0.isEmpty }
            samples = sources.isEmpty ? pink(count: count) : babble(count: count, from: sources)
        }
        return Self.normalized(samples, toRMS: Self.noiseRMS)
    }

    /// Kellet's refined pink filter (`PinkFilter`) over Gaussian white noise.
    private mutating func pink(count: Int) -> [Double] {
        var filter = PinkFilter()
        var out = [Double](repeating: 0, count: count)
        for index in 0..<count {
            out[index] = filter.next(white: generator.gaussian())
        }
        return out
    }

    /// Leaky integration of white noise; the leak keeps it from drifting off.
    private mutating func brown(count: Int) -> [Double] {
        let leak = 0.998_8 // corner ≈ 16000 × (1 − leak) / 2π ≈ 3 Hz
        var level = 0.0
        var out = [Double](repeating: 0, count: count)
        for index in 0..<count {
            level = leak * level + generator.gaussian()
            out[index] = level
        }
        return out
    }

    /// Up to `babbleVoices` of `sources`, each from a random offset and looped, summed.
    private mutating func babble(count: Int, from sources: [[Int16]]) -> [Double] {
        var out = [Double](repeating: 0, count: count)
        for _ in 0..<min(Self.babbleVoices, sources.count) {
            let source = generator.pick(sources)
            var position = generator.index(below: source.count)
            for index in 0..<count {
                out[index] += Double(source[position]) / 32768
                position += 1
                if position == source.count { position = 0 }
            }
        }
        return out
    }

    /// `samples` scaled to `rms` (silence stays silence).
    static func normalized(_ samples: [Double], toRMS rms: Double) -> [Float] {
        let current = rootMeanSquare(samples[...])
        let scale = current > 0 ? rms / current : 0
        return samples.map { Float($0 * scale) }
    }

    /// Root mean square of a slice (0 when empty).
    static func rootMeanSquare(_ samples: ArraySlice<Double>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count)).squareRoot()
    }

    /// The RMS of `speech`'s active part, in full-scale units: the mean power
    /// of the 20 ms frames within `activeWithinDecibels` of the loudest frame,
    /// so that pauses and leading silence do not dilute the level the SNR is
    /// measured against. 0 for silence.
    package static func activeRMS(_ speech: [Float]) -> Double {
        let values = speech.map(Double.init)
        var framePowers: [Double] = []
        var start = 0
        while start < values.count {
            let end = min(start + frameSamples, values.count)
            let rms = rootMeanSquare(values[start..<end])
            framePowers.append(rms * rms)
            start = end
        }
        guard let loudest = framePowers.max(), loudest > 0 else { return 0 }
        let threshold = loudest * pow(10, -activeWithinDecibels / 10)
        let active = framePowers.filter { $0 >= threshold }
        return (active.reduce(0, +) / Double(active.count)).squareRoot()
    }

    /// `speech` with `noise` laid under it so that the active speech RMS over
    /// the noise RMS is `snrDecibels`. The noise is looped or cut to the
    /// speech's length. Both are full-scale floats; the result is not clipped
    /// (the caller converts with `int16(_:)`). Silent speech or noise returns
    /// the speech unchanged.
    package static func mix(speech: [Float], noise: [Float], snrDecibels: Double) -> [Float] {
        guard !speech.isEmpty, !noise.isEmpty else { return speech }
        let speechRMS = activeRMS(speech)
        let noiseRMS = rootMeanSquare(noise.map(Double.init)[...])
        guard speechRMS > 0, noiseRMS > 0 else { return speech }
        let wanted = speechRMS / pow(10, snrDecibels / 20)
        let scale = Float(wanted / noiseRMS)
        var out = speech
        for index in out.indices {
            out[index] += noise[index % noise.count] * scale
        }
        return out
    }

    /// Int16 samples as full-scale floats.
    package static func float(_ samples: [Int16]) -> [Float] {
        samples.map { Float($0) / 32768 }
    }

    /// Full-scale floats as Int16 samples, clipped at full scale.
    package static func int16(_ samples: [Float]) -> [Int16] {
        samples.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
    }

    /// `samples` scaled by `decibels`.
    package static func gain(_ samples: [Float], decibels: Double) -> [Float] {
        guard decibels != 0 else { return samples }
        let factor = Float(pow(10, decibels / 20))
        return samples.map { $0 * factor }
    }
}
