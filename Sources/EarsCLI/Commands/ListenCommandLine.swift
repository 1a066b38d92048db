import EarsCore
import EarsDaemon
import EarsConfig
import EarsEngines

/// `ears listen [--input FILE] [--verbose] [--uri URI]...`: the daemon (`ListenDaemon`).
struct ListenCommandLine: EarsCommand {
    static let words = ["listen"]
    static let operands = ""
    static let summary = """
    Listen on the microphone (or a sound file paced at real time) and wake on the
    configured phrases; serve status.sock and listen.sock. The ears service runs this.
    SIGHUP re-reads the configuration; SIGTERM or SIGINT stops.
    """
    static let flags = [
        FlagSpec("--input", "FILE", "a sound file played at real time instead of the microphone"),
        FlagSpec("--verbose", "debug lines too (timings, decisions, connections; never transcript text)"),
        FlagSpec("--uri", "URI", "serve Wyoming wake streams on tcp://HOST:PORT or unix:///PATH (repeatable; replaces [wyoming] uri)"),
    ] + ConfigFlags.all
    static let examples = ["ears listen --phrase \"hey cordelia\"", "ears listen --input call.wav --verbose"]

    /// The flags read.
    let options: ListenOptions

    init(_ parsed: ParsedArguments) throws(UsageError) {
        try rejectOperands(parsed, command: Self.name)
        var options = ListenOptions()
        options.overrides = try ConfigFlags.overrides(from: parsed)
        options.inputFile = parsed.value("--input")
        options.verbose = parsed.has("--verbose")
        options.overrides.wyomingURIs = try parsed.values("--uri").map { (text: String) throws(UsageError) -> ServiceURI in
            try Self.uri(text)
        }
        self.options = options
    }

    func run() -> Int32 {
        if let input = options.inputFile, let refusal = InputKind(path: input).listenRefusal(path: input) {
            EarsProgram.printError(refusal)
            return EarsProgram.ExitCode.usage
        }
        guard let config = EarsMain.loadCheckedConfig(options.overrides) else { return EarsProgram.ExitCode.config }
        return ListenDaemon.run(options, config: config)
    }

    /// A `--uri` value, or the parser's sentence as a usage error.
    static func uri(_ text: String) throws(UsageError) -> ServiceURI {
        do throws(ServiceURI.ParseError) {
            return try ServiceURI(parsing: text)
        } catch {
            throw UsageError(description: "ears listen: --uri \(ConfigLines.quoted(text)): \(error.sentence)")
        }
    }
}
