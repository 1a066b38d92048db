import EarsDaemon
import EarsWyoming
import EarsEngines

/// `ears follow [--wav]`: the running daemon's listen socket (`FollowCommand`).
struct FollowCommandLine: EarsCommand {
    static let words = ["follow"]
    static let operands = ""
    static let summary = """
    Print the events the running daemon hands to consumers on listen.sock, one line
    each and never audio content; --wav writes each capture to stdout as a WAV file.
    Finds the daemon as ears status does.
    """
    static let flags = [FlagSpec("--wav", "captures as WAV files on stdout instead of event lines")] + ConfigFlags.client
    static let examples = ["ears follow", "ears follow --wav > capture.wav"]

    /// Where to look.
    let overrides: ConfigOverrides
    /// `--wav`.
    let wav: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        try rejectOperands(parsed, command: Self.name)
        overrides = try ConfigFlags.overrides(from: parsed)
        wav = parsed.has("--wav")
    }

    func run() -> Int32 {
        guard let places = EarsMain.searchPlaces(overrides) else { return EarsProgram.ExitCode.config }
        // The status socket says which daemon answers; its listen socket sits beside it.
        switch ServiceSearch.ask(places, path: "/ears") {
        case let .failure(failure):
            EarsProgram.printError("ears follow: \(failure.description)")
            return EarsProgram.ExitCode.failure
        case let .success(answer):
            let socketPath = WyomingServer.socketPath(runtimeDirectory: answer.place.directory)
            return FollowCommand.run(socketPath: socketPath, wav: wav, output: EarsMain.say, errors: EarsProgram.printError)
        }
    }
}
