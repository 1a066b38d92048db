import EarsCore
import EarsPhonetics
/// Reads ears.conf: INI-style like systemd units.
///
///     # comment            ; comment too
///     [section]
///     key = value
///
/// Lines end in LF, CRLF or a lone CR (`ConfigLines`). Unknown sections,
/// unknown keys and bad values are errors that name `file:line`, say what is
/// wrong (quoting at most 80 characters of the value) and list what is
/// allowed. A key given twice takes the last value, except `phrase`, which
/// adds a phrase each time (up to `PhraseLimits`), and `[wyoming] uri`,
/// which adds a listening address each time.
package enum ConfigParser {
    /// One known key: where it lives, what it accepts, how it applies.
    struct Key: Sendable {
        let section: String
        let name: String
        /// What is allowed, in words, for error messages.
        let allowed: String
        /// The bounds of a decimal-number key (`numberKey`), shared with the
        /// command-line flags that set the same value; nil for other keys.
        var range: ClosedRange<Double>? = nil
        let apply: @Sendable (inout EarsConfig, String, inout Bool) -> String?
    }

    /// The threshold a phrase may carry after `|` (and `--threshold` sets for all).
    package static let phraseThresholdRange: ClosedRange<Double> = 0.05...1

    /// Parses `text` read from `file` (the name is used in errors only).
    package static func parse(_ text: String, file: String) throws(ConfigError) -> EarsConfig {
        try parse(bytes: Array(text.utf8), file: file).config
    }

    /// Parses the bytes of a file (at most `ConfigLines.maximumFileBytes`;
    /// lines may end in LF, CRLF or CR) and records the line each key was
    /// set on, for checks made later (`LocatedConfig`). Throws the first
    /// problem (`parseCollecting` has them all).
    package static func parse(bytes: some Collection<UInt8>, file: String) throws(ConfigError) -> LocatedConfig {
        let (located, errors) = try parseCollecting(bytes: bytes, file: file)
        if let first = errors.first { throw first }
        return located
    }

    /// Parses every line, going on past a bad one, so `check-config` can
    /// report all the file's problems in one run: the configuration from the
    /// good lines, and one error per bad line in file order. Keys under an
    /// unknown section are skipped (its header is the one error). Throws
    /// only when the bytes cannot be read as lines at all (too large, not
    /// UTF-8).
    package static func parseCollecting(bytes: some Collection<UInt8>, file: String) throws(ConfigError)
        -> (config: LocatedConfig, errors: [ConfigError]) {
        var config = EarsConfig()
        var origins: [String: LocatedConfig.Origin] = [:]
        var errors: [ConfigError] = []
        var section: String?
        var sectionKnown = true
        var phrasesSeen = false
        for (offset, rawLine) in try ConfigLines(bytes: bytes, file: file).lines.enumerated() {
            let line = offset + 1
            func fail(_ message: String) { errors.append(ConfigError(file: file, line: line, message: message)) }
            let trimmed = rawLine.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]") else {
                    fail("a section header must look like [name]; allowed sections: \(sectionList)")
                    section = nil
                    sectionKnown = false
                    continue
                }
                let name = String(trimmed.dropFirst().dropLast()).trimmingSpaces
                section = name
                sectionKnown = keys.contains(where: { $0.section == name })
                if !sectionKnown {
                    let guess = nearest(name, among: sectionNames).map { " did you mean [\($0)]?" } ?? ""
                    fail("unknown section \(ConfigLines.quoted("[" + name + "]"));\(guess) allowed sections: \(sectionList)")
                }
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else {
                fail("expected 'key = value', a [section] or a # comment")
                continue
            }
            let name = String(trimmed[..<equals]).trimmingSpaces
            let value = String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces
            guard sectionKnown else { continue }
            guard let section else {
                fail("\(ConfigLines.quoted(name)) is outside any section; put it under one of \(sectionList)")
                continue
            }
            guard let key = keys.first(where: { $0.section == section && $0.name == name }) else {
                let here = keys.filter { $0.section == section }.map(\.name)
                let elsewhere = keys.first { $0.name == name }.map { " (it belongs in [\($0.section)])" } ?? ""
                let guess = elsewhere.isEmpty ? nearest(name, among: here).map { " did you mean \(ConfigLines.quoted($0))?" } ?? "" : ""
                fail("unknown key \(ConfigLines.quoted(name)) in [\(section)]\(elsewhere);\(guess) allowed keys: \(here.joined(separator: ", "))")
                continue
            }
            if let problem = key.apply(&config, value, &phrasesSeen) {
                fail("bad value \(ConfigLines.quoted(value)) for \(name): \(problem); allowed: \(key.allowed)")
                continue
            }
            origins["\(section).\(name)"] = LocatedConfig.Origin(file: file, line: line)
        }
        return (LocatedConfig(config: config, origins: origins), errors)
    }

    /// The known section names, in table order.
    static var sectionNames: [String] {
        keys.reduce(into: [String]()) { if !$0.contains($1.section) { $0.append($1.section) } }
    }

    /// The candidate closest to `word` by edit distance, when close enough
    /// to be a slip (at most a third of the word's letters, at least 1):
    /// "trainde_models" → "trained_models"; nil when none is.
    package static func nearest(_ word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edit distance counting an insertion, a deletion, a substitution or a
    /// swap of two neighbouring characters as one edit ("audoi" is one from
    /// "audio": typing slips are often swaps).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// Every key, for documentation checks: `section.name` → what is allowed.
    package static var documentedKeys: [(key: String, allowed: String)] {
        keys.map { ("\($0.section).\($0.name)", $0.allowed) }
    }

    /// The bounds of the decimal-number key `key` (`section.name`, e.g.
    /// `wake.verifier_threshold`; `wake.phrase` gives the phrase threshold's),
    /// so a command-line flag setting the same value checks the same range;
    /// nil for a key that is not a decimal number.
    package static func numberRange(_ key: String) -> ClosedRange<Double>? {
        keys.first { "\($0.section).\($0.name)" == key }?.range
    }

    /// A range in words as the messages write it: "0.01 to 0.99", "0 to 1000000", "1e-80 to 1".
    package static func words(_ range: ClosedRange<Double>) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        return "\(number(range.lowerBound)) to \(number(range.upperBound))"
    }

    /// A key taking on/off (see `parseSwitch`).
    private static func switchKey(section: String, name: String, allowed: String,
                                  set: @escaping @Sendable (inout EarsConfig, Bool) -> Void) -> Key {
        Key(section: section, name: name, allowed: allowed) { config, value, _ in
            guard let flag = parseSwitch(value) else { return "not on or off" }
            set(&config, flag)
            return nil
        }
    }

    /// A key taking auto, on or off (`parseAutoSwitch`): nil for auto.
    private static func autoSwitchKey(section: String, name: String, allowed: String,
                                      set: @escaping @Sendable (inout EarsConfig, Bool?) -> Void) -> Key {
        Key(section: section, name: name, allowed: allowed) { config, value, _ in
            guard let setting = parseAutoSwitch(value) else { return "not auto, on or off" }
            set(&config, setting)
            return nil
        }
    }

    /// A key taking a number inside `range`, read by `read` (so one helper
    /// serves decimals, whole numbers and octal modes); `problem` is the
    /// error's "not a …" phrase.
    private static func rangeKey<Number: Comparable & Sendable>(
        section: String, name: String, range: ClosedRange<Number>, read: @escaping @Sendable (String) -> Number?,
        problem: String, allowed: String, set: @escaping @Sendable (inout EarsConfig, Number) -> Void
    ) -> Key {
        Key(section: section, name: name, allowed: allowed) { config, value, _ in
            guard let number = read(value), range.contains(number) else { return problem }
            set(&config, number)
            return nil
        }
    }

    /// A key taking a decimal number inside `range` (`rangeKey`).
    private static func numberKey(section: String, name: String, range: ClosedRange<Double>, problem: String, allowed: String,
                                  set: @escaping @Sendable (inout EarsConfig, Double) -> Void) -> Key {
        var key = rangeKey(section: section, name: name, range: range, read: { Double($0) }, problem: problem, allowed: allowed, set: set)
        key.range = range
        return key
    }

    /// A key taking `off` (nil) or a score within `range`, whose range is
    /// its flag's too (`[wake] head_alone_score`, `sure_verifier_score`).
    private static func offOrScoreKey(section: String, name: String, range: ClosedRange<Double>, allowed: String,
                                      set: @escaping @Sendable (inout EarsConfig, Double?) -> Void) -> Key {
        let written = { (bound: Double) in bound == bound.rounded() ? String(Int(bound)) : String(bound) }
        let problem = "not off or a number from \(written(range.lowerBound)) to \(written(range.upperBound))"
        var key = Key(section: section, name: name, allowed: allowed) { config, value, _ in
            if value == "off" { set(&config, nil); return nil }
            guard let score = Double(value), range.contains(score) else { return problem }
            set(&config, score)
            return nil
        }
        key.range = range
        return key
    }

    /// A key taking an absolute path, or empty for "none / the default" (nil).
    private static func absolutePathKey(section: String, name: String, allowed: String,
                                        set: @escaping @Sendable (inout EarsConfig, String?) -> Void) -> Key {
        Key(section: section, name: name, allowed: allowed) { config, value, _ in
            if value.isEmpty { set(&config, nil); return nil }
            guard value.hasPrefix("/") else { return "the path is not absolute" }
            set(&config, value)
            return nil
        }
    }

    /// Reads a systemd-style boolean.
    package static func parseSwitch(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: return nil
        }
    }

    /// `auto` or an on/off word (`parseSwitch`): `.some(nil)` for auto,
    /// `.some(flag)` for a switch, nil for anything else.
    package static func parseAutoSwitch(_ value: String) -> Bool?? {
        value == "auto" ? .some(nil) : parseSwitch(value).map { .some($0) }
    }

    private static var sectionList: String {
        var seen: [String] = []
        for key in keys where !seen.contains(key.section) { seen.append(key.section) }
        return seen.map { "[\($0)]" }.joined(separator: ", ")
    }

    static let keys: [Key] = [
        Key(section: "audio", name: "device", allowed: "an ALSA capture device name such as default, hw:1,0 or plughw:CARD=Mic") { config, value, _ in
            guard !value.isEmpty else { return "the device name is empty" }
            config.device = value
            return nil
        },
        switchKey(section: "audio", name: "noise_suppression", allowed: "on or off: libspeexdsp denoises what the engines hear (the ring and captures stay raw)") { $0.noiseSuppression = $1 },
        rangeKey(section: "audio", name: "noise_suppression_db", range: -60 ... -1, read: { Int($0) },
                 problem: "not a whole number of dB from -60 to -1",
                 allowed: "a whole number of dB from -60 to -1, e.g. -15") { $0.noiseSuppressionDecibels = $1 },
        Key(section: "engine", name: "engine", allowed: EngineKind.allCases.map(\.rawValue).joined(separator: " or ")) { config, value, _ in
            guard let engine = EngineKind(rawValue: value.lowercased()) else { return "not a known engine" }
            config.engine = engine
            return nil
        },
        absolutePathKey(section: "engine", name: "model", allowed: "an absolute path to the engine's model directory, or empty for the installed default") { $0.model = $1 },
        numberKey(section: "engine", name: "phrase_boost", range: 0...1_000_000, problem: "not a number from 0 to 1000000",
                  allowed: "a number from 0 (off) to 1000000: PocketSphinx's weight for each phrase as one compound word, relative to a uniform word probability") { $0.phraseBoost = $1 },
        switchKey(section: "engine", name: "speech_gate", allowed: "on or off (also yes/no, true/false, 1/0)") { $0.speechGate = $1 },
        switchKey(section: "engine", name: "vosk_grammar", allowed: "on or off (also yes/no, true/false, 1/0)") { $0.voskGrammar = $1 },
        Key(section: "wake", name: "phrase", allowed: "the phrase as written text, optionally followed by '| threshold' (0.05 to 1.0) and '| alias, alias', e.g. hey cordelia | 0.8 | cordelia pippa; at most \(PhraseLimits.maximumForms) phrases and aliases in all, each at most \(PhraseLimits.maximumCharacters) characters",
            range: phraseThresholdRange) { config, value, seen in
            let parts = value.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            guard let text = parts.first, !LetterMatcher.letters(text).isEmpty else { return "the phrase has no letters" }
            var phrase = WakePhrase(text: text)
            if parts.count >= 2, !parts[1].isEmpty {
                guard let threshold = Double(parts[1]), phraseThresholdRange.contains(threshold) else { return "the threshold is not a number from 0.05 to 1.0" }
                phrase.threshold = threshold
            }
            if parts.count == 3 {
                phrase.aliases = parts[2].split(separator: ",").map { String($0).trimmingSpaces }
                guard !phrase.aliases.isEmpty, phrase.aliases.allSatisfy({ !LetterMatcher.letters($0).isEmpty }) else {
                    return "an alias has no letters"
                }
            }
            // The first phrase in a file replaces the built-in default; later ones add.
            if !seen { config.phrases = []; seen = true }
            if let problem = PhraseLimits.problem(adding: phrase, to: config.phrases) { return problem }
            config.phrases.append(phrase)
            return nil
        },
        Key(section: "wake", name: "matching", allowed: Matching.allCases.map(\.rawValue).joined(separator: " or ")) { config, value, _ in
            guard let matching = Matching(rawValue: value.lowercased()) else { return "not a known way of matching" }
            config.matching = matching
            return nil
        },
        Key(section: "wake", name: "spotter", allowed: Spotter.allCases.map(\.rawValue).joined(separator: " or ")) { config, value, _ in
            guard let spotter = Spotter(rawValue: value.lowercased()) else { return "not a known spotter" }
            config.spotter = spotter
            return nil
        },
        numberKey(section: "wake", name: "spotter_threshold", range: 1e-80...1, problem: "not a number from 1e-80 to 1",
                  allowed: "a likelihood ratio from 1e-80 to 1, e.g. 1e-30") { $0.spotterThreshold = $1 },
        switchKey(section: "wake", name: "verifier", allowed: "on or off: rescore each candidate on its own audio before it wakes") { $0.verifier = $1 },
        numberKey(section: "wake", name: "verifier_threshold", range: 0.01...0.99, problem: "not a number from 0.01 to 0.99",
                  allowed: "a score from 0.01 to 0.99") { $0.verifierThreshold = $1 },
        switchKey(section: "wake", name: "trained_models", allowed: "on or off: hear a phrase with its model from ears train when there is one") { $0.trainedModels = $1 },
        autoSwitchKey(section: "wake", name: "trained_denoise",
                      allowed: "auto, on or off: trained models hear the audio through the noise suppressor (default auto: as their models were trained)") { $0.trainedDenoise = $1 },
        switchKey(section: "wake", name: "quiet_room_raw", allowed: "on or off: trained models that hear denoised audio hear a quiet room (noise floor under -58 dBFS) as captured") { $0.quietRoomRaw = $1 },
        autoSwitchKey(section: "wake", name: "microphone_floor",
                      allowed: "auto, on or off: the engines hear a microphone's own noise (-74 dBFS) under the audio, so digital silence never reaches them (default auto: when every phrase has a trained model)") { $0.microphoneFloor = $1 },
        switchKey(section: "wake", name: "trained_contest", allowed: "on or off: refuse a trained model's wake when a sound-alike of the phrase explains the audio better") { $0.trainedContest = $1 },
        switchKey(section: "wake", name: "both_routes", allowed: "on or off: a phrase with a trained model is also heard by the acoustic route, whose detection wakes when the phrase's head agrees") { $0.bothRoutes = $1 },
        switchKey(section: "wake", name: "both_routes_verifier", allowed: "on or off (default on): with both_routes, an acoustic detection of a phrase with a trained model is also put to the verifier before its head's agreement") { $0.bothRoutesVerifier = $1 },
        switchKey(section: "wake", name: "acoustic_on_lean", allowed: "on or off: with both_routes and every phrase trained, the acoustic route hears only the seconds around a head's lean towards its phrase") { $0.acousticOnLean = $1 },
        switchKey(section: "wake", name: "auto_train", allowed: "on or off: train a model in the background for each phrase without one") { $0.autoTrain = $1 },
        numberKey(section: "wake", name: "auto_train_minutes", range: 0.1...120, problem: "not a number of minutes from 0.1 to 120",
                  allowed: "minutes from 0.1 to 120: one background training's budget (default 8)") { $0.autoTrainMinutes = $1 },
        absolutePathKey(section: "wake", name: "models_directory", allowed: "an absolute directory path, or empty for $STATE_DIRECTORY/phrases, $XDG_STATE_HOME/ears/phrases or /var/lib/ears/phrases") { $0.modelsDirectory = $1 },
        numberKey(section: "wake", name: "head_agreement", range: 0.05...0.999, problem: "not a number from 0.05 to 0.999",
                  allowed: "a score from 0.05 to 0.999 a phrase's head must reach near an acoustic detection (default 0.5)") { $0.headAgreement = $1 },
        offOrScoreKey(section: "wake", name: "head_alone_score", range: 0.5...1,
                      allowed: "off, or a score from 0.5 to 1 a trained head's detection needs to wake without the acoustic route's (default off)") { $0.headAloneScore = $1 },
        offOrScoreKey(section: "wake", name: "sure_verifier_score", range: 0.55...1,
                      allowed: "off, or a verifier score from 0.55 to 1 at which an acoustic detection of a trained phrase needs only a faint lean of its head (default off)") { $0.sureVerifierScore = $1 },
        numberKey(section: "wake", name: "trained_threshold", range: 0.01...0.999, problem: "not a number from 0.01 to 0.999",
                  allowed: "a score from 0.01 to 0.999 (default: each model's own)") { $0.trainedThreshold = $1 },
        numberKey(section: "wake", name: "refractory_seconds", range: 0...60, problem: "not a number of seconds from 0 to 60",
                  allowed: "seconds from 0 to 60, e.g. 2 or 1.5") { $0.refractorySeconds = $1 },
        numberKey(section: "capture", name: "max_seconds", range: 0.5...CaptureLimits.absoluteMaximumSeconds,
                  problem: "not a number of seconds from 0.5 to 60", allowed: "seconds from 0.5 to 60 (the hard cap; default 20)") {
            $0.captureLimits = CaptureLimits(maximumSeconds: $1, silenceSeconds: $0.captureLimits.silenceSeconds)
        },
        numberKey(section: "capture", name: "silence_seconds", range: 0.1...5, problem: "not a number of seconds from 0.1 to 5",
                  allowed: "seconds from 0.1 to 5: silence after speech that ends a capture") {
            $0.captureLimits = CaptureLimits(maximumSeconds: $0.captureLimits.maximumSeconds, silenceSeconds: $1)
        },
        absolutePathKey(section: "capture", name: "on_wake", allowed: "an absolute path to an executable, or empty for none") { $0.onWake = $1 },
        numberKey(section: "capture", name: "hook_timeout_seconds", range: 1...600, problem: "not a number of seconds from 1 to 600",
                  allowed: "seconds from 1 to 600") { $0.hookTimeoutSeconds = $1 },
        absolutePathKey(section: "capture", name: "on_detect", allowed: "an absolute path to an executable run at each detection, or empty for none") { $0.onDetect = $1 },
        absolutePathKey(section: "capture", name: "awake_sound", allowed: "an absolute path to a 16-bit PCM WAV of at most 10 s played at each detection, or empty for none") { $0.awakeSound = $1 },
        Key(section: "capture", name: "awake_sound_device", allowed: "an ALSA playback device name such as default, hw:0,0 or plughw:CARD=PCH") { config, value, _ in
            guard !value.isEmpty else { return "the device name is empty" }
            config.awakeSoundDevice = value
            return nil
        },
        Key(section: "listen", name: "socket_group", allowed: "a group name (e.g. ears-clients), or empty to keep the service's own group") { config, value, _ in
            config.listenSocketGroup = value.isEmpty ? nil : value
            return nil
        },
        switchKey(section: "listen", name: "ear_text", allowed: "on or off (default off): the recent transcript on listen.sock, for the machine's owner only") { $0.earText = $1 },
        Key(section: "wyoming", name: "uri", allowed: "\(ServiceURI.allowedForms); repeatable, one address per line; absent (the default): no Wyoming wake service; empty clears the addresses given above it") { config, value, _ in
            if value.isEmpty { config.wyomingURIs = []; return nil }
            do throws(ServiceURI.ParseError) {
                let uri = try ServiceURI(parsing: value)
                if !config.wyomingURIs.contains(uri) { config.wyomingURIs.append(uri) }
                return nil
            } catch {
                return error.sentence
            }
        },
        switchKey(section: "wyoming", name: "zeroconf", allowed: "on or off (default on): announce each tcp:// address as _wyoming._tcp through avahi-daemon (a loopback address on the loopback interface only); unix:// addresses are never announced") { $0.wyomingZeroconf = $1 },
        rangeKey(section: "wyoming", name: "max_streams", range: 1...16, read: { Int($0) },
                 problem: "not a whole number from 1 to 16",
                 allowed: "a whole number from 1 to 16 (default \(EarsConfig.defaultWyomingMaxStreams)): remote streams heard at once, each with its own engine (about 130 MB with PocketSphinx)") { $0.wyomingMaxStreams = $1 },
        absolutePathKey(section: "status", name: "runtime_directory", allowed: "an absolute directory path, or empty for $RUNTIME_DIRECTORY, $XDG_RUNTIME_DIR/ears or /tmp/ears-<uid>") { $0.runtimeDirectory = $1 },
        rangeKey(section: "status", name: "socket_mode", range: 0o600...0o666, read: { UInt32($0, radix: 8) },
                 problem: "not an octal mode from 0600 to 0666",
                 allowed: "octal permission bits from 0600 to 0666, e.g. 0660") { $0.socketMode = $1 },
    ]
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (and a stray
    /// CR, for text that did not come through `ConfigLines`).
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
        return String(slice)
    }
}
