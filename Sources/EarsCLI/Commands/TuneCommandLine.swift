import EarsCore
import EarsDaemon
import EarsEngines
import EarsTools

/// `ears tune FILE... [--negative FILE]... [--plot PNG] [--show-text] [--json]`:
/// best scores, a sweep of the deciding threshold and a suggestion (`TuneCommand`).
struct TuneCommandLine: EarsCommand {
    static let words = ["tune"]
    static let operands = "FILE..."
    static let summary = """
    For each file and phrase, the best score and where, and whether it woke at the
    threshold in force; then a sweep of the deciding threshold (0.30 to 0.95: phrase
    files woken, false wakes on the --negative files) and the threshold that separates
    them with the most margin. Decides exactly as ears scan does. No words heard are
    printed unless --show-text.
    """
    static let flags = [
        FlagSpec("--negative", "FILE", "a file that must not wake (repeat for each)"),
        FlagSpec("--plot", "PNG", "draw each file's scores over time with the threshold (gnuplot)"),
        FlagSpec("--show-text", "also print what the engine heard in each file (your own recordings only)"),
        FlagSpec("--json", "JSON lines instead of a table"),
    ] + ConfigFlags.hearing
    static let examples = ["ears tune --phrase \"hey cordelia\" calls/*.wav --negative chatter.wav --plot tune.png"]

    /// The flags and files read.
    let options: TuneOptions

    init(_ parsed: ParsedArguments) throws(UsageError) {
        var options = TuneOptions()
        options.overrides = try ConfigFlags.overrides(from: parsed)
        options.negatives = parsed.values("--negative")
        options.plotPath = parsed.value("--plot")
        options.showText = parsed.has("--show-text")
        options.json = parsed.has("--json")
        options.files = parsed.operands
        guard !options.files.isEmpty || !options.negatives.isEmpty else {
            throw UsageError(description: "ears tune: give at least one audio file")
        }
        self.options = options
    }

    func run() -> Int32 {
        guard let config = EarsMain.loadConfig(options.overrides) else { return EarsProgram.ExitCode.config }
        return TuneCommand.run(options, config: config, output: EarsMain.say, errors: EarsProgram.printError)
    }
}
