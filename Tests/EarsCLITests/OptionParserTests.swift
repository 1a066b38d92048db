@testable import EarsCLI
import EarsCore
import Testing
import EarsConfig
import EarsEngines

@Suite struct OptionParserTests {
    private let parser = OptionParser(command: "scan", flags: [
        FlagSpec("--json", "one JSON line per wake"),
        FlagSpec("--count", "N", "at most N"),
        FlagSpec("--phrase", "TEXT", "a phrase"),
    ])

    @Test("--opt value and --opt=value give the same value")
    func bothValueSpellings() throws {
        let spaced = try parser.parse(["--count", "5", "a.wav"])
        let joined = try parser.parse(["--count=5", "a.wav"])
        #expect(spaced == joined)
        #expect(spaced.value("--count") == "5")
        #expect(spaced.operands == ["a.wav"])
    }

    @Test("a value may itself contain = and start with a dash")
    func valuesKeepTheirCharacters() throws {
        let parsed = try parser.parse(["--phrase=a=b", "--count", "-3"])
        #expect(parsed.value("--phrase") == "a=b")
        #expect(parsed.value("--count") == "-3")
    }

    @Test("a repeated flag keeps every value, and value() is the last")
    func repeatedFlags() throws {
        let parsed = try parser.parse(["--phrase", "one", "--phrase=two"])
        #expect(parsed.values("--phrase") == ["one", "two"])
        #expect(parsed.value("--phrase") == "two")
    }

    @Test("-h and --help ask for help wherever they stand")
    func helpAnywhere() throws {
        #expect(try parser.parse(["-h"]).helpRequested)
        #expect(try parser.parse(["a.wav", "--json", "--help"]).helpRequested)
        #expect(try !parser.parse(["a.wav"]).helpRequested)
    }

    @Test("a flag the command does not take is refused with a sentence naming the command")
    func unknownFlagRefused() {
        #expect(throws: UsageError(description: "ears scan: --wav is not an option of ears scan; see ears scan --help")) {
            try parser.parse(["--wav"])
        }
        #expect(throws: UsageError.self) { try parser.parse(["-x"]) }
    }

    @Test("a switch refuses a value, a value flag needs one")
    func switchesAndValues() {
        #expect(throws: UsageError.self) { try parser.parse(["--json=yes"]) }
        #expect(throws: UsageError(description: "ears: --count needs a value")) { try parser.parse(["--count"]) }
    }

    @Test("- is an operand and -- ends the flags")
    func operands() throws {
        let parsed = try parser.parse(["-", "--", "--json", "-h"])
        #expect(parsed.operands == ["-", "--json", "-h"])
        #expect(!parsed.has("--json") && !parsed.helpRequested)
    }

    @Test("help lists every flag with its placeholder under its group's heading, aligned across groups")
    func helpLines() {
        let lines = parser.helpLines()
        #expect(lines.count == 4)
        #expect(lines[0] == "options:" && lines[2].hasPrefix("  --count N"))
        let flagLines = lines.filter { $0.hasPrefix("  ") }
        let columns = Set(zip(flagLines, parser.flags).map { line, spec in line.range(of: spec.help)!.lowerBound.utf16Offset(in: line) })
        #expect(columns.count == 1)
        let grouped = OptionParser(command: "scan", flags: [FlagSpec("--config", "PATH", "a file", group: .input),
                                                            FlagSpec("--json", "JSON")]).helpLines()
        #expect(grouped == ["options:", "  --json         JSON", "", "configuration and input:", "  --config PATH  a file"])
    }
}

@Suite struct ConfigFlagsTests {
    @Test("every number flag takes its range from the configuration key it overrides")
    func rangesComeFromTheKeyTable() throws {
        for (flag, key) in ConfigFlags.rangeKeys {
            let range = try #require(ConfigParser.numberRange(key), "\(key) has no range")
            #expect(ConfigFlags.all.contains { $0.name == flag }, "\(flag) is not a flag")
            #expect(try ConfigFlags.number(flag, String(range.upperBound)) == range.upperBound)
            #expect(throws: UsageError.self) { try ConfigFlags.number(flag, String(range.upperBound * 2 + 1)) }
        }
        #expect(ConfigParser.numberRange("wake.verifier_threshold") == 0.01...0.99)
        #expect(ConfigParser.numberRange("audio.device") == nil)
    }

