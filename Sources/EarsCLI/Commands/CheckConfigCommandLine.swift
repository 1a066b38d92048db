import EarsCore
import EarsALSA
import EarsDaemon
import EarsEngines

/// `ears check-config`: reads the configuration, checks it as `listen` would
/// (`ConfigValidation`), and reports.
struct CheckConfigCommandLine: EarsCommand {
    static let words = ["check-config"]
    static let operands = ""
    static let summary = """
    Read the configuration and the flags, check them against this machine as listen
    would (device, directories, hooks, groups), and say what is wrong with file:line.
    """
    static let flags = ConfigFlags.all
    static let examples = ["ears check-config", "ears check-config --config ./ears.conf --device hw:1"]

    /// The flags read.
    let overrides: ConfigOverrides

    init(_ parsed: ParsedArguments) throws(UsageError) {
        try rejectOperands(parsed, command: Self.name)
        overrides = try ConfigFlags.overrides(from: parsed)
    }

    func run() -> Int32 {
        var deviceNote = ""
        let probe: (String) -> String? = { device in
            switch AlsaDeviceProbe.probe(device) {
            case .opens: deviceNote = " (it opens)"; return nil
            case .busy: deviceNote = " (in use by another program, perhaps ears listen: not opened to check)"; return nil
            case .fails(let sentence): return sentence
            }
        }
        guard let config = EarsMain.loadCheckedConfig(overrides, deviceProblem: probe) else { return EarsProgram.ExitCode.config }
        let phrases = config.phrases.map { "\"\($0.text)\"" }.joined(separator: ", ")
        EarsMain.say("configuration OK: engine \(config.engine.rawValue), device \(config.device)\(deviceNote), phrases \(phrases)")
        return EarsProgram.ExitCode.success
    }
}
