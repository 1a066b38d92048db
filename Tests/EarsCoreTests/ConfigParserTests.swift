import Testing
@testable import EarsCore

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
