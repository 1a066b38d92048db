import EarsCore
import EarsONNX
import EarsPocketSphinx
import EarsSpeex
import EarsVosk
import EarsPhonetics
import EarsConfig
import EarsNeural

/// Builds the configured transcriber. Loading can fail (a missing model); the
/// error's sentence is what `closed_why` shows.
package enum EngineFactory {
    /// The model name to show before the engine has loaded.
    package static func modelLabel(for config: EarsConfig) -> String {
        switch config.engine {
        case .pocketsphinx: return config.model ?? PocketSphinxModel.defaultDirectory
        case .vosk:
            return config.model
                ?? VoskModel.candidateDirectories(configured: nil).first(where: VoskModel.looksLikeModel)
                ?? "vosk model (not installed)"
        }
    }

    /// Fewest filler words the model must know before a grammar is used: with
    /// too few, Vosk snaps unrelated speech onto the phrase (the Korean model
    /// has no `[unk]` to absorb it).
    package static let minimumKnownFillers = 20

    /// The runtime grammar for Vosk, or nil for free decoding. With
    /// `[engine] vosk_grammar = on` (the default; see docs/performance.md) the
    /// grammar is the phrases repeated (raising their weight) plus filler words
    /// the model knows; a model that knows too few fillers decodes freely.
    static func voskGrammar(for config: EarsConfig, model: VoskModel) -> [String]? {
        guard config.voskGrammar else { return nil }
        let fillers = VoskTranscriber.koreanFillerWords.filter(model.knows)
        guard fillers.count >= minimumKnownFillers else { return nil }
        return VoskTranscriber.wakeGrammar(phrases: config.phrases.map(\.text), fillers: fillers)
    }

    /// Every written form of every phrase (texts, then aliases).
    static func phraseForms(_ config: EarsConfig) -> [String] {
        config.phrases.flatMap(\.forms)
    }

    /// Letter-to-sound phones for words the PocketSphinx dictionary lacks.
    static let letterToSound = LetterToSoundPronouncer()

    /// Loads the engine named in `config`: for PocketSphinx, the keyphrase
    /// spotter or the transcriber, as `[wake] spotter` says.
    package static func make(for config: EarsConfig) throws(TranscriberError) -> any Transcriber {
        switch config.engine {
        case .pocketsphinx:
            let model = try PocketSphinxModel.locate(in: config.model)
            switch config.spotter {
            case .keyphrase:
                return try PocketSphinxSpotter(model: model, phrases: phraseForms(config), threshold: config.spotterThreshold,
                                               fallback: letterToSound.phones(for:))
            case .transcript:
                return try PocketSphinxTranscriber(model: model, boostedPhrases: config.phrases.map(\.text),
                                                   boostWeight: Float(config.phraseBoost))
            }
        case .vosk:
            let model = try VoskModel.locate(config.model)
            return try VoskTranscriber(model: model, grammar: voskGrammar(for: config, model: model))
        }
    }

    /// What an ear hears with: the configured engine (the acoustic route),
    /// the phrases' trained models, or both — the engine for the phrases
    /// without a model beside the models for those with one.
    package enum Engines {
        /// No phrase has a trained model (or `trained_models = off`).
        case acoustic(any Transcriber)
        /// Every phrase has one: no other engine is loaded.
        case trained(NeuralTranscriber)
        /// Some have: `acoustic` hears the rest.
        case both(acoustic: any Transcriber, trained: NeuralTranscriber)

        /// The engine the ear's gate and suppressor sit in front of.
        package var main: any Transcriber {
            switch self {
            case let .acoustic(engine), let .both(engine, _): return engine
            case let .trained(engine): return engine
            }
        }

        /// The trained engine, when there is one.
        package var trained: NeuralTranscriber? {
            switch self {
            case .acoustic: return nil
            case let .trained(engine), let .both(_, engine): return engine
            }
        }
    }

    /// The configuration the verifier is loaded for: every phrase when trained
    /// detections go through its sound-alike contest (`trained_contest`) or
    /// its fusion with the head (`fusion(for:)`), or both routes put the
    /// acoustic detections of trained phrases to it (`both_routes_verifier`);
    /// else only the phrases no model hears (none: no verifier is loaded).
    package static func verified(_ config: EarsConfig, trained: NeuralTranscriber?) -> EarsConfig {
        config.trainedContest || fusion(for: config) != nil || (bothRoutes(config) && config.bothRoutesVerifier)
            ? config : untrained(config, trained: trained)
    }

    /// Whether the acoustic route also hears the phrases that have a
    /// trained model, a head's agreement deciding its detections (`[wake]
    /// both_routes`): only where that route is PocketSphinx (English). A
    /// Korean phrase's model decides alone: Vosk with no `[unk]` would add
    /// false wakes and ten times the head's CPU.
    package static func bothRoutes(_ config: EarsConfig) -> Bool {
        config.bothRoutes && config.engine == .pocketsphinx
    }

    /// How a trained model's candidate is decided: fused with the acoustic
    /// verifier's measurements (`FusionCalibration.fitted`) when the
    /// verifier is on and no `[wake] trained_threshold` asks for the head
    /// alone at a fixed score; nil: the head decides at its threshold.
    package static func fusion(for config: EarsConfig) -> FusionCalibration? {
        config.verifier && config.trainedThreshold == nil ? FusionCalibration.fitted : nil
    }

    /// `config` with only the phrases that `trained` does not hear: what the
    /// acoustic engine is for.
    package static func untrained(_ config: EarsConfig, trained: NeuralTranscriber?) -> EarsConfig {
        guard let trained else { return config }
        var rest = config
        let heard = Set(trained.models.map(\.phrase))
        rest.phrases = config.phrases.filter { !heard.contains($0.text) }
        return rest
    }

    /// Loads the engines for `config`: the trained models of the phrases
    /// that have one (`TrainedModels`) on the shared speech front end, and
    /// the configured engine for the others.
    package static func engines(for config: EarsConfig) throws(TranscriberError) -> Engines {
        let found = try TrainedModels.load(for: config)
        guard !found.isEmpty else { return .acoustic(try make(for: config)) }
        // Fused, the head proposes at the fitted (lower) score and the fused score decides.
        let models = found.map(\.model)
        let neural = try NeuralTranscriber(embedder: try OpenWakeWordEmbedder.locate(), models: models,
                                           thresholdOverride: config.trainedThreshold ?? fusion(for: config)?.headThreshold,
                                           modelName: found.map(\.path).joined(separator: ", "),
                                           denoisedLane: try denoisedLane(config, models: models),
                                           sameAudio: config.trainedDenoise != nil || !config.noiseSuppression)
        if bothRoutes(config) { neural.watch(thresholds: leanLevels(config)) }
        let rest = bothRoutes(config) ? config : untrained(config, trained: neural)
        guard !rest.phrases.isEmpty else { return .trained(neural) }
        return .both(acoustic: try make(for: rest), trained: neural)
    }

    /// The ear for `engines`: the gate and noise suppressor `config` asks for
    /// sit in front of the acoustic engine; trained models hear every chunk,
    /// denoised or as captured as they were trained (`trainedDenoise`). With
    /// `[wake] microphone_floor` (by default when every phrase is trained)
    /// every engine hears a microphone's own noise under the audio, so digital
    /// silence never reaches one (`MicrophoneFloor`).
    package static func ear(for config: EarsConfig, engines: Engines, meter: EarMeter = EarMeter()) throws(TranscriberError) -> Ear {
        switch engines {
        case let .acoustic(engine):
            return try ear(for: config, transcriber: engine, meter: meter)
        case let .trained(engine):
            // No gate: the heads hear every chunk, denoised as they were trained (or as `trained_denoise` says).
            let denoised = trainedDenoise(config, engine)
            return Ear(transcriber: engine, suppressor: denoised ? try suppressor(for: config) : nil,
                       quietRoom: quietRoom(config, headsHearDenoised: denoised),
                       microphoneFloor: microphoneFloor(config, everyPhraseTrained: true),
                       meter: meter, monotonicSeconds: ProcessClock.monotonicSeconds)
        case let .both(acoustic, trained):
            // With both routes the heads' leans are watched: the judge asks
            // for their agreement, and the acoustic route may hear only around them.
            let watch = bothRoutes(config) ? HeadLeanWatch(trained, levels: leanLevels(config)) : nil
            let gate: (any SpeechGate)? = if let watch, acousticOnLean(config, heads: watch) {
                HeadLeanGate { [unowned watch] in watch.latestLeanSeconds }
            } else {
                config.speechGate ? EnergySpeechGate() : nil
            }
            return Ear(transcriber: acoustic, gate: gate, suppressor: try suppressor(for: config),
                       rawTranscriber: watch ?? trained, rawHearsDenoised: trainedDenoise(config, trained),
                       quietRoom: quietRoom(config, headsHearDenoised: trainedDenoise(config, trained)),
                       microphoneFloor: microphoneFloor(config, everyPhraseTrained: untrained(config, trained: trained).phrases.isEmpty),
                       meter: meter, monotonicSeconds: ProcessClock.monotonicSeconds)
        }
    }

    /// The microphone floor an ear's engines hear (`[wake] microphone_floor`):
    /// on or off as set; `auto` (nil): on when every configured phrase has a
    /// trained model (`everyPhraseTrained`), the configuration it was
    /// measured to help (docs/benchmark-microphone-floor.md: the acoustic
    /// route alone woke more often over it). Nil: the engines hear the audio as it came.
    package static func microphoneFloor(_ config: EarsConfig, everyPhraseTrained: Bool) -> MicrophoneFloor? {
        (config.microphoneFloor ?? everyPhraseTrained) ? MicrophoneFloor() : nil
    }

    /// The head scores watched with both routes (`HeadLeanWatch`): `[wake]
    /// head_agreement`, and with `[wake] sure_verifier_score` the faint
    /// `WakeJudge.faintHeadAgreementScore` a sure acoustic detection needs
    /// (when it is lower).
    package static func leanLevels(_ config: EarsConfig) -> [Double] {
        let faint = WakeJudge.faintHeadAgreementScore
        return config.sureVerifierScore != nil && faint < config.headAgreement ? [config.headAgreement, faint] : [config.headAgreement]
    }

    /// Whether the acoustic engine beside `heads` (the both-routes watch,
    /// so both routes are on) hears only the seconds around a head's lean
    /// (`HeadLeanGate`, `[wake] acoustic_on_lean`): when every configured
    /// phrase has a head, so no phrase needs the acoustic route alone.
    package static func acousticOnLean(_ config: EarsConfig, heads: HeadLeanWatch) -> Bool {
        config.acousticOnLean && Set(config.phrases.map(\.text)).isSubset(of: heads.agreeingPhrases)
    }

    /// The second lane a mix of models trained on denoised audio and on
    /// audio as captured is heard on (`NeuralTranscriber.DenoisedLane`): its
    /// own front end behind the configured suppressor. Nil when the models
    /// are not such a mix, or they all hear one audio: `trained_denoise` is
    /// set, or noise suppression is off (then no model hears denoised audio,
    /// as when every model was trained on it).
    package static func denoisedLane(_ config: EarsConfig, models: [WakeModel]) throws(TranscriberError) -> NeuralTranscriber.DenoisedLane? {
        guard config.trainedDenoise == nil, models.contains(where: \.heardDenoised), models.contains(where: { !$0.heardDenoised }),
              let suppressor = try suppressor(for: config) else { return nil }
        return NeuralTranscriber.DenoisedLane(embedder: try OpenWakeWordEmbedder.locate(), suppressor: suppressor)
    }

    /// Whether `trained`'s models hear denoised audio: `[wake] trained_denoise`
    /// when set, else as the models were trained (`NeuralTranscriber.hearsDenoised`).
    package static func trainedDenoise(_ config: EarsConfig, _ trained: NeuralTranscriber) -> Bool {
        config.trainedDenoise ?? trained.hearsDenoised
    }

    /// The quiet-room detector for heads that hear denoised audio when
    /// `[wake] quiet_room_raw` is on and there is a suppressor; else nil.
    package static func quietRoom(_ config: EarsConfig, headsHearDenoised: Bool) -> QuietRoomDetector? {
        config.quietRoomRaw && headsHearDenoised && config.noiseSuppression ? QuietRoomDetector() : nil
    }

    /// The noise suppressor `config` asks for, or nil when it is off.
    package static func suppressor(for config: EarsConfig) throws(TranscriberError) -> (any NoiseSuppressor)? {
        guard config.noiseSuppression else { return nil }
        return try suppressor(decibels: config.noiseSuppressionDecibels)
    }

    /// A noise suppressor at `decibels` (speexdsp; also what `ears train`
    /// puts in front of the front end). Used from one thread.
    package static func suppressor(decibels: Int) throws(TranscriberError) -> any NoiseSuppressor {
        do throws(NoiseSuppressorError) {
            return try SpeexNoiseSuppressor(suppressionDecibels: decibels)
        } catch {
            throw .engineFailed(engine: "speexdsp", detail: error.sentence)
        }
    }

    /// The ear for `config` around `transcriber`: gate and noise suppressor as configured.
    package static func ear(for config: EarsConfig, transcriber: any Transcriber, meter: EarMeter = EarMeter()) throws(TranscriberError) -> Ear {
        Ear(transcriber: transcriber, gate: config.speechGate ? EnergySpeechGate() : nil,
            suppressor: try suppressor(for: config), microphoneFloor: microphoneFloor(config, everyPhraseTrained: false), meter: meter,
            monotonicSeconds: ProcessClock.monotonicSeconds)
    }

    /// The verifier for the phrases the acoustic route judges (those without
    /// a trained model, `verified`), with their distinct sound-alikes: what
    /// `listen`, `scan`, `tune` and each remote stream measure candidates with.
    package static func verifier(forAcousticPhrasesOf config: EarsConfig, trained: NeuralTranscriber?,
                                 pronouncer: any Pronouncer) throws(TranscriberError) -> (any WakeVerifier)? {
        let acoustic = verified(config, trained: trained)
        return try verifier(for: acoustic, soundAlikes: DetectorFactory.soundAlikes(for: acoustic, pronouncer: pronouncer),
                            pronouncer: pronouncer)
    }

    /// Frees what the shared verifiers load on demand and have not used for
    /// a while (PocketSphinx's transcript search, `PocketSphinxVerifier`);
    /// returns how many freed something. The daemon calls it from its
    /// loader thread every half second; it skips a verifier that is busy.
    @discardableResult
    package static func releaseIdleVerifierMemory() -> Int {
        SharedVerifier.releaseIdleMemory()
    }

    /// The verifier for `config`: PocketSphinx's, for English phrases, when
    /// `[wake] verifier` is on; nil otherwise (Vosk, or off). A verifier that
    /// cannot load is reported by its error; the caller decides.
    package static func verifier(for config: EarsConfig, soundAlikes: [String: [String]],
                                pronouncer: any Pronouncer) throws(TranscriberError) -> (any WakeVerifier)? {
        guard config.verifier, config.engine == .pocketsphinx, !config.phrases.isEmpty else { return nil }
        let model = try PocketSphinxModel.locate(in: config.model)
        let phrases = config.phrases.map(\.text)
        // One per model, phrases and sound-alikes, shared by every ear (SharedVerifier).
        let key = ([model.directory] + phrases + soundAlikes.keys.sorted().map { "\($0)=\(soundAlikes[$0] ?? [])" })
            .joined(separator: "\u{1F}")
        return try SharedVerifier.shared(key: key) { () throws(TranscriberError) -> (any WakeVerifier)? in
            let scorer = PhoneticScorer(pronouncer: pronouncer)
            return try PocketSphinxVerifier(model: model, phrases: phrases, soundAlikes: soundAlikes,
                                            fallback: letterToSound.phones(for:),
                                            monotonicSeconds: ProcessClock.monotonicSeconds) { phrase, transcript in
                scorer.score(scorer.prepare(phrase), before: "", newest: transcript)
            }
        }
    }
}
