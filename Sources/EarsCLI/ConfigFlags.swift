import EarsCore
import EarsDaemon
import EarsConfig
import EarsEngines

/// The flags that override ears.conf for one run (`ConfigOverrides`), shared
/// by the commands that read the configuration. Number ranges come from the
/// configuration parser's key table (`ConfigParser.numberRange`), so a flag
/// and the key it overrides can never disagree.
package enum ConfigFlags {
    /// What the clients of a running daemon (`status`, `tap`, `follow`) take:
    /// where to find it.
    package static let client: [FlagSpec] = [
        FlagSpec("--config", "PATH", "configuration file (default /etc/ears/ears.conf); its runtime_directory is searched"),
        FlagSpec("--runtime-dir", "DIR", "look for the daemon's sockets only here"),
    ]

    /// Every override, for the commands that hear, train or check.
    package static let all: [FlagSpec] = [
        FlagSpec("--config", "PATH", "configuration file (default /etc/ears/ears.conf)"),
        FlagSpec("--device", "NAME", "ALSA capture device (default: default)"),
        FlagSpec("--engine", "NAME", EngineKind.allCases.map(\.rawValue).joined(separator: " or ")),
        FlagSpec("--model", "DIR", "engine model directory"),
        FlagSpec("--phrase", "TEXT", "wake phrase; repeat for several (replaces configured ones)"),
        FlagSpec("--threshold", "X", "match score needed, \(ConfigParser.words(ConfigParser.phraseThresholdRange))"),
        FlagSpec("--phrase-boost", "W", "PocketSphinx language-model boost for the phrases (0 = off)"),
        FlagSpec("--speech-gate", "on|off", "keep silence and steady noise from the transcriber"),
        FlagSpec("--matching", "phonetic|letters", "compare the phrase by sound (default) or by letters"),
        FlagSpec("--runtime-dir", "DIR", "where status.sock and listen.sock live"),
        FlagSpec("--noise-suppression", "on|off", "denoise what the engines hear (raw audio is kept)"),
        FlagSpec("--spotter", "keyphrase|transcript", "PocketSphinx keyphrase search (default) or transcription"),
        FlagSpec("--spotter-threshold", "X", "keyphrase threshold (default 1e-30)"),
        FlagSpec("--verifier", "on|off", "rescore each candidate on its own audio (default on)"),
        FlagSpec("--verifier-threshold", "X", "calibrated score a candidate needs"),
        FlagSpec("--trained-models", "on|off", "hear phrases with their ears train models (default on)"),
        FlagSpec("--models-dir", "DIR", "where trained models live (default: the state directory)"),
        FlagSpec("--trained-threshold", "X", "score a trained model needs (default: the model's own)"),
        FlagSpec("--trained-contest", "on|off", "refuse a trained wake a sound-alike explains better (default off)"),
        FlagSpec("--trained-denoise", "on|off", "trained models hear denoised audio (default off: as captured)"),
        FlagSpec("--auto-train", "on|off", "train a model in the background for each phrase without one (default on)"),
    ]

    /// The configuration key whose range a number flag shares.
    static let rangeKeys: [String: String] = [
        "--threshold": "wake.phrase",
        "--phrase-boost": "engine.phrase_boost",
        "--spotter-threshold": "wake.spotter_threshold",
        "--verifier-threshold": "wake.verifier_threshold",
        "--trained-threshold": "wake.trained_threshold",
    ]

    /// The overrides `parsed` gives, in the order given (a repeated flag
    /// takes its last value, except `--phrase`, which adds). Flags that are
    /// not overrides (the command's own) are left to the command.
    package static func overrides(from parsed: ParsedArguments) throws(UsageError) -> ConfigOverrides {
        var overrides = ConfigOverrides()
        for flag in parsed.flags {
            let name = flag.name, text = flag.value
            switch name {
            case "--config": overrides.configPath = text
            case "--device": overrides.device = text
            case "--engine": overrides.engine = try FlagValue.choice(name, text, EngineKind.self)
            case "--model": overrides.model = text
            case "--phrase": overrides.phrases.append(text)
            case "--threshold": overrides.threshold = try number(name, text)
            case "--phrase-boost": overrides.phraseBoost = try number(name, text)
            case "--speech-gate": overrides.speechGate = try FlagValue.onOff(name, text)
            case "--matching": overrides.matching = try FlagValue.choice(name, text, Matching.self)
            case "--runtime-dir": overrides.runtimeDirectory = text
            case "--noise-suppression": overrides.noiseSuppression = try FlagValue.onOff(name, text)
            case "--spotter": overrides.spotter = try FlagValue.choice(name, text, Spotter.self)
            case "--spotter-threshold": overrides.spotterThreshold = try number(name, text)
            case "--verifier": overrides.verifier = try FlagValue.onOff(name, text)
            case "--verifier-threshold": overrides.verifierThreshold = try number(name, text)
            case "--trained-models": overrides.trainedModels = try FlagValue.onOff(name, text)
            case "--models-dir":
                guard !text.isEmpty else { throw UsageError(description: "ears: --models-dir needs a directory") }
                overrides.modelsDirectory = text
            case "--trained-threshold": overrides.trainedThreshold = try number(name, text)
            case "--trained-contest": overrides.trainedContest = try FlagValue.onOff(name, text)
            case "--trained-denoise": overrides.trainedDenoise = try FlagValue.onOff(name, text)
            case "--auto-train": overrides.autoTrain = try FlagValue.onOff(name, text)
            default: continue
            }
        }
        return overrides
    }

    /// A number flag read inside the range of the configuration key it overrides.
    static func number(_ flag: String, _ text: String) throws(UsageError) -> Double {
        // Every number flag is in `rangeKeys` and every key there is a
        // number key; the unit tests check both.
        let range = rangeKeys[flag].flatMap(ConfigParser.numberRange) ?? -Double.infinity...Double.infinity
        return try FlagValue.number(flag, text, in: range)
    }
}
