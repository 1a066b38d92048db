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
        FlagSpec("--config", "PATH", "configuration file (default /etc/ears/ears.conf); its runtime_directory is searched", group: .input),
        FlagSpec("--runtime-dir", "DIR", "look for the daemon's sockets only here", group: .input),
    ]

    /// Every override, grouped, for the commands that run the whole daemon
    /// or check its configuration (`listen`, `check-config`).
    package static let all: [FlagSpec] = [
        FlagSpec("--config", "PATH", "configuration file (default /etc/ears/ears.conf)", group: .input),
        FlagSpec("--device", "NAME", "ALSA capture device (default: default)", group: .input),
        FlagSpec("--runtime-dir", "DIR", "where status.sock and listen.sock live", group: .input),
        FlagSpec("--phrase", "TEXT", "wake phrase; repeat for several (replaces configured ones)", group: .phrases),
        FlagSpec("--threshold", "X", "match score needed, \(ConfigParser.words(ConfigParser.phraseThresholdRange))", group: .phrases),
        FlagSpec("--matching", "phonetic|letters", "compare the phrase by sound (default) or by letters", group: .phrases),
        FlagSpec("--engine", "NAME", EngineKind.allCases.map(\.rawValue).joined(separator: " or "), group: .acoustic),
        FlagSpec("--model", "DIR", "engine model directory", group: .acoustic),
        FlagSpec("--phrase-boost", "W", "PocketSphinx language-model boost for the phrases (0 = off)", group: .acoustic),
        FlagSpec("--speech-gate", "on|off", "keep silence and steady noise from the transcriber", group: .acoustic),
        FlagSpec("--noise-suppression", "on|off", "denoise what the engines hear (raw audio is kept)", group: .acoustic),
        FlagSpec("--microphone-floor", "auto|on|off", "every engine hears a microphone's own noise, never digital silence (default auto: when every phrase has a model)", group: .acoustic),
        FlagSpec("--spotter", "keyphrase|transcript", "PocketSphinx keyphrase search (default) or transcription", group: .acoustic),
        FlagSpec("--spotter-threshold", "X", "keyphrase threshold (default 1e-30)", group: .acoustic),
        FlagSpec("--verifier", "on|off", "rescore each candidate on its own audio (default on)", group: .acoustic),
        FlagSpec("--verifier-threshold", "X", "calibrated score a candidate needs", group: .acoustic),
        FlagSpec("--trained-models", "on|off", "hear phrases with their ears train models (default on)", group: .trained),
        FlagSpec("--models-dir", "DIR", "where trained models live (default: the state directory)", group: .trained),
        FlagSpec("--trained-threshold", "X", "score a trained model needs (default: the model's own)", group: .trained),
        FlagSpec("--trained-contest", "on|off", "refuse a trained wake a sound-alike explains better (default off)", group: .trained),
        FlagSpec("--acoustic-on-lean", "on|off", "with both routes, the acoustic route hears only the seconds around a head's lean (default on)", group: .trained),
        FlagSpec("--both-routes", "on|off", "also hear a trained phrase by the acoustic route; wake when its head agrees (default on)", group: .trained),
        FlagSpec("--both-routes-verifier", "on|off", "with both routes, put a trained phrase's acoustic detection to the verifier too (default on)", group: .trained),
        FlagSpec("--head-agreement", "X", "with both routes, the head score an acoustic detection needs nearby (default 0.5)", group: .trained),
        FlagSpec("--head-alone-score", "X|off", "with both routes, the score a head's detection needs to wake without the acoustic route's (default off)", group: .trained),
        FlagSpec("--sure-verifier-score", "X|off", "with both routes, the verifier score at which an acoustic detection needs only a faint lean of its head (default off)", group: .trained),
        FlagSpec("--trained-denoise", "auto|on|off", "trained models hear denoised audio (default auto: as their models were trained)", group: .trained),
        FlagSpec("--quiet-room-raw", "on|off", "trained models that hear denoised audio hear a quiet room as captured (default on)", group: .trained),
        FlagSpec("--auto-train", "on|off", "train a model in the background for each phrase without one (default on)", group: .trained),
    ]

    /// What the offline tools that hear files take (`scan`, `tune`): every
    /// override but the microphone, the sockets and background training,
    /// which they never use.
    package static let hearing: [FlagSpec] = all.filter { !["--device", "--runtime-dir", "--auto-train"].contains($0.name) }

    /// The overrides named, in `all`'s order (for a command that uses only a few).
    package static func only(_ names: Set<String>) -> [FlagSpec] {
        all.filter { names.contains($0.name) }
    }

    /// The configuration key whose range a number flag shares.
    static let rangeKeys: [String: String] = [
        "--threshold": "wake.phrase",
        "--phrase-boost": "engine.phrase_boost",
        "--spotter-threshold": "wake.spotter_threshold",
        "--verifier-threshold": "wake.verifier_threshold",
        "--trained-threshold": "wake.trained_threshold",
        "--head-agreement": "wake.head_agreement",
        "--head-alone-score": "wake.head_alone_score",
        "--sure-verifier-score": "wake.sure_verifier_score",
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
            case "--microphone-floor": overrides.microphoneFloor = .some(try FlagValue.autoOnOff(name, text))
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
            case "--both-routes": overrides.bothRoutes = try FlagValue.onOff(name, text)
            case "--both-routes-verifier": overrides.bothRoutesVerifier = try FlagValue.onOff(name, text)
            case "--head-agreement": overrides.headAgreement = try number(name, text)
            case "--head-alone-score": overrides.headAloneScore = text == "off" ? .some(nil) : .some(try number(name, text))
            case "--sure-verifier-score": overrides.sureVerifierScore = text == "off" ? .some(nil) : .some(try number(name, text))
            case "--acoustic-on-lean": overrides.acousticOnLean = try FlagValue.onOff(name, text)
            case "--quiet-room-raw": overrides.quietRoomRaw = try FlagValue.onOff(name, text)
            case "--trained-denoise": overrides.trainedDenoise = .some(try FlagValue.autoOnOff(name, text))
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
