import EarsDaemon
import EarsEngines

/// `ears tap`: starts a capture in the running daemon as if its phrase were called.
struct TapCommandLine: EarsCommand {
    static let words = ["tap"]
    static let operands = ""
    static let summary = """
    Start a capture in the running daemon as if its phrase were heard (POST /tap),
    to test what consumes captures. Finds the daemon as ears status does.
    """
    static let flags = ConfigFlags.client
    static let examples = ["ears tap"]

    /// Where to look.
    let overrides: ConfigOverrides

    init(_ parsed: ParsedArguments) throws(UsageError) {
        try rejectOperands(parsed, command: Self.name)
        overrides = try ConfigFlags.overrides(from: parsed)
    }

    func run() -> Int32 {
        guard let places = EarsMain.searchPlaces(overrides) else { return EarsProgram.ExitCode.config }
        switch ServiceSearch.ask(places, path: "/tap", method: "POST") {
        case let .failure(failure):
            EarsProgram.printError("ears tap: \(failure.description)")
            return EarsProgram.ExitCode.failure
        case let .success(answer):
            EarsMain.say(answer.status == 202 ? "tap: a capture starts now" : "tap: the daemon answered \(answer.status)")
            return answer.status == 202 ? EarsProgram.ExitCode.success : EarsProgram.ExitCode.failure
        }
    }
}
