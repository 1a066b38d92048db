import Foundation // pow, once

/// A microphone's own noise under what the engines hear: seeded pink noise
/// at `levelDecibels` (−74 dBFS RMS, about 6.5 LSB) added to every sample, so
/// that digital silence never reaches an engine and a quiet room sounds like
/// a quiet room through a real microphone.
///
/// Why: a microphone always delivers a floor of its own noise, commonly −60
/// to −80 dBFS; exact zeros come from a muted input, a software noise gate,
/// a satellite that sends silence between utterances — and the benchmark's
/// "clean" stream, whose calls and near-miss sentences sit in digital
/// silence. There the acoustic route is more permissive than in any room:
/// the benchmark's clean streams with pink noise at −70 dBFS added to the
/// files woke on 23 instead of 28 of 336 near-miss sentences (the acoustic
/// route's 17 → 13), and the heads heard 4 more of the 105 calls of the
/// voices they trained on (docs/training.md, the row "a floor of noise where
/// the input is quieter than a microphone"). The ±1 LSB dither tried before
/// (about −92 dBFS) was too faint: the noise suppressor rounds it back to zeros.
///
/// Why −74: the probe's levels (−64 and −70 dBFS of noise falling 3 dB per
/// octave down to a thousandth of a hertz, added to the files) gave the
/// lowest within one call of the best on the voices the models trained on
/// at −70; that noise put 7.6 dB of its power under 60 Hz, this filter (flat
/// under 3 Hz) 2.8 dB, so −74 here is the probe's −70 across the speech band
/// (60 Hz–8 kHz: about −77 dBFS). Under a real room's floor (the
/// benchmark's quietest, a 40 dB floor, sits near −62) it adds a fraction
/// of a decibel.
///
/// When (`[wake] microphone_floor`, default auto): when every phrase has a
/// trained model. On the benchmark's full streams with the page of record's
/// models it gave the trained heads 8 more of 165 clean calls and 22 instead
/// of 28 near-miss wakes for one more false wake, but the acoustic route
/// alone three more false wakes (docs/benchmark-microphone-floor.md); the
/// quick benchmark's streams, which it was not chosen on, confirmed the
/// trained heads' part (docs/benchmark-quick-microphone-floor.md).
///
/// The ring a capture hands on keeps the audio as it came; only what the
/// engines hear carries the floor. Deterministic: a fixed seed, restarted by
/// `reset()`, so a file scanned twice is heard the same way. Pure; one
/// instance per stream.
package struct MicrophoneFloor: Sendable, Equatable {
    /// The floor's level: RMS in dBFS (0 dBFS: a full-scale 16-bit square wave's power).
    package static let levelDecibels = -74.0
    /// The generator's seed after `reset()`.
    package static let seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The floor's RMS in 16-bit sample units (about 6.5 at −74 dBFS).
    package static let rmsSamples = 32_768 * pow(10, levelDecibels / 20)

    /// The pink filter's RMS for unit white noise in: the root of the sum of
    /// its squared impulse response, summed until the slowest section has
    /// decayed below 1e-12 (so the floor's level is derived, not fitted).
    static let filterGain: Double = {
        var filter = PinkFilter()
        var energy = 0.0
        for step in 0..<40_000 {
            let out = filter.next(white: step == 0 ? 1 : 0)
            energy += out * out
        }
        return energy.squareRoot()
    }()

    /// √12: a uniform draw on [−½, ½) scaled by it has unit variance.
    private static let uniformToUnitVariance = 12.0.squareRoot()

    private var generator = SeededGenerator(seed: MicrophoneFloor.seed)
    private var filter = PinkFilter()

    /// A floor at its seed.
    package init() {}

    /// Restarts the noise at its seed (a new stream).
    package mutating func reset() {
        generator = SeededGenerator(seed: Self.seed)
        filter = PinkFilter()
    }

    /// `samples` with the floor's noise added, rounded to the nearest step and
    /// kept inside the 16-bit range. Same count, same order.
    package mutating func apply(_ samples: [Int16]) -> [Int16] {
        let scale = Self.rmsSamples / Self.filterGain
        return samples.map { sample in
            // Uniform white of unit variance (a Gaussian's logarithm and cosine
            // per sample cost more than the rest of the floor; the filter's
            // memory sums many draws, so its output is close to Gaussian anyway).
            let white = (generator.unit() - 0.5) * Self.uniformToUnitVariance
            let noise = filter.next(white: white) * scale
            return Int16(clamping: Int32((Double(sample) + noise).rounded()))
        }
    }
}
