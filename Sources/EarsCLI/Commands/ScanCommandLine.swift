import EarsCore
import EarsDaemon
import Foundation
import EarsEngines
import EarsTools

/// `ears scan FILE... [--json] [--candidates]`: the ear over files (`ScanCommand`).
struct ScanCommandLine: EarsCommand {
    static let words = ["scan"]
    static let operands = "FILE..."
    static let summary = """
    Run the listening ear over sound files as fast as the CPU allows and print each
    wake. - reads standard input (WAV or raw S16_LE 16 kHz mono); a FIFO is read as a stream.
    """
    static let flags = [
        FlagSpec("--json", "one JSON line per wake and a summary line"),
        FlagSpec("--candidates", "also one JSON line per verified candidate (implies --json)"),
        FlagSpec("--verbose", "debug lines on stderr (engine load timings, per-file progress)"),
    ] + ConfigFlags.hearing
    static let examples = ["ears scan --phrase \"hey cordelia\" call.wav", "sox talk.mp3 -t wav -r 16000 -c 1 -b 16 - | ears scan --json -"]

    /// The flags and files read.
    let options: ScanOptions

    init(_ parsed: ParsedArguments) throws(UsageError) {
        var options = ScanOptions()
        options.overrides = try ConfigFlags.overrides(from: parsed)
        options.candidates = parsed.has("--candidates")
        options.json = parsed.has("--json") || options.candidates
        options.verbose = parsed.has("--verbose")
        options.files = parsed.operands
        guard !options.files.isEmpty else { throw UsageError(description: "ears scan: give at least one audio file") }
        self.options = options
    }

    func run() -> Int32 {
        guard let config = EarsMain.loadConfig(options.overrides) else { return EarsProgram.ExitCode.config }
        let format = EarsProgram.errorFormat
        let log = EarsLog(debugEnabled: options.verbose) { level, message in
            FileHandle.standardError.write(Data(format.text(level, message).utf8))
        }
        return ScanCommand.run(options, config: config, output: EarsMain.say, errors: EarsProgram.printError, log: log)
    }
}
