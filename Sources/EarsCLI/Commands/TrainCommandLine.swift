import EarsCore
import EarsDaemon
import EarsPhonetics
import EarsConfig
import EarsEngines
import EarsTools

/// `ears train PHRASE [--minutes N] [--voices LIST] [--seed N] [--language en|ko]` (`TrainCommand`).
struct TrainCommandLine: EarsCommand {
    static let words = ["train"]
    static let operands = "PHRASE"
    static let summary = """
    Build PHRASE's neural model from synthesized speech (flite, festival, espeak-ng)
    and write it to the models directory, where listen and scan find it.
    """
    /// `--minutes`: the budgets a plan can be sized for.
    static let minutesRange: ClosedRange<Double> = 0.1...120
    /// `--language`: the languages training has voices and rules for.
    static let languages = ["en", "ko"]
    static let flags = [
        FlagSpec("--minutes", "N", "the wall-time budget, \(ConfigParser.words(minutesRange)) (default \(Int(TrainOptions.defaultMinutes)))"),
        FlagSpec("--voices", "LIST", "comma-separated voice ids or engines (e.g. flite,espeak); default every installed voice"),
        FlagSpec("--seed", "N", "the random seed, a whole number from 0 (default 1)"),
        FlagSpec("--language", "en|ko", "the phrase's language (default: guessed from its script)"),
        FlagSpec("--use-anyway", "use the model even if the acoustic route hears more of the held-out calls (default: keep it aside, exit 3; the comparison is still shown)"),
        FlagSpec("--idle", "run at idle priority (SCHED_IDLE, nice 19), as the daemon's background training does"),
        FlagSpec("--progress", "bar|lines", "progress on stderr: a bar or plain lines (default, by terminal), or lines of 'progress FRACTION SECONDS_LEFT' for a program"),
    ] + ConfigFlags.only(["--config", "--model", "--models-dir"])
    static let examples = ["ears train \"hey cordelia\"", "ears train \"코델리아 피파\" --language ko --minutes 5"]

    /// The phrase and flags read.
    let options: TrainOptions

    init(_ parsed: ParsedArguments) throws(UsageError) {
        var options = TrainOptions()
        options.overrides = try ConfigFlags.overrides(from: parsed)
        if let minutes = parsed.value("--minutes") {
            options.minutes = try FlagValue.number("--minutes", minutes, in: Self.minutesRange)
        }
        if let voices = parsed.value("--voices") {
            options.voices = voices.split(separator: ",").map { String($0).filter { !$0.isWhitespace } }.filter { !$0.isEmpty }
        }
        if let text = parsed.value("--seed") {
            guard let seed = UInt64(text) else { throw UsageError(description: "ears train: --seed \(text) is not a whole number from 0") }
            options.seed = seed
        }
        if let language = parsed.value("--language") {
            guard Self.languages.contains(language) else {
                throw UsageError(description: "ears train: --language \(language) is not known; allowed: \(Self.languages.joined(separator: ", "))")
            }
            options.language = language
        }
        options.idle = parsed.has("--idle")
        options.useAnyway = parsed.has("--use-anyway")
        if let progress = parsed.value("--progress") {
            guard ["bar", "lines"].contains(progress) else {
                throw UsageError(description: "ears train: --progress \(progress) is not known; allowed: bar, lines")
            }
            options.progressLines = progress == "lines"
        }
        options.phrase = parsed.operands.joined(separator: " ")
        guard !LetterMatcher.letters(options.phrase).isEmpty else {
            throw UsageError(description: "ears train: give a phrase with letters, e.g. ears train \"hey cordelia\"")
        }
        self.options = options
    }

    func run() -> Int32 {
        guard let config = EarsMain.loadConfig(options.overrides) else { return EarsProgram.ExitCode.config }
        return TrainCommand.run(options, config: config, output: EarsMain.say, errors: EarsProgram.printError)
    }
}
