import EarsCore
import EarsTraining

/// Applies an `Augmentation` to 16 kHz mono samples: tempo, pitch and reverb
/// by one `sox` run over pipes (raw 16-bit in, raw 16-bit out, nothing on
/// disk), then formant warp, room, gain and noise in Swift (`NoiseGenerator`, seeded by the
/// augmentation, so the same clip always comes out the same).
package struct AudioAugmenter: Sendable {
    /// The sample rate in and out, in Hz.
    package static let sampleRate = SpeechSynthesizer.sampleRate

    /// An augmenter; it holds nothing.
    package init() {}

    /// `samples` roughened by `augmentation`. `babble` is other speech (16
    /// kHz) to build babble noise from; without it babble falls back to pink.
    /// Throws when sox is missing or fails.
    package func apply(_ augmentation: Augmentation, to samples: [Int16], babble: [[Int16]] = []) throws(SynthError) -> [Int16] {
        try apply(augmentation, to: samples, then: [], babble: babble).samples
    }

    /// `samples`, then `continuation` (the same voice going on, dry; empty
    /// for none) `augmentation.continuationGapSeconds` after the speech's
    /// end, roughened as one clip: each part through the same sox effects,
    /// both between the lead and the trail, gain and noise over the whole.
    /// Returns the audio and the sample at which `samples`' speech ends in
    /// it (the label's end; with no lead or trail, the audio's length).
    package func apply(_ augmentation: Augmentation, to samples: [Int16], then continuation: [Int16],
                       babble: [[Int16]] = []) throws(SynthError) -> (samples: [Int16], speechEndSample: Int) {
        guard !samples.isEmpty else { return (samples, 0) }
        var audio = try soxEffects(augmentation, on: samples)
        var speechEnd = audio.count
        if augmentation.leadSeconds > 0 || augmentation.trailSeconds > 0 || !continuation.isEmpty {
            let speech = Self.trimmed(audio)
            speechEnd = Self.samples(augmentation.leadSeconds) + speech.count
            var following: [Int16] = []
            if !continuation.isEmpty {
                following = [Int16](repeating: 0, count: Self.samples(augmentation.continuationGapSeconds))
                    + Self.trimmed(try soxEffects(augmentation, on: continuation))
            }
            audio = Self.padded(speech + following, leadSamples: Self.samples(augmentation.leadSeconds),
                                trailSamples: Self.samples(augmentation.trailSeconds))
        }
        var floats = NoiseGenerator.gain(NoiseGenerator.float(audio), decibels: augmentation.gainDecibels)
        if let kind = augmentation.noise {
            var generator = NoiseGenerator(seed: augmentation.noiseSeed)
            let noise = generator.noise(kind, count: floats.count, speech: babble)
            floats = NoiseGenerator.mix(speech: floats, noise: noise, snrDecibels: augmentation.signalToNoiseDecibels)
        }
        return (NoiseGenerator.int16(floats), speechEnd)
    }

    /// `samples` through `augmentation`'s tempo, pitch and reverb (one sox
    /// run over pipes), then its formant warp and room (in Swift);
    /// unchanged when it has none.
    private func soxEffects(_ augmentation: Augmentation, on samples: [Int16]) throws(SynthError) -> [Int16] {
        let voiced = try soxOnly(augmentation, on: samples)
        guard augmentation.needsSpectralEffects, !voiced.isEmpty else { return voiced }
        var floats = NoiseGenerator.float(voiced)
        if augmentation.formantFactor != 1 { floats = FormantWarp(factor: augmentation.formantFactor).apply(floats) }
        if let room = augmentation.room { floats = room.response.apply(floats) }
        return NoiseGenerator.int16(floats)
    }

    /// `samples` through the sox part alone (tempo, pitch, reverb).
    private func soxOnly(_ augmentation: Augmentation, on samples: [Int16]) throws(SynthError) -> [Int16] {
        guard augmentation.needsSoxEffects, !samples.isEmpty else { return samples }
        let raw = ["-t", "raw", "-e", "signed-integer", "-b", "16", "-L", "-r", String(Self.sampleRate), "-c", "1"]
        // -V1: errors only (stderr is discarded anyway); -D: no dither, so
        // the output depends on the input alone.
        let output = try Subprocess.run(.sox, ["-V1", "-D"] + raw + ["-"] + raw + ["-"] + augmentation.soxEffectArguments,
                                        input: PCMAudio.bytes(samples))
        return PCMAudio.samples(output)
    }

    /// Samples below this fraction of the clip's peak at either end count as
    /// the synthesizer's own silence (about -34 dB).
    package static let silenceFraction = 0.02
    /// Samples kept on each side of the trimmed speech (10 ms), so no onset is cut.
    package static let trimMarginSamples = 160

    /// `samples` without the quiet at either end (see `silenceFraction`).
    package static func trimmed(_ samples: [Int16]) -> [Int16] {
        let peak = samples.reduce(0) { max($0, abs(Int($1))) }
        let floor = Int(Double(peak) * silenceFraction)
        guard peak > 0, let first = samples.firstIndex(where: { abs(Int($0)) > floor }),
              let last = samples.lastIndex(where: { abs(Int($0)) > floor }) else { return samples }
        return Array(samples[max(0, first - trimMarginSamples)...min(samples.count - 1, last + trimMarginSamples)])
    }

    /// `samples` with zeros before and after.
    static func padded(_ samples: [Int16], leadSamples: Int, trailSamples: Int) -> [Int16] {
        [Int16](repeating: 0, count: leadSamples) + samples + [Int16](repeating: 0, count: trailSamples)
    }

    /// Whole samples in `seconds`.
    static func samples(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }

    /// A clip of noise alone, `seconds` long: `augmentation`'s noise kind
    /// (pink when it has none) at `NoiseGenerator.noiseRMS` (−20 dBFS) plus
    /// its gain.
    package func noiseOnly(seconds: Double, augmentation: Augmentation, babble: [[Int16]] = []) -> [Int16] {
        var generator = NoiseGenerator(seed: augmentation.noiseSeed)
        let count = Int((seconds * Double(Self.sampleRate)).rounded())
        let noise = generator.noise(augmentation.noise ?? .pink, count: count, speech: babble)
        return NoiseGenerator.int16(NoiseGenerator.gain(noise, decibels: augmentation.gainDecibels))
    }
}