    @Test("out of range says the range in words")
    func outOfRangeMessage() {
        #expect(throws: UsageError(description: "ears: --trained-threshold 1.5 is not a number from 0.01 to 0.999")) {
            try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--trained-threshold", value: "1.5")]))
        }
        #expect(ConfigParser.words(1e-80...1) == "1e-80 to 1")
    }

    @Test("--trained-denoise takes auto (as the models were trained), on and off, and refuses anything else")
    func trainedDenoiseFlag() throws {
        func denoise(_ text: String) throws -> Bool?? {
            try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--trained-denoise", value: text)])).trainedDenoise
        }
        #expect(try denoise("auto") == .some(nil))
        #expect(try denoise("on") == .some(true))
        #expect(try denoise("off") == .some(false))
        #expect(throws: UsageError(description: "ears: --trained-denoise maybe is not auto, on or off")) { try denoise("maybe") }
        #expect(try ConfigFlags.overrides(from: ParsedArguments(flags: [])).trainedDenoise == nil) // not given: the file decides
    }

    @Test("--head-agreement sets the score a head must reach near an acoustic detection, and not given leaves the file's")
    func headAgreementFlag() throws {
        let given = try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--head-agreement", value: "0.9")]))
        var config = EarsConfig()
        config.headAgreement = 0.7
        given.apply(to: &config)
        #expect(config.headAgreement == 0.9)
        config.headAgreement = 0.7
        try ConfigFlags.overrides(from: ParsedArguments(flags: [])).apply(to: &config)
        #expect(config.headAgreement == 0.7)
        #expect(throws: UsageError(description: "ears: --head-agreement 0.01 is not a number from 0.05 to 0.999")) {
            try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--head-agreement", value: "0.01")]))
        }
    }

    @Test("--both-routes-verifier on|off sets whether a trained phrase's acoustic detection meets the verifier, and not given leaves the file's")
    func bothRoutesVerifierFlag() throws {
        var config = EarsConfig()
        try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--both-routes-verifier", value: "on")])).apply(to: &config)
        #expect(config.bothRoutesVerifier)
        try ConfigFlags.overrides(from: ParsedArguments(flags: [])).apply(to: &config)
        #expect(config.bothRoutesVerifier)
        try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--both-routes-verifier", value: "off")])).apply(to: &config)
        #expect(!config.bothRoutesVerifier)
        #expect(throws: UsageError.self) {
            try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--both-routes-verifier", value: "maybe")]))
        }
    }

    @Test("--microphone-floor auto|on|off sets whether the engines hear a microphone's own noise, and not given leaves the file's")
    func microphoneFloorFlag() throws {
        var config = EarsConfig()
        #expect(config.microphoneFloor == nil) // auto by default
        try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--microphone-floor", value: "on")])).apply(to: &config)
        #expect(config.microphoneFloor == true)
        try ConfigFlags.overrides(from: ParsedArguments(flags: [])).apply(to: &config)
        #expect(config.microphoneFloor == true)
        try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--microphone-floor", value: "off")])).apply(to: &config)
        #expect(config.microphoneFloor == false)
        try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--microphone-floor", value: "auto")])).apply(to: &config)
        #expect(config.microphoneFloor == nil)
        #expect(throws: UsageError.self) {
            try ConfigFlags.overrides(from: ParsedArguments(flags: [.init(name: "--microphone-floor", value: "loud")]))
        }
    }

    @Test("at auto an ear hears the microphone floor only when every phrase has a trained model; on and off decide for every ear")
    func microphoneFloorAuto() {
        var config = EarsConfig()
        #expect(EngineFactory.microphoneFloor(config, everyPhraseTrained: true) != nil)
        #expect(EngineFactory.microphoneFloor(config, everyPhraseTrained: false) == nil)
        config.microphoneFloor = true
        #expect(EngineFactory.microphoneFloor(config, everyPhraseTrained: false) != nil)
        config.microphoneFloor = false
        #expect(EngineFactory.microphoneFloor(config, everyPhraseTrained: true) == nil)
    }

    @Test("overrides read in order: --phrase adds, others take the last")
    func overridesInOrder() throws {
        let parsed = ParsedArguments(flags: [.init(name: "--phrase", value: "a"), .init(name: "--phrase", value: "b"),
                                             .init(name: "--device", value: "x"), .init(name: "--device", value: "y"),
                                             .init(name: "--verifier", value: "off")])
        let overrides = try ConfigFlags.overrides(from: parsed)
        #expect(overrides.phrases == ["a", "b"])
        #expect(overrides.device == "y")
        #expect(overrides.verifier == false)
    }
}

@Suite struct CommandTableTests {
    @Test("every command parses --help and refuses a flag it does not take with exit 64")
    func everyCommand() {
        for command in EarsMain.commands {
            #expect(EarsMain.run(command.words + ["--help"]) == 0, "\(command.name)")
            #expect(EarsMain.run(command.words + ["--no-such-flag"]) == 64, "\(command.name)")
        }
    }

