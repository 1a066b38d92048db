import EarsCore
import EarsTools
import EarsDaemon
import EarsPhonetics
import EarsEngines

/// `ears soundalikes PHRASE [--json] [--count N]` (`SoundAlikesCommand`).
struct SoundAlikesCommandLine: EarsCommand {
    static let words = ["soundalikes"]
    static let operands = "PHRASE"
    static let summary = """
    Print texts that sound like PHRASE without being it, one a line, to synthesize
    and scan as negatives. Several operands are joined with spaces.
    """
    /// The most sound-alikes `--count` asks for.
    static let maximumCount = 1000
    static let flags = [
        FlagSpec("--json", "one JSON object a line (text, phones, cost, kind)"),
        FlagSpec("--count", "N", "at most N neighbours, 0 to \(maximumCount) (default \(SoundAlikeGenerator.defaultCount))"),
    ] + ConfigFlags.only(["--config", "--engine", "--model"])
    static let examples = ["ears soundalikes \"hey cordelia\" --count 20"]

    /// The phrase and flags read.
    let options: SoundAlikesOptions

    init(_ parsed: ParsedArguments) throws(UsageError) {
        var options = SoundAlikesOptions()
        options.overrides = try ConfigFlags.overrides(from: parsed)
        options.json = parsed.has("--json")
        if let count = parsed.value("--count") {
            options.count = try FlagValue.whole("--count", count, in: 0...Self.maximumCount)
        }
        options.phrase = parsed.operands.joined(separator: " ")
        guard !LetterMatcher.letters(options.phrase).isEmpty else {
            throw UsageError(description: "ears soundalikes: give a phrase with letters, e.g. ears soundalikes \"hey cordelia\"")
        }
        self.options = options
    }

    func run() -> Int32 {
        guard let config = EarsMain.loadConfig(options.overrides) else { return EarsProgram.ExitCode.config }
        return SoundAlikesCommand.run(options, config: config, output: EarsMain.say)
    }
}
