import EarsCore

/// Flags that override ears.conf; nil means "as configured".
public struct ConfigOverrides: Equatable {
    /// `--config PATH`; nil means /etc/ears/ears.conf if it exists.
    public var configPath: String?
    public var device: String?
    public var engine: EngineKind?
    public var model: String?
    /// `--phrase P` (repeatable): replaces the configured phrases.
    public var phrases: [String] = []
    public var threshold: Double?
    public var phraseBoost: Double?
    public var speechGate: Bool?
    public var matching: Matching?
    public var runtimeDirectory: String?
    /// `--noise-suppression on|off`.
    public var noiseSuppression: Bool?
    /// `--spotter keyphrase|transcript`.
    public var spotter: Spotter?
    /// `--spotter-threshold X`.
    public var spotterThreshold: Double?
    /// `--verifier on|off`.
    public var verifier: Bool?
    /// `--verifier-threshold X`.
    public var verifierThreshold: Double?
    /// `--trained-models on|off`.
    public var trainedModels: Bool?
    /// `--models-dir DIR`.
    public var modelsDirectory: String?
    /// `--trained-threshold X`.
    public var trainedThreshold: Double?
    /// `--trained-contest on|off`.
    public var trainedContest: Bool?
    /// `listen --uri URI` (repeatable): replaces the configured `[wyoming] uri` addresses.
    public var wyomingURIs: [ServiceURI] = []

    public init() {}

    /// Applies the flags on top of `config`.
    public func apply(to config: inout EarsConfig) {
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
    }
}

/// `ears listen` options.
public struct ListenOptions: Equatable {
    public var overrides = ConfigOverrides()
    /// `--input FILE`: a sound file paced at real time instead of the microphone.
    public var inputFile: String?
    /// `--verbose`: debug lines too (timings, decisions, connections; never transcript text).
    public var verbose = false
    public init() {}
}

/// `ears scan` options.
public struct ScanOptions: Equatable {
    public var overrides = ConfigOverrides()
    public var files: [String] = []
    /// `--json`: one JSON line per wake and a summary line.
    public var json = false
    /// `--candidates`: also one JSON line per verified candidate (implies `--json`).
    public var candidates = false
    /// `--verbose`: debug lines on stderr (engine load timings, per-file progress).
    public var verbose = false
    public init() {}
}

/// `ears soundalikes` options.
public struct SoundAlikesOptions: Equatable {
    public var overrides = ConfigOverrides()
    /// The phrase (several operands are joined with spaces).
    public var phrase = ""
    /// `--json`: one object per line instead of one text per line.
    public var json = false
    /// `--count N`: at most N neighbours (the words alone and sentences come on top).
    public var count = SoundAlikeGenerator.defaultCount
    public init() {}
}

/// `ears train` options.
public struct TrainOptions: Equatable {
    public var overrides = ConfigOverrides()
    /// The phrase (several operands are joined with spaces).
    public var phrase = ""
    /// `--minutes N`: the wall-time budget the training plan is sized for.
    public var minutes = TrainOptions.defaultMinutes
    /// `--voices LIST`: comma-separated voice ids or engine names to use
    /// (e.g. `flite,espeak`); empty means every installed voice.
    public var voices: [String] = []
    /// `--seed N`: the random seed (plans, augmentation, initial weights).
    public var seed: UInt64 = 1
    /// `--language en|ko`; nil means guessed from the phrase's script.
    public var language: String?

    /// The default budget in minutes, sized to finish one phrase on 2 cores.
    public static let defaultMinutes = 8.0
    public init() {}
}
