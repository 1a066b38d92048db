import EarsCore

/// Flags that override ears.conf; nil means "as configured".
package struct ConfigOverrides: Equatable {
    /// `--config PATH`; nil means /etc/ears/ears.conf if it exists.
    package var configPath: String?
    package var device: String?
    package var engine: EngineKind?
    package var model: String?
    /// `--phrase P` (repeatable): replaces the configured phrases.
    package var phrases: [String] = []
    package var threshold: Double?
    package var phraseBoost: Double?
    package var speechGate: Bool?
    package var matching: Matching?
    package var runtimeDirectory: String?
    /// `--noise-suppression on|off`.
    package var noiseSuppression: Bool?
    /// `--spotter keyphrase|transcript`.
    package var spotter: Spotter?
    /// `--spotter-threshold X`.
    package var spotterThreshold: Double?
    /// `--verifier on|off`.
    package var verifier: Bool?
    /// `--verifier-threshold X`.
    package var verifierThreshold: Double?
    /// `--trained-models on|off`.
    package var trainedModels: Bool?
    /// `--models-dir DIR`.
    package var modelsDirectory: String?
    /// `--trained-threshold X`.
    package var trainedThreshold: Double?
    /// `--trained-contest on|off`.
    package var trainedContest: Bool?
    /// `--trained-denoise on|off`: `[wake] trained_denoise`.
    package var trainedDenoise: Bool?
    /// `--auto-train on|off`: `[wake] auto_train`.
    package var autoTrain: Bool?
    /// `listen --uri URI` (repeatable): replaces the configured `[wyoming] uri` addresses.
    package var wyomingURIs: [ServiceURI] = []

    package init() {}

    /// Applies the flags on top of `config`.
    package func apply(to config: inout EarsConfig) {
        if let device { config.device = device }
        if let engine { config.engine = engine }
        if let model { config.model = model }
        if !phrases.isEmpty {
            config.phrases = phrases.map { WakePhrase(text: $0) }
        }
        if let threshold {
            for index in config.phrases.indices { config.phrases[index].threshold = threshold }
        }
        if let phraseBoost { config.phraseBoost = phraseBoost }
        if let speechGate { config.speechGate = speechGate }
        if let matching { config.matching = matching }
        if let runtimeDirectory { config.runtimeDirectory = runtimeDirectory }
        if !wyomingURIs.isEmpty { config.wyomingURIs = wyomingURIs }
        if let noiseSuppression { config.noiseSuppression = noiseSuppression }
        if let spotter { config.spotter = spotter }
        if let spotterThreshold { config.spotterThreshold = spotterThreshold }
        if let verifier { config.verifier = verifier }
        if let verifierThreshold { config.verifierThreshold = verifierThreshold }
        if let trainedModels { config.trainedModels = trainedModels }
        if let modelsDirectory { config.modelsDirectory = modelsDirectory }
        if let trainedThreshold { config.trainedThreshold = trainedThreshold }
        if let trainedContest { config.trainedContest = trainedContest }
        if let trainedDenoise { config.trainedDenoise = trainedDenoise }
        if let autoTrain { config.autoTrain = autoTrain }
    }
}

/// `ears listen` options.
package struct ListenOptions: Equatable {
    package var overrides = ConfigOverrides()
    /// `--input FILE`: a sound file paced at real time instead of the microphone.
    package var inputFile: String?
    /// `--verbose`: debug lines too (timings, decisions, connections; never transcript text).
    package var verbose = false
    package init() {}
}

/// `ears scan` options.
package struct ScanOptions: Equatable {
    package var overrides = ConfigOverrides()
    package var files: [String] = []
    /// `--json`: one JSON line per wake and a summary line.
    package var json = false
    /// `--candidates`: also one JSON line per verified candidate (implies `--json`).
    package var candidates = false
    /// `--verbose`: debug lines on stderr (engine load timings, per-file progress).
    package var verbose = false
    package init() {}
}

/// `ears soundalikes` options.
package struct SoundAlikesOptions: Equatable {
    package var overrides = ConfigOverrides()
    /// The phrase (several operands are joined with spaces).
    package var phrase = ""
    /// `--json`: one object per line instead of one text per line.
    package var json = false
    /// `--count N`: at most N neighbours (the words alone and sentences come on top).
    package var count = SoundAlikeGenerator.defaultCount
    package init() {}
}

/// `ears train` options.
package struct TrainOptions: Equatable {
    package var overrides = ConfigOverrides()
    /// The phrase (several operands are joined with spaces).
    package var phrase = ""
    /// `--minutes N`: the wall-time budget the training plan is sized for.
    package var minutes = TrainOptions.defaultMinutes
    /// `--voices LIST`: comma-separated voice ids or engine names to use
    /// (e.g. `flite,espeak`); empty means every installed voice.
    package var voices: [String] = []
    /// `--seed N`: the random seed (plans, augmentation, initial weights).
    package var seed: UInt64 = 1
    /// `--language en|ko`; nil means guessed from the phrase's script.
    package var language: String?

    /// The default budget in minutes, sized to finish one phrase on 2 cores.
    package static let defaultMinutes = EarsConfig.defaultTrainingMinutes
    /// `--use-anyway`: write the model in use even when the acoustic route
    /// hears more of the held-out calls (the comparison is still shown).
    package var useAnyway = false
    /// `--idle`: run at idle priority (SCHED_IDLE, nice 19), as background training does.
    package var idle = false
    /// `--progress lines`: progress as `progress FRACTION SECONDS_LEFT` lines
    /// on stderr (for the daemon), instead of a bar or plain lines.
    package var progressLines = false
    package init() {}
}
