import EarsCore

/// What the command line asked for.
public enum Invocation: Equatable {
    /// `ears listen`: the daemon.
    case listen(ListenOptions)
    /// `ears scan FILE...`: the same ear over files, as fast as the CPU allows.
    case scan(ScanOptions)
    /// `ears tap`: start a capture in the running daemon as if called.
    case tap(ConfigOverrides)
    /// `ears status`: print `GET /ears` from the running daemon.
    case status(ConfigOverrides)
    /// `ears follow [--wav]`: print the daemon's Wyoming events (or write captures as WAV).
    case follow(ConfigOverrides, wav: Bool)
    /// `ears model status [--json]`: which engines' models are installed.
    case modelStatus(ConfigOverrides, json: Bool)
    /// `ears soundalikes "PHRASE" [--json] [--count N]`: sound-alikes of a phrase, to test against.
    case soundAlikes(SoundAlikesOptions)
    /// `ears train "PHRASE" [--minutes N] [--voices LIST] [--seed N]`: a neural model for the phrase.
    case train(TrainOptions)
    /// `ears check-config`: parse the configuration, check it as `listen` would (`ConfigValidation`), and report.
    case checkConfig(ConfigOverrides)
    /// `ears --version`.
    case version
    /// `ears --help` or no arguments.
    case help
}

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
    /// `listen --uri URI` (repeatable): replaces `[wyoming] uri`.
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
        if let noiseSuppression { config.noiseSuppression = noiseSuppression }
        if let spotter { config.spotter = spotter }
        if let spotterThreshold { config.spotterThreshold = spotterThreshold }
        if let verifier { config.verifier = verifier }
        if let verifierThreshold { config.verifierThreshold = verifierThreshold }
        if let trainedModels { config.trainedModels = trainedModels }
        if let modelsDirectory { config.modelsDirectory = modelsDirectory }
        if let trainedThreshold { config.trainedThreshold = trainedThreshold }
        if let trainedContest { config.trainedContest = trainedContest }
        if !wyomingURIs.isEmpty { config.wyomingURIs = wyomingURIs }
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

