import EarsCore
import EarsONNX
import EarsSynth
import Foundation
import EarsPhonetics
import EarsNeural
import EarsTraining
import EarsEngines

/// One run of `ears train`: plan the synthesized corpus, say it, hear it
/// through the shared front end, train the phrase's head, mine the
/// negatives it got wrong and train again, choose the threshold on the
/// validation voices, and measure the result on voices it never heard.
///
/// Everything heard lives in memory (the synthesizer's private temp
/// directory is removed when it is released); the result is a `WakeModel`,
/// weights and numbers only. The caller writes it (`ModelFileWriter`).
final class PhraseTrainer {
    /// What to train.
    struct Settings {
        /// The phrase as configured.
        var phrase: String
        /// "en" or "ko".
        var language: String
        /// The wall-time budget the plan is sized for, in minutes.
        var minutes: Double
        /// Voice ids or engine names to keep (empty: all installed voices).
        var voices: [String]
        /// Seeds the plan, the augmentation and the weights.
        var seed: UInt64
    }

    /// Why training stopped without a model.
    enum Failure: Error {
        /// Ctrl-C (or SIGTERM): nothing was written.
        case cancelled
        /// Something outside ears is missing or failed; the sentence says what to do.
        case failed(String)

        var sentence: String {
            switch self {
            case .cancelled: return "training was interrupted; nothing was written"
            case let .failed(sentence): return sentence
            }
        }
    }

    /// Other speech (fortunes) per positive, as a multiple of the plan's:
    /// false wakes in speech are what the first heads got most wrong.
    static let otherSpeechScale = 1.5
    /// Dropout after the hidden layer and decoupled weight decay: measured
    /// on "hey cordelia", they lifted held-out recall at 0.5 from 85% to 94%.
    static let dropout: Float = 0.2
    static let weightDecay: Float = 1e-3
    /// Masks on the training windows (`HeadTrainer.Settings`): with this
    /// chance a run of 1–2 embeddings, and with the same chance a band of
    /// 1–12 of the 96 channels, is set to the training mean for one step.
    static let embeddingMaskChance: Float = 0
    static let channelMaskChance: Float = 0

    /// The plan's budget for `minutes` of wall time.
    static func budget(minutes: Double) -> TrainingBudget {
        var budget = TrainingBudget.forMinutes(minutes)
        budget.otherSpeech = Int((Double(budget.otherSpeech) * otherSpeechScale).rounded())
        return budget
    }

    /// Sound-alike texts asked of the generator (its neighbours and sentences).
    /// (Only the distinct ones are negatives: `DetectorFactory.distinct`.)
    static let soundAlikeCount = 120
    /// The heads of a phrase in `denoisedLanguages` hear every clip through
    /// speexdsp's noise suppressor at this level (dB), each clip with a fresh
    /// noise estimate, and the model says so (`WakeModel.denoisedSuffix`), so
    /// `ears listen` feeds them denoised audio too (`[wake] trained_denoise =
    /// auto`). Measured on the quick benchmark (docs/training.md's lever
    /// table): more English calls at 5 dB, in babble and in the room, fewer
    /// false wakes, than heads trained on audio as captured.
    static let denoiseDecibels = -15
    /// The languages whose heads are trained on denoised audio. Korean is
    /// not: `make bench-korean` measured its head trained denoised at 19.1
    /// false wakes per hour against 2.1 trained on audio as captured
    /// (docs/training.md), so a Korean head hears audio as captured.
    static let denoisedLanguages: Set<String> = ["en"]

    /// The suppression level (dB) the heads of a phrase in `language` are
    /// trained behind, or nil when they hear audio as captured.
    static func denoiseDecibels(language: String) -> Int? {
        denoisedLanguages.contains(language) ? denoiseDecibels : nil
    }
    /// The languages whose plans have speech only mined
    /// (`TrainingBudget.minedSpeech`): measured on English (docs/training.md's
    /// lever table) and on Korean (`make bench-korean`: false wakes on 4.3 h
    /// of read Korean 4.40 → 2.32 per hour, recall unchanged; docs/training.md).
    static let minedSpeechLanguages: Set<String> = ["en", "ko"]
    /// Clips of each distinct sound-alike text, at most.
    static let clipsPerSoundAlike = 80
    /// Heads trained from different seeds on the mined windows and joined
    /// (`WakeHeadEnsemble`: the mean of their logits).
    static let ensembleSize = 3
    /// Lead before the speech of a phrase-like clip: the window (1.28 s) plus
    /// the front end's start-up must fit before the phrase ends.
    static let phraseLeadSeconds: ClosedRange<Double> = 1.4...2.2
    /// Lead before other speech.
    static let speechLeadSeconds = 1.3
    /// Quiet after every clip's speech.
    static let trailSeconds = 0.6

