import EarsCore
import EarsPhonetics
import EarsConfig

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
    /// `--both-routes on|off`: `[wake] both_routes`.
    package var bothRoutes: Bool?
    /// `--both-routes-verifier on|off`: `[wake] both_routes_verifier`.
    package var bothRoutesVerifier: Bool?
    /// `--head-agreement X`: `[wake] head_agreement`.
    package var headAgreement: Double?
    /// `--head-alone-score off|SCORE`: `[wake] head_alone_score` (nil inside: not given).
    package var headAloneScore: Double??
    /// `--sure-verifier-score off|SCORE`: `[wake] sure_verifier_score` (nil inside: not given).
    package var sureVerifierScore: Double??
    /// `--acoustic-on-lean on|off`: `[wake] acoustic_on_lean`.
    package var acousticOnLean: Bool?
    /// `--trained-denoise auto|on|off`: `[wake] trained_denoise` (`.some(nil)`: auto).
    package var trainedDenoise: Bool??
    /// `--quiet-room-raw on|off`: `[wake] quiet_room_raw`.
    package var quietRoomRaw: Bool?
    /// `--microphone-floor auto|on|off`: `[wake] microphone_floor` (`.some(nil)`: auto).
    package var microphoneFloor: Bool??
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
        if let bothRoutes { config.bothRoutes = bothRoutes }
        if let headAgreement { config.headAgreement = headAgreement }
        if let headAloneScore { config.headAloneScore = headAloneScore }
        if let sureVerifierScore { config.sureVerifierScore = sureVerifierScore }
        if let bothRoutesVerifier { config.bothRoutesVerifier = bothRoutesVerifier }
        if let acousticOnLean { config.acousticOnLean = acousticOnLean }
        if let trainedDenoise { config.trainedDenoise = trainedDenoise }
        if let quietRoomRaw { config.quietRoomRaw = quietRoomRaw }
        if let microphoneFloor { config.microphoneFloor = microphoneFloor }
        if let autoTrain { config.autoTrain = autoTrain }
    }
}
