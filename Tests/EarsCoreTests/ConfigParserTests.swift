import Testing
@testable import EarsCore
@testable import EarsPhonetics
@testable import EarsConfig

@Suite struct ConfigParserTests {
    @Test func anEmptyFileGivesTheDefaults() throws {
        let config = try ConfigParser.parse("", file: "ears.conf")
        #expect(config == EarsConfig())
        #expect(config.phrases.map(\.text) == ["hey cordelia"])
        #expect(config.device == "default")
        #expect(config.engine == .pocketsphinx)
    }

    @Test func everyKnownKeyIsRead() throws {
        let text = """
        # comment
        [audio]
        device = plughw:CARD=Mic
        [engine]
        engine = vosk
        model = /opt/models/ko
        [wake]
        phrase = 코델리아 피파 | 0.7
        phrase = hey cordelia
        refractory_seconds = 1.5
        [status]
        runtime_directory = /run/ears
        socket_mode = 0600
        """
        let config = try ConfigParser.parse(text, file: "ears.conf")
        #expect(config.device == "plughw:CARD=Mic")
        #expect(config.engine == .vosk)
        #expect(config.model == "/opt/models/ko")
        #expect(config.phrases == [WakePhrase(text: "코델리아 피파", threshold: 0.7), WakePhrase(text: "hey cordelia")])
        #expect(config.refractorySeconds == 1.5)
        #expect(config.runtimeDirectory == "/run/ears")
        #expect(config.socketMode == 0o600)
    }

    @Test func anUnknownKeyNamesFileLineAndTheAllowedKeys() {
        let text = "[audio]\n\ndevcie = hw:1\n"
        #expect(throws: ConfigError.self) { try ConfigParser.parse(text, file: "/etc/ears/ears.conf") }
        do {
            _ = try ConfigParser.parse(text, file: "/etc/ears/ears.conf")
        } catch {
            #expect(error.description.hasPrefix("/etc/ears/ears.conf:3: unknown key 'devcie' in [audio]"))
            #expect(error.description.contains("allowed keys: device"))
        }
    }

    @Test func everyBadLineIsFoundInOneReadAndTheGoodLinesStillCount() throws {
        let text = "[wake]\nphrase = okay juniper\ntrainde_models = on\n[audoi]\ndevice = x\n[capture]\nmax_seconds = 900\n"
        let (located, errors) = try ConfigParser.parseCollecting(bytes: Array(text.utf8), file: "ears.conf")
        #expect(errors.map(\.line) == [3, 4, 7])
        #expect(errors[0].message.contains("did you mean 'trained_models'?"))
        #expect(errors[1].message.contains("did you mean [audio]?"))
        #expect(errors[2].message.contains("bad value '900' for max_seconds"))
        #expect(located.config.phrases.map(\.text) == ["okay juniper"])
        // The throwing parse still stops at the first.
        #expect(throws: ConfigError.self) { try ConfigParser.parse(text, file: "ears.conf") }
    }

    @Test func aKeyInTheWrongSectionSaysWhereItBelongs() throws {
        let (_, errors) = try ConfigParser.parseCollecting(bytes: Array("[audio]\nauto_train = off\n".utf8), file: "ears.conf")
        #expect(errors.count == 1 && errors[0].message.contains("(it belongs in [wake])"))
    }

    @Test func theNearestKeyIsASlipAwayOrNone() {
        #expect(ConfigParser.nearest("verifer", among: ["verifier", "spotter"]) == "verifier")
        #expect(ConfigParser.nearest("audoi", among: ["audio", "engine"]) == "audio")
        #expect(ConfigParser.nearest("colour", among: ["phrase", "device"]) == nil)
        #expect(ConfigParser.editDistance("ab", "ba") == 1 && ConfigParser.editDistance("", "abc") == 3)
    }

    @Test func aBadValueSaysWhatIsAllowed() {
        do {
            _ = try ConfigParser.parse("[wake]\nrefractory_seconds = soon\n", file: "x.conf")
            Issue.record("a bad value was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains("allowed: seconds from 0 to 60"))
        }
    }

    @Test func anUnknownEngineIsRefused() {
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[engine]\nengine = whisper\n", file: "x") }
    }

    @Test func aKeyOutsideAnySectionIsRefused() {
        do {
            _ = try ConfigParser.parse("device = hw:0\n", file: "x")
            Issue.record("accepted a key outside a section")
        } catch {
            #expect(error.line == 1)
            #expect(error.message.contains("outside any section"))
        }
    }

    @Test func anUnknownSectionIsRefused() {
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[microphone]\n", file: "x") }
    }

    @Test func aThresholdOutOfRangeIsRefused() {
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[wake]\nphrase = hey | 3\n", file: "x") }
    }

    @Test func aPhraseMayCarryAThresholdAndAliases() throws {
        let config = try ConfigParser.parse("[wake]\nphrase = hey cordelia | 0.7 | cordelia pippa, hey delia\nphrase = computer | | ok computer\n", file: "x")
        #expect(config.phrases == [WakePhrase(text: "hey cordelia", threshold: 0.7, aliases: ["cordelia pippa", "hey delia"]),
                                   WakePhrase(text: "computer", aliases: ["ok computer"])])
    }

    @Test func anEmptyAliasIsRefused() {
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[wake]\nphrase = hey | 0.8 | ,\n", file: "x") }
    }

    @Test func aRelativeModelPathIsRefused() {
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[engine]\nmodel = models/ko\n", file: "x") }
    }

    @Test func socketModeMustBeOctalWithinRange() throws {
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[status]\nsocket_mode = 0777\n", file: "x") }
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[status]\nsocket_mode = 660a\n", file: "x") }
        #expect(try ConfigParser.parse("[status]\nsocket_mode = 0640\n", file: "x").socketMode == 0o640)
    }

    @Test func configErrorsExitWithSeventyEight() {
        #expect(ConfigError.exitCode == 78)
    }
}