    /// What to train and how (phrase, language, seed, voices, minutes).
    let settings: Settings
    /// Reports a stage's progress as (stage, done, total); called from worker threads.
    let progress: @Sendable (TrainingProgress.Stage, Int, Int) -> Void
    /// True once the run should stop; polled between steps.
    let isCancelled: @Sendable () -> Bool
    /// Prints one plain line about the run (never audio or a transcript).
    let note: @Sendable (String) -> Void

    /// A trainer for `settings`; `progress(stage, done, total)` reports how far
    /// it is, `note` prints one plain line, `isCancelled` is polled between steps.
    init(settings: Settings, progress: @escaping @Sendable (TrainingProgress.Stage, Int, Int) -> Void,
         note: @escaping @Sendable (String) -> Void, isCancelled: @escaping @Sendable () -> Bool) {
        self.settings = settings
        self.progress = progress
        self.note = note
        self.isCancelled = isCancelled
    }

    /// One held-out call kept for the comparison with the acoustic route:
    /// its audio (16 kHz), where its phrase ends, and its condition.
    struct HeldOutCall {
        var samples: [Int16]
        var speechEndSample: Int
        var condition: RouteComparison.Condition
    }

    /// What training produced: the model and, when the acoustic route could
    /// be measured on the same held-out calls, the comparison of the two.
    struct Outcome {
        var model: WakeModel
        var comparison: RouteComparison?
        /// The validation voices' figures at the chosen threshold when no
        /// candidate kept their other speech within the allowance (nil when one did).
        var stillWoken: TrainingEvaluation.Figures?
    }

