import EarsCore
import EarsDaemon
import Glibc
import EarsEngines

/// `ears status [--json]`: the running daemon's meters (`GET /ears`), found
/// by `ServiceSearch`.
struct StatusCommandLine: EarsCommand {
    static let words = ["status"]
    static let operands = ""
    static let summary = """
    Print the running daemon's phase and meters: a table on a terminal, the JSON of
    GET /ears with --json or when the output is a pipe or file. Looks in --runtime-dir,
    else runtime_directory, $RUNTIME_DIRECTORY, /run/ears, $XDG_RUNTIME_DIR/ears and
    /tmp/ears-<uid>, and takes the first daemon that answers.
    """
    static let flags = [FlagSpec("--json", "the report as JSON even on a terminal")] + ConfigFlags.client
    static let examples = ["ears status", "ears status --json"]

    /// Where to look.
    let overrides: ConfigOverrides
    /// `--json`.
    let json: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        try rejectOperands(parsed, command: Self.name)
        overrides = try ConfigFlags.overrides(from: parsed)
        json = parsed.has("--json")
    }

    func run() -> Int32 {
        guard let places = EarsMain.searchPlaces(overrides) else { return EarsProgram.ExitCode.config }
        switch ServiceSearch.ask(places, path: "/ears") {
        case let .failure(failure):
            EarsProgram.printError("ears status: \(failure.description)")
            return EarsProgram.ExitCode.failure
        case let .success(answer):
            // Scripts read the JSON: a pipe or file gets it unless a person is looking.
            let table = json || isatty(STDOUT_FILENO) == 0 ? nil : StatusTable.render(answer.body, from: answer.place)
            EarsMain.say(table ?? answer.body)
            return answer.status == 200 ? EarsProgram.ExitCode.success : EarsProgram.ExitCode.failure
        }
    }
}
