import EarsCore
/// How one synthesized clip is roughened before training, so that the
/// detector learns the phrase rather than the synthesizer: a pure value that
/// `EarsSynth.AudioAugmenter` applies (tempo, pitch and reverb by one `sox`
/// run; gain and noise in Swift with `NoiseGenerator`).
///
/// Order of application: tempo → pitch → reverb (sox) → formant warp → room
/// (Swift: `FormantWarp`, `RoomImpulseResponse`) → gain → noise. Noise is
/// mixed at `signalToNoiseDecibels` measured over the speech's active part,
/// so gain changes the clip's level without changing its SNR.
package struct Augmentation: Sendable, Hashable {
    /// The kind of background mixed under the speech.
    package enum NoiseKind: String, Sendable, Hashable, CaseIterable {
        /// Equal power per hertz.
        case white
        /// Power falling 3 dB per octave (equal power per octave), like fans and rain.
        case pink
        /// Power falling 6 dB per octave (integrated white noise), like rumble.
        case brown
        /// Several other synthesized voices summed: speech that is not the phrase.
        case babble
    }

    /// Slowest and fastest tempo factor the planner draws.
    package static let tempoRange: ClosedRange<Double> = 0.85...1.15
    /// Largest pitch shift the planner draws, in cents either way.
    package static let pitchRangeCents: ClosedRange<Int> = -300...300
    /// Reverb amount range (sox `reverb` reverberance, percent); 0 = dry.
    package static let reverbRange: ClosedRange<Int> = 0...70
    /// Gain range the planner draws, in dB.
    package static let gainRangeDecibels: ClosedRange<Double> = -12...6
    /// SNR range the planner draws, in dB.
    package static let signalToNoiseRangeDecibels: ClosedRange<Double> = 0...20

    /// Tempo factor, duration divided by it, pitch kept (1 = unchanged).
    package var tempo: Double
    /// Pitch shift in cents (100 = one semitone), duration kept.
    package var pitchCents: Int
    /// Reverberance in percent (0 = none).
    package var reverbPercent: Int
    /// Gain in dB applied after the sox effects.
    package var gainDecibels: Double
    /// The background mixed in, nil for none.
    package var noise: NoiseKind?
    /// The speech-to-noise ratio in dB over the speech's active part; used only with `noise`.
    package var signalToNoiseDecibels: Double
    /// Seeds the noise (and the babble pick), so a clip sounds the same on every run.
    package var noiseSeed: UInt64
    /// Seconds of quiet put before the speech (after its own silence is
    /// trimmed), under the noise like the rest: a detector's window of
    /// 1.28 s must fit before the phrase ends, as it does in a stream.
    package var leadSeconds = 0.0
    /// Seconds of quiet put after the speech, so the speech ends exactly
    /// `trailSeconds` before the clip does (where the positives are labelled).
    package var trailSeconds = 0.0
    /// Seconds of quiet between the speech and its clip's continuation
    /// (`TrainingClip.continuation`); unused without one.
    package var continuationGapSeconds = 0.0

    /// The vocal-tract-length factor (`FormantWarp`), 1 for none.
    package var formantFactor = 1.0
    /// The room the speech is heard in (`RoomImpulseResponse`), nil for none.
    package var room: Room?

    /// A room by its figures: small and hashable, its response built when applied.
    package struct Room: Sendable, Hashable {
        /// Seconds for the room's tail to fall by 60 dB.
        package var rt60Seconds: Double
        /// Direct sound's energy over the tail's, in dB.
        package var directToReverberantDecibels: Double
        /// Fixes the tail's noise.
        package var seed: UInt64

        /// The room's impulse response.
        package var response: RoomImpulseResponse {
            RoomImpulseResponse(rt60Seconds: rt60Seconds, directToReverberantDecibels: directToReverberantDecibels, seed: seed)
        }
    }

    /// How often the planner warps a clip's formants (0…1). 0: measured at
    /// 0.5 (with rooms at 0.35) on the quick benchmark, the held-out engine
    /// heard fewer calls in every condition (docs/training.md, issue 20's
    /// lever table), so the planner draws no warp; the effect stays for
    /// the next experiment.
    package static let formantChance = 0.0
    /// How often the planner puts a clip in a simulated room (0…1); a clip
    /// in a room gets no sox reverb on top. 0 for the same reason.
    package static let roomChance = 0.0

    /// No change at all.
    package static let none = Augmentation()

    /// An augmentation as given; the defaults change nothing.
    package init(tempo: Double = 1, pitchCents: Int = 0, reverbPercent: Int = 0, gainDecibels: Double = 0,
                noise: NoiseKind? = nil, signalToNoiseDecibels: Double = 20, noiseSeed: UInt64 = 0) {
        self.tempo = tempo
        self.pitchCents = pitchCents
        self.reverbPercent = reverbPercent
        self.gainDecibels = gainDecibels
        self.noise = noise
        self.signalToNoiseDecibels = signalToNoiseDecibels
        self.noiseSeed = noiseSeed
    }

    /// True when the formant warp or the room change the speech (done in Swift, after sox).
    package var needsSpectralEffects: Bool { formantFactor != 1 || room != nil }

    /// True when tempo, pitch or reverb differ from none: a `sox` run is needed.
    package var needsSoxEffects: Bool { tempo != 1 || pitchCents != 0 || reverbPercent != 0 }

    /// The `sox` effect arguments for tempo, pitch and reverb, in that order
    /// (empty when `needsSoxEffects` is false). Tempo uses `-s` (tuned for
    /// speech); reverb keeps the wet signal only, on a small room, so the clip
    /// length grows by at most the reverb tail.
    package var soxEffectArguments: [String] {
        var arguments: [String] = []
        if tempo != 1 { arguments += ["tempo", "-s", Self.decimal(tempo, places: 3)] }
        if pitchCents != 0 { arguments += ["pitch", String(pitchCents)] }
        if reverbPercent != 0 { arguments += ["reverb", String(reverbPercent), "50", "40"] }
        return arguments
    }

    /// A random augmentation within the planner's ranges. `noiseChance` and
    /// `reverbChance` are probabilities (0…1); `allowBabble` is false when no
    /// other speech exists to make babble from.
    package static func random(using generator: inout SeededGenerator, noiseChance: Double = 0.75,
                              reverbChance: Double = 0.4, allowBabble: Bool = true) -> Augmentation {
        var augmentation = Augmentation()
        augmentation.tempo = (generator.double(in: tempoRange) * 100).rounded() / 100
        augmentation.pitchCents = Int(generator.double(in: Double(pitchRangeCents.lowerBound)...Double(pitchRangeCents.upperBound)) / 10) * 10
        if generator.unit() < reverbChance {
            augmentation.reverbPercent = 10 + generator.index(below: reverbRange.upperBound - 10 + 1)
        }
        augmentation.gainDecibels = (generator.double(in: gainRangeDecibels) * 10).rounded() / 10
        let kinds = allowBabble ? NoiseKind.allCases : NoiseKind.allCases.filter { $0 != .babble }
        if generator.unit() < noiseChance {
            augmentation.noise = generator.pick(kinds)
            augmentation.signalToNoiseDecibels = (generator.double(in: signalToNoiseRangeDecibels) * 10).rounded() / 10
        }
        augmentation.noiseSeed = generator.next()
        // No draw at all when a chance is 0, so the plan is the one without these effects.
        if formantChance > 0, generator.unit() < formantChance {
            augmentation.formantFactor = (generator.double(in: FormantWarp.factorRange) * 100).rounded() / 100
        }
        if roomChance > 0, generator.unit() < roomChance {
            augmentation.room = Room(rt60Seconds: (generator.double(in: RoomImpulseResponse.rt60RangeSeconds) * 100).rounded() / 100,
                                     directToReverberantDecibels: (generator.double(in: RoomImpulseResponse.directToReverberantRangeDecibels) * 10).rounded() / 10,
                                     seed: generator.next())
            augmentation.reverbPercent = 0
        }
        return augmentation
    }

    /// `value` with `places` decimals, without Foundation's formatter.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        var fraction = String(abs(scaled % Int(scale)))
        while fraction.count < places { fraction = "0" + fraction }
        return (scaled < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}