/// A command-line mistake, said in one line with what is allowed.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// Parses `ears` arguments (without the program name).
public enum Arguments {
    /// The usage text for `--help`.
    public static let usage = """
    usage: ears <command> [options]

    commands:
      listen [--input FILE] [--verbose] [--uri URI]...
                                   listen on the microphone (or a file at real time); --verbose adds debug lines;
                                   --uri tcp://HOST:PORT|unix:///PATH serves Wyoming wake streams
      scan FILE... [--json] [--candidates] [--verbose]  run the ear over files as fast as possible (- = stdin)
      status                       print the running daemon's meters (GET /ears)
      tap                          start a capture in the running daemon as if called
      follow [--wav]               print the events on listen.sock (--wav: captures as WAV on stdout)
      soundalikes PHRASE [--json] [--count N]  print texts that sound like PHRASE but are not it
      train PHRASE [--minutes N] [--voices LIST] [--seed N] [--language en|ko]  build PHRASE's neural model from synthesized speech
      check-config                 read the configuration and report problems
      model status [--json]        which engines' models are installed, and how to install them
      --version                    print the version

    options (override ears.conf):
      --config PATH      configuration file (default /etc/ears/ears.conf)
      --device NAME      ALSA capture device (default: default)
      --engine NAME      pocketsphinx or vosk
      --model DIR        engine model directory
      --phrase TEXT      wake phrase; repeat for several (replaces configured ones)
      --threshold X      match score needed, 0.05 to 1.0
      --phrase-boost W   PocketSphinx language-model boost for the phrases (0 = off)
      --speech-gate on|off  keep silence and steady noise from the transcriber
      --matching phonetic|letters  compare the phrase by sound (default) or by letters
      --runtime-dir DIR  where status.sock lives
      --noise-suppression on|off  denoise what the engines hear (raw audio is kept)
      --spotter keyphrase|transcript  PocketSphinx keyphrase search (default) or transcription
      --spotter-threshold X  keyphrase threshold, 1e-80 to 1 (default 1e-30)
      --verifier on|off  rescore each candidate on its own audio (default on)
      --verifier-threshold X  calibrated score a candidate needs, 0.01 to 0.99
      --trained-models on|off  hear phrases with their ears train models (default on)
      --models-dir DIR   where trained models live (default: the state directory)
      --trained-threshold X  score a trained model needs, 0.01 to 0.99 (default: the model's own)
      --trained-contest on|off  refuse a trained wake a sound-alike explains better (default on)
    """

    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let command = arguments.first else { return .help }
        var rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help": return .help
        case "--version", "version": return .version
        case "listen":
            var options = ListenOptions()
            var uris: [ServiceURI] = []
            try parseFlags(&rest, into: &options.overrides) { flag, value throws(UsageError) in
                switch flag {
                case "--input": options.inputFile = try value()
                case "--verbose": options.verbose = true
                case "--uri": uris.append(try WyomingWakeSetup.uri(try value()))
                default: return false
                }
                return true
            }
            try rejectOperands(rest, command: command)
            options.overrides.wyomingURIs = uris
            return .listen(options)
        case "scan":
            var options = ScanOptions()
            try parseFlags(&rest, into: &options.overrides) { flag, _ in
                switch flag {
                case "--json": options.json = true
                case "--candidates": options.json = true; options.candidates = true
                case "--verbose": options.verbose = true
                default: return false
                }
                return true
            }
            options.files = rest
            guard !options.files.isEmpty else { throw UsageError(description: "ears scan: give at least one audio file") }
            return .scan(options)
        case "soundalikes":
            var options = SoundAlikesOptions()
            try parseFlags(&rest, into: &options.overrides) { flag, value throws(UsageError) in
                switch flag {
                case "--json": options.json = true
                case "--count":
                    let text = try value()
                    guard let count = Int(text), count >= 0, count <= 1000 else {
                        throw UsageError(description: "ears soundalikes: --count \(text) is not a whole number from 0 to 1000")
                    }
                    options.count = count
                default: return false
                }
                return true
            }
            options.phrase = rest.joined(separator: " ")
            guard !LetterMatcher.letters(options.phrase).isEmpty else {
                throw UsageError(description: "ears soundalikes: give a phrase with letters, e.g. ears soundalikes \"hey cordelia\"")
            }
            return .soundAlikes(options)
        case "train":
            return .train(try parseTrain(&rest))
        case "follow":
            var overrides = ConfigOverrides()
            var wav = false
            try parseFlags(&rest, into: &overrides) { flag, _ in
                guard flag == "--wav" else { return false }
                wav = true
                return true
            }
            try rejectOperands(rest, command: command)
            return .follow(overrides, wav: wav)
        case "model":
            guard rest.first == "status" else {
                throw UsageError(description: "ears model: the only subcommand is 'status' (ears model status [--json])")
            }
            rest.removeFirst()
            var overrides = ConfigOverrides()
            var json = false
            try parseFlags(&rest, into: &overrides) { flag, _ in
                guard flag == "--json" else { return false }
                json = true
                return true
            }
            try rejectOperands(rest, command: "model status")
            return .modelStatus(overrides, json: json)
        case "status", "check-config", "tap":
            var overrides = ConfigOverrides()
            try parseFlags(&rest, into: &overrides) { _, _ in false }
            try rejectOperands(rest, command: command)
            switch command {
            case "status": return .status(overrides)
            case "tap": return .tap(overrides)
            default: return .checkConfig(overrides)
            }
        default:
            throw UsageError(description: "ears: unknown command '\(command)'; allowed: listen, scan, status, tap, follow, soundalikes, train, check-config, model status, --version, --help")
        }
    }

    /// `ears train PHRASE [--minutes N] [--voices LIST] [--seed N] [--language en|ko]`.
    private static func parseTrain(_ rest: inout [String]) throws(UsageError) -> TrainOptions {
        var options = TrainOptions()
        try parseFlags(&rest, into: &options.overrides) { flag, value throws(UsageError) in
            switch flag {
            case "--minutes": options.minutes = try number(flag, try value(), in: 0.1...120, "0.1 to 120")
            case "--voices":
                options.voices = try value().split(separator: ",").map { String($0).filter { !$0.isWhitespace } }.filter { !$0.isEmpty }
            case "--seed":
                let text = try value()
                guard let seed = UInt64(text) else { throw UsageError(description: "ears train: --seed \(text) is not a whole number from 0") }
                options.seed = seed
            case "--language":
                let text = try value()
                guard text == "en" || text == "ko" else { throw UsageError(description: "ears train: --language \(text) is not known; allowed: en, ko") }
                options.language = text
            default: return false
            }
            return true
        }
        options.phrase = rest.joined(separator: " ")
        guard !LetterMatcher.letters(options.phrase).isEmpty else {
            throw UsageError(description: "ears train: give a phrase with letters, e.g. ears train \"hey cordelia\"")
        }
        return options
    }

    /// Consumes the shared flags (and any the command's `extra` accepts);
    /// leaves operands in `rest`.
    private static func parseFlags(_ rest: inout [String], into overrides: inout ConfigOverrides,
                                   extra: (String, () throws(UsageError) -> String) throws(UsageError) -> Bool) throws(UsageError) {
        var operands: [String] = []
        var index = 0
        let all = rest
        while index < all.count {
            let flag = all[index]
            index += 1
            guard flag.hasPrefix("--") else { operands.append(flag); continue }
            let value = { () throws(UsageError) -> String in
                guard index < all.count else { throw UsageError(description: "ears: \(flag) needs a value") }
                index += 1
                return all[index - 1]
            }
            switch flag {
            case "--config": overrides.configPath = try value()
            case "--device": overrides.device = try value()
            case "--engine":
                let name = try value()
                guard let engine = EngineKind(rawValue: name) else {
                    throw UsageError(description: "ears: --engine \(name) is not known; allowed: \(EngineKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                overrides.engine = engine
            case "--model": overrides.model = try value()
            case "--phrase": overrides.phrases.append(try value())
            case "--threshold": overrides.threshold = try number(flag, try value(), in: 0.05...1, "0.05 to 1.0")
            case "--phrase-boost": overrides.phraseBoost = try number(flag, try value(), in: 0...1_000_000, "0 to 1000000")
            case "--speech-gate":
                let text = try value()
                guard let flag = ConfigParser.parseSwitch(text) else {
                    throw UsageError(description: "ears: --speech-gate \(text) is not on or off")
                }
                overrides.speechGate = flag
            case "--matching":
                let text = try value()
                guard let matching = Matching(rawValue: text) else {
                    throw UsageError(description: "ears: --matching \(text) is not known; allowed: phonetic, letters")
                }
                overrides.matching = matching
            case "--runtime-dir": overrides.runtimeDirectory = try value()
            case "--noise-suppression": overrides.noiseSuppression = try onOff(flag, try value())
            case "--verifier": overrides.verifier = try onOff(flag, try value())
            case "--spotter":
                let text = try value()
                guard let spotter = Spotter(rawValue: text) else {
                    throw UsageError(description: "ears: --spotter \(text) is not known; allowed: \(Spotter.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                overrides.spotter = spotter
            case "--spotter-threshold": overrides.spotterThreshold = try number(flag, try value(), in: 1e-80...1, "1e-80 to 1")
            case "--verifier-threshold": overrides.verifierThreshold = try number(flag, try value(), in: 0.01...0.99, "0.01 to 0.99")
            case "--trained-models": overrides.trainedModels = try onOff(flag, try value())
            case "--trained-contest": overrides.trainedContest = try onOff(flag, try value())
            case "--models-dir":
                let directory = try value()
                guard !directory.isEmpty else { throw UsageError(description: "ears: --models-dir needs a directory") }
                overrides.modelsDirectory = directory
            case "--trained-threshold": overrides.trainedThreshold = try number(flag, try value(), in: 0.01...0.99, "0.01 to 0.99")
            default:
                guard try extra(flag, value) else { throw UsageError(description: "ears: unknown option \(flag); see ears --help") }
            }
        }
        rest = operands
    }

    /// Reads a number flag value inside `range`, or says what is allowed (`allowed`, e.g. "0.05 to 1.0").
    private static func number(_ flag: String, _ text: String, in range: ClosedRange<Double>, _ allowed: String) throws(UsageError) -> Double {
        guard let value = Double(text), range.contains(value) else {
            throw UsageError(description: "ears: \(flag) \(text) is not a number from \(allowed)")
        }
        return value
    }

    /// Reads an on/off flag value, or says what is allowed.
    private static func onOff(_ flag: String, _ text: String) throws(UsageError) -> Bool {
        guard let on = ConfigParser.parseSwitch(text) else {
            throw UsageError(description: "ears: \(flag) \(text) is not on or off")
        }
        return on
    }

    private static func rejectOperands(_ operands: [String], command: String) throws(UsageError) {
        if let first = operands.first {
            throw UsageError(description: "ears \(command): unexpected argument '\(first)'; see ears --help")
        }
    }
}
