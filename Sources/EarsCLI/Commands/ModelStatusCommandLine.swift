import EarsCore
import EarsTools
import EarsDaemon
import EarsEngines

/// `ears model status [--json]`: which engines' models are installed (`ModelStatusCommand`).
struct ModelStatusCommandLine: EarsCommand {
    static let words = ["model", "status"]
    static let operands = ""
    static let summary = """
    Say which engines' models and which phrases' trained models are installed, and
    how to install what is missing.
    """
    static let flags = [FlagSpec("--json", "one JSON object instead of text")] + ConfigFlags.only(["--config", "--phrase", "--engine", "--model", "--trained-models", "--models-dir"])
    static let examples = ["ears model status", "ears model status --json"]

    /// The flags read.
    let overrides: ConfigOverrides
    /// `--json`.
    let json: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        try rejectOperands(parsed, command: Self.name)
        overrides = try ConfigFlags.overrides(from: parsed)
        json = parsed.has("--json")
    }

    func run() -> Int32 {
        guard let config = EarsMain.loadConfig(overrides) else { return EarsProgram.ExitCode.config }
        return ModelStatusCommand.run(config: config, json: json, output: EarsMain.say)
    }
}