    @Test("ears --help, ears help COMMAND and ears model --help show help and exit 0; the top-level help lists help")
    func helpEverywhere() {
        #expect(EarsMain.run(["--help"]) == 0)
        #expect(EarsMain.usage.contains("help COMMAND"))
        #expect(EarsMain.run(["model", "--help"]) == 0)
        #expect(EarsMain.run(["help", "model"]) == 0)
        for command in EarsMain.commands {
            #expect(EarsMain.run(["help"] + command.words) == 0, "\(command.name)")
        }
    }

    @Test("no command takes a flag it would ignore: the offline tools have no microphone, sockets or background training")
    func onlyFlagsThatMatter() {
        func takes(_ command: any EarsCommand.Type, _ flag: String) -> Bool { command.flags.contains { $0.name == flag } }
        for tool in [ScanCommandLine.self, TuneCommandLine.self, SoundAlikesCommandLine.self, TrainCommandLine.self] as [any EarsCommand.Type] {
            for flag in ["--device", "--runtime-dir", "--auto-train"] {
                #expect(!takes(tool, flag), "ears \(tool.name) lists \(flag)")
            }
        }
        for flag in ["--spotter-threshold", "--verifier", "--phrase", "--trained-threshold"] {
            #expect(!takes(TrainCommandLine.self, flag) && !takes(SoundAlikesCommandLine.self, flag), "\(flag)")
        }
        #expect(takes(ListenCommandLine.self, "--device") && takes(ListenCommandLine.self, "--auto-train"))
        #expect(takes(ScanCommandLine.self, "--verifier-threshold") && takes(TrainCommandLine.self, "--models-dir"))
        #expect(EarsMain.run(["soundalikes", "hey cordelia", "--device", "hw:7"]) == 64)
    }

    @Test("every command's help has examples, and each example parses with the command's own flags")
    func examplesParse() throws {
        for command in EarsMain.commands {
            #expect(!command.examples.isEmpty, "ears \(command.name) has no example")
            #expect(command.help.contains("examples:"))
            for example in command.examples {
                // The part from `ears` to a pipe or a redirection, split as a shell would split plain words and quotes.
                let words = Self.shellWords(example)
                let start = try #require(words.firstIndex(of: "ears"), "\(example)")
                let end = words[start...].firstIndex { $0 == "|" || $0 == ">" } ?? words.endIndex
                let typed = Array(words[(start + 1)..<end])
                #expect(Array(typed.prefix(command.words.count)) == command.words, "\(example)")
                #expect(throws: Never.self, "\(example)") { _ = try command.parser.parse(Array(typed.dropFirst(command.words.count))) }
            }
        }
    }

    /// Words of a command line: spaces split, double quotes group.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, started = false
        for character in line {
            if character == "\"" { quoted.toggle(); started = true; continue }
            if character == " " && !quoted {
                if started { words.append(current) }
                current = ""; started = false
                continue
            }
            current.append(character); started = true
        }
        if started { words.append(current) }
        return words
    }

    @Test("a client command does not take engine flags")
    func clientsTakeOnlyWhereToLook() {
        #expect(throws: UsageError.self) { try StatusCommandLine.parse(["--engine", "vosk"]) }
        #expect(throws: Never.self) { try StatusCommandLine.parse(["--runtime-dir=/x", "--json"]) }
    }
}

@Suite struct TuneCommandLineTests {
    @Test("tune reads files, repeated --negative files, --plot, --show-text and --json")
    func readsItsFlags() throws {
        let command = try #require(try TuneCommandLine.parse(["a.wav", "--negative", "n1.wav", "b.wav", "--negative=n2.wav",
                                                              "--plot", "out.png", "--show-text", "--json", "--verifier-threshold", "0.6"]))
        #expect(command.options.files == ["a.wav", "b.wav"])
        #expect(command.options.negatives == ["n1.wav", "n2.wav"])
        #expect(command.options.plotPath == "out.png")
        #expect(command.options.showText && command.options.json)
        #expect(command.options.overrides.verifierThreshold == 0.6)
        let plain = try #require(try TuneCommandLine.parse(["a.wav"]))
        #expect(!plain.options.showText && !plain.options.json && plain.options.plotPath == nil)
    }

    @Test("tune needs a file, and its --plot needs a path")
    func refusesNothingToTune() {
        #expect(throws: UsageError(description: "ears tune: give at least one audio file")) { try TuneCommandLine.parse(["--json"]) }
        #expect(throws: UsageError.self) { try TuneCommandLine.parse(["a.wav", "--plot"]) }
        #expect(throws: Never.self) { try TuneCommandLine.parse(["--negative", "n.wav"]) }
    }
}