    /// Runs every stage; returns the model. `acousticHears`, when given,
    /// says whether the acoustic route wakes on one held-out call (its audio
    /// and the sample where its phrase ends); the model is compared with it.
    func run(pronouncer: any Pronouncer,
             acousticHears: ((_ samples: [Int16], _ speechEndSample: Int) -> Bool)? = nil) throws(Failure) -> Outcome {
        let started = ContinuousClock.now
        // The front end first: a missing one must fail in a second, not
        // after minutes of synthesis (its sentence says how to install it).
        let frontEnd = try probeFrontEnd()
        let plan = try makePlan(pronouncer: pronouncer)
        let clips = Self.withQuiet(plan.clips, seed: settings.seed)
        note("plan: \(clips.count) clips (\(clips.filter { $0.role == .positive }.count) of the phrase), "
            + "voices held out: \(plan.speakers[.heldOut]?.joined(separator: ", ") ?? "none")")

        // A developer's cache of this run's embeddings (`FeatureCache`), when named.
        let cache = ProcessInfo.processInfo.environment[FeatureCache.environmentVariable].map {
            FeatureCache(directory: $0, phrase: settings.phrase, seed: settings.seed, minutes: settings.minutes)
        }
        let features: [ClipFeatures]
        var heldOutCalls: [HeldOutCall] = []
        if let cache, let cached = cache.load() {
            features = cached
            note("heard \(cached.count) clips from the feature cache \(cache.metadataPath) (no acoustic comparison)")
        } else {
            let (streams, continuedEnds) = try synthesizeJoined(clips)
            note("synthesized \(clips.count) clips in \(Self.seconds(since: started)) s")
            features = try listen(clips: streams.clips, audio: streams.audio, continuedEnds: continuedEnds)
            note("heard them through the front end by \(Self.seconds(since: started)) s")
            if acousticHears != nil {
                heldOutCalls = Self.heldOutCalls(streams.clips, audio: streams.audio, continuedEnds: continuedEnds)
            }
            if let cache {
                do { try cache.save(features) } catch { note("the feature cache could not be written: \(error)") }
            }
        }
        let audioSeconds = features.reduce(0) { $0 + $1.seconds }

        let labelling = TrainingWindows()
        let trainClips = features.filter { $0.split == .train && !$0.minedOnly }
        let minedOnlyClips = features.filter { $0.split == .train && $0.minedOnly }
        // Every validation clip chooses the threshold; the speech only for
        // that is left out of each epoch's selection, which it would slow.
        let validationClips = features.filter { $0.split == .validation }
        var examples = Self.examples(trainClips, labelling: labelling)
        let validation = Self.examples(validationClips.filter { !$0.minedOnly }, labelling: labelling)
        var trainer = HeadTrainer()
        trainer.settings.seed = settings.seed
        trainer.settings.selection = .averagePrecision
        trainer.settings.dropout = Self.dropout
        trainer.settings.weightDecay = Self.weightDecay
        trainer.settings.embeddingMaskChance = Self.embeddingMaskChance
        trainer.settings.channelMaskChance = Self.channelMaskChance
        let rounds = 1 + Self.ensembleSize
        let first = try train(trainer, examples: examples, validation: validation, round: 1, of: rounds)

        progress(.mining, 0, 1)
        let mined = HardNegativeMining.mine(examples, score: first.score(window:))
            + HardNegativeMining.mine(minedOnlyClips, labelling: labelling, score: first.score(window:))
        note("mining: \(mined.count) negative windows scored above \(HardNegativeMining.miningScore) by the first head "
            + "(\(minedOnlyClips.count) stretches of speech heard only for this)")
        examples += mined
        progress(.mining, 1, 1)
        var members: [WakeHead] = []
        for member in 0..<Self.ensembleSize {
            var seeded = trainer
            seeded.settings.seed = settings.seed &+ UInt64(member)
            members.append(try train(seeded, examples: examples, validation: validation, round: 2 + member, of: rounds))
        }
        guard let head = WakeHeadEnsemble.joined(members) else {
            throw .failed("the heads could not be joined: \(WakeHeadEnsemble.problem(members) ?? "")")
        }
        note("trained by \(Self.seconds(since: started)) s")

        progress(.validating, 0, 2)
        let (threshold, validationFigures) = TrainingEvaluation.chooseThreshold(head, clips: validationClips)
        if ProcessInfo.processInfo.environment["EARS_TRAIN_SWEEP"] != nil {
            // Numbers only, for whoever tunes the trainer: each candidate
            // threshold on the validation and held-out voices.
            for candidate in TrainingEvaluation.candidateThresholds {
                for (label, split) in [("validation", TrainingClip.Split.validation), ("held-out", .heldOut)] {
                    let f = TrainingEvaluation.figures(head, threshold: candidate, clips: features.filter { $0.split == split })
                    note("sweep \(candidate) \(label): positives \(Self.describe(f.allPositives)), clean \(Self.describe(f.clean)), "
                        + "10 dB \(Self.describe(f.near10dB)), 5 dB \(Self.describe(f.near5dB)), false wakes \(f.falseWakes) in "
                        + "\(Int(f.negativeSeconds)) s, sound-alikes \(Self.describe(f.soundAlikes)), words in sentences \(Self.describe(f.wordsInSentences))")
                }
            }
        }
        progress(.validating, 1, 2)
        let heldOut = TrainingEvaluation.figures(head, threshold: threshold, clips: features.filter { $0.split == .heldOut })
        var comparison: RouteComparison?
        if let acousticHears, !heldOutCalls.isEmpty {
            var acoustic: [RouteComparison.Condition: TrainingEvaluation.Tally] = [:]
            for call in heldOutCalls {
                if isCancelled() { throw .cancelled }
                acoustic[call.condition, default: .init()].add(acousticHears(call.samples, call.speechEndSample))
            }
            comparison = RouteComparison(model: [.clean: heldOut.clean, .near10dB: heldOut.near10dB, .near5dB: heldOut.near5dB],
                                         acoustic: acoustic)
            note("held-out calls, trained model vs acoustic route: \(comparison?.figuresLine ?? "")")
        }
        progress(.validating, 2, 2)
        let stillWoken = TrainingEvaluation.quiet(validationFigures) ? nil : validationFigures
        note("threshold \(threshold): validation voices hear \(Self.describe(validationFigures.allPositives)) of the phrase, "
            + "\(validationFigures.falseWakes) false wakes in \(Int(validationFigures.negativeSeconds)) s"
            + (stillWoken == nil ? "" : " (no candidate kept them within the allowance: the highest taken)"))

        let positives = examples.filter { $0.label > 0.5 }.count
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        let model = WakeModel(
            phrase: settings.phrase, language: settings.language, frontEndVersion: frontEnd, head: head, threshold: threshold,
            // The speakers the train split's clips were said by (not every speaker its pool could have drawn).
            training: WakeModel.TrainingSummary(voices: Set(plan.clips.filter { $0.split == .train }.compactMap { $0.voice?.speakerID }).sorted(),
                                                heldOutVoices: plan.speakers[.heldOut] ?? [],
                                                positives: positives, negatives: examples.count - positives,
                                                audioSeconds: audioSeconds, trainingSeconds: seconds,
                                                createdAt: ISO8601DateFormatter().string(from: Date())),
            validation: WakeModel.ValidationFigures(recallClean: heldOut.clean.rate, recallAt10dB: heldOut.near10dB.rate,
                                                    recallAt5dB: heldOut.near5dB.rate, falseWakesPerHour: heldOut.falseWakesPerHour,
                                                    soundAlikeWakeRate: heldOut.soundAlikes.rate))
        return Outcome(model: model, comparison: comparison, stillWoken: stillWoken)
    }

    /// The held-out positives' audio, end and condition (the calls both
    /// routes are measured on); a few dozen clips, copied out so the rest of
    /// the synthesized audio can go.
    static func heldOutCalls(_ clips: [TrainingClip], audio: [[Int16]], continuedEnds: [Int: Int]) -> [HeldOutCall] {
        zip(clips, audio).compactMap { clip, samples in
            guard clip.role == .positive, clip.split == .heldOut, let condition = RouteComparison.Condition(of: clip.augmentation) else {
                return nil
            }
            let end = continuedEnds[clip.index] ?? samples.count - Int(trailSeconds * Double(AudioFormat.sampleRate))
            return HeldOutCall(samples: samples, speechEndSample: end, condition: condition)
        }
    }
}