@Suite struct ConfigOriginTests {
    @Test("the parser records the line each key was last set on")
    func originsAreRecorded() throws {
        let located = try ConfigParser.parse(bytes: Array("[capture]\non_wake = /bin/true\n\n[listen]\nsocket_group = ears\nsocket_group = audio\n".utf8),
                                             file: "ears.conf")
        #expect(located.origins["capture.on_wake"] == .init(file: "ears.conf", line: 2))
        #expect(located.origins["listen.socket_group"] == .init(file: "ears.conf", line: 6))
        #expect(located.origins["engine.model"] == nil)
        #expect(located.error(at: "listen.socket_group", "no such group", fallbackFile: "x").description == "ears.conf:6: no such group")
        #expect(located.error(at: "engine.model", "missing", fallbackFile: "x").description == "x: missing")
    }

    @Test("every range-checked number key refuses a value just outside its range and says so", arguments: [
        ("audio", "noise_suppression_db", "0", "not a whole number of dB from -60 to -1"),
        ("engine", "phrase_boost", "1000001", "not a number from 0 to 1000000"),
        ("wake", "spotter_threshold", "2", "not a number from 1e-80 to 1"),
        ("wake", "verifier_threshold", "0.995", "not a number from 0.01 to 0.99"),
        ("wake", "trained_threshold", "0", "not a number from 0.01 to 0.999"),
        // Up to 0.999: the settings the benchmark reads above a model's own threshold (bench/wakebench/config.py TRAINED_SCORE_SWEEP).
        ("wake", "trained_threshold", "0.9995", "not a number from 0.01 to 0.999"),
        ("wake", "head_agreement", "0.01", "not a number from 0.05 to 0.999"),
        ("wake", "head_agreement", "1", "not a number from 0.05 to 0.999"),
        ("wake", "head_alone_score", "0.4", "not off or a number from 0.5 to 1"),
        ("wake", "head_alone_score", "on", "not off or a number from 0.5 to 1"),
        ("wake", "sure_verifier_score", "0.5", "not off or a number from 0.55 to 1"),
        ("wake", "sure_verifier_score", "yes", "not off or a number from 0.55 to 1"),
        ("wake", "refractory_seconds", "-1", "not a number of seconds from 0 to 60"),
        ("capture", "max_seconds", "61", "not a number of seconds from 0.5 to 60"),
        ("capture", "silence_seconds", "0.05", "not a number of seconds from 0.1 to 5"),
        ("capture", "hook_timeout_seconds", "601", "not a number of seconds from 1 to 600"),
        ("status", "socket_mode", "0667", "not an octal mode from 0600 to 0666"),
    ])
    func rangesAreChecked(section: String, key: String, value: String, problem: String) {
        do {
            _ = try ConfigParser.parse("[\(section)]\n\(key) = \(value)\n", file: "f")
            Issue.record("\(key) = \(value) was accepted")
        } catch {
            #expect(error.message.contains("for \(key): \(problem); allowed: "), "\(error)")
        }
    }

    @Test("range-checked number keys set their value at both ends of the range")
    func rangeEndsAreAccepted() throws {
        let config = try ConfigParser.parse("""
        [audio]
        noise_suppression_db = -60
        [engine]
        phrase_boost = 1000000
        [wake]
        refractory_seconds = 0
        trained_threshold = 0.99
        [capture]
        max_seconds = 0.5
        silence_seconds = 5
        hook_timeout_seconds = 600
        [status]
        socket_mode = 0666
        """, file: "f")
        #expect(config.noiseSuppressionDecibels == -60)
        #expect(config.phraseBoost == 1_000_000)
        #expect(config.refractorySeconds == 0)
        #expect(config.trainedThreshold == 0.99)
        #expect(config.captureLimits.maximumSeconds == 0.5)
        #expect(config.captureLimits.silenceSeconds == 5)
        #expect(config.hookTimeoutSeconds == 600)
        #expect(config.socketMode == 0o666)
    }
}
