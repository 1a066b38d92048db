import Foundation
@testable import EarsCore

/// Deterministic test signals, in full-scale units (±1.0 is ±32,768) until
/// `pcm` turns them into samples. Levels are dBFS of mean square power, as the
/// gate measures them: a full-scale square wave is 0 dBFS.
enum GateSignal {
    static let rate = Double(AudioFormat.sampleRate)

    /// SplitMix64: a seeded generator of our own, so every run hears the same noise.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// Uniform in −1…1.
        mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
    }

    static func count(_ seconds: Double) -> Int { Int((seconds * rate).rounded()) }

    static func silence(seconds: Double) -> [Double] { [Double](repeating: 0, count: count(seconds)) }

    /// Scales `signal` so its mean square is `decibels` dBFS.
    static func scaled(_ signal: [Double], toDecibels decibels: Double) -> [Double] {
        let power = signal.reduce(0) { $0 + $1 * $1 } / Double(max(1, signal.count))
        guard power > 0 else { return signal }
        let gain = (pow(10, decibels / 10) / power).squareRoot()
        return signal.map { $0 * gain }
    }

    /// Flat-spectrum noise (sum of three uniforms, near Gaussian).
    static func whiteNoise(seconds: Double, decibels: Double, seed: UInt64) -> [Double] {
        var generator = Generator(state: seed)
        let raw = (0..<count(seconds)).map { _ in generator.uniform() + generator.uniform() + generator.uniform() }
        return scaled(raw, toDecibels: decibels)
    }

    /// Noise falling about 3 dB per octave (Paul Kellet's economy pink filter).
    static func pinkNoise(seconds: Double, decibels: Double, seed: UInt64) -> [Double] {
        var generator = Generator(state: seed)
        var b0 = 0.0, b1 = 0.0, b2 = 0.0
        let raw = (0..<count(seconds)).map { _ -> Double in
            let white = generator.uniform()
            b0 = 0.99765 * b0 + white * 0.0990460
            b1 = 0.96300 * b1 + white * 0.2965164
            b2 = 0.57000 * b2 + white * 1.0526913
            return b0 + b1 + b2 + white * 0.1848
        }
        return scaled(raw, toDecibels: decibels)
    }

    /// Brown-ish noise: leaky-integrated white (−6 dB per octave above 5 Hz),
    /// the kind whose 10 ms power flickers by 17 dB unless high-passed.
    static func brownNoise(seconds: Double, decibels: Double, seed: UInt64) -> [Double] {
        var generator = Generator(state: seed)
        var level = 0.0
        let raw = (0..<count(seconds)).map { _ -> Double in
            level = 0.998 * level + generator.uniform()
            return level
        }
        return scaled(raw, toDecibels: decibels)
    }

    /// Fan-like rumble: white noise through two one-pole low-passes at about
    /// 300 Hz, so it crosses zero as seldom as a vowel does.
    static func rumble(seconds: Double, decibels: Double, seed: UInt64) -> [Double] {
        var generator = Generator(state: seed)
        let pole = exp(-2 * Double.pi * 300 / rate)
        var first = 0.0, second = 0.0
        let raw = (0..<count(seconds)).map { _ -> Double in
            first = pole * first + (1 - pole) * generator.uniform()
            second = pole * second + (1 - pole) * first
            return second
        }
        return scaled(raw, toDecibels: decibels)
    }

    /// Speech-like: a 130 Hz voice with twenty harmonics shaped by two
    /// formants (500 Hz, 1.5 kHz), in 4 Hz syllables that start and end
    /// silent (sin² envelope), so the first sample is the quiet start of a
    /// word. `dipDecibels` below the syllable peaks is as quiet as it gets
    /// between syllables (nil: silent).
    static func speech(seconds: Double, decibels: Double, dipDecibels: Double? = nil) -> [Double] {
        let dip = dipDecibels.map { pow(10, -$0 / 20) } ?? 0
        let pitch = 130.0, syllablesPerSecond = 4.0
        let weights = (1...20).map { harmonic -> Double in
            let frequency = pitch * Double(harmonic)
            return 1 / (1 + pow((frequency - 500) / 200, 2)) + 0.5 / (1 + pow((frequency - 1_500) / 300, 2))
        }
        let raw = (0..<count(seconds)).map { index -> Double in
            let time = Double(index) / rate
            let envelope = dip + (1 - dip) * pow(sin(Double.pi * syllablesPerSecond * time), 2)
            var value = 0.0
            for (offset, weight) in weights.enumerated() {
                value += weight * sin(2 * Double.pi * pitch * Double(offset + 1) * time)
            }
            return envelope * value
        }
        return scaled(raw, toDecibels: decibels)
    }

    /// A 1 kHz tone at −6 dBFS lasting `seconds` (10 ms is a click).
    static func tone(seconds: Double) -> [Double] {
        scaled((0..<count(seconds)).map { sin(2 * Double.pi * 1_000 * Double($0) / rate) }, toDecibels: -6)
    }

    /// Adds `part` into `signal` starting at sample `at`.
    static func mixed(_ signal: [Double], _ part: [Double], at: Int) -> [Double] {
        var out = signal
        for (index, value) in part.enumerated() where at + index < out.count { out[at + index] += value }
        return out
    }

    /// Rounds and clips to S16.
    static func pcm(_ signal: [Double]) -> [Int16] {
        signal.map { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) }
    }

    /// Cuts samples into 100 ms chunks numbered from sample 0.
    static func chunks(_ samples: [Int16]) -> [AudioChunk] {
        stride(from: 0, to: samples.count, by: AudioFormat.chunkSamples).map { start in
            AudioChunk(samples: Array(samples[start..<min(samples.count, start + AudioFormat.chunkSamples)]),
                       startSample: Int64(start))
        }
    }

    /// Runs `samples` through `gate` the way `Ear.take` does (ring first);
    /// returns what the gate admitted for each chunk.
    static func run(_ gate: EnergySpeechGate, _ samples: [Int16]) -> [[AudioChunk]] {
        var ring = SampleRing(seconds: Ear.ringSeconds)
        return chunks(samples).map { chunk in
            ring.append(contentsOf: chunk.samples)
            return gate.admit(chunk, ring: ring)
        }
    }
}
