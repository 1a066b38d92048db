/// What went wrong while synthesizing or augmenting; every case says what to do.
package enum SynthError: Error, Equatable, Sendable {
    /// A program is not installed; `package` is the Debian package that has it.
    case toolMissing(command: String, package: String)
    /// A program ran and failed (nonzero exit or killed by a signal).
    case toolFailed(command: String, status: Int32, package: String)
    /// A program's output was not the audio expected (a truncated or foreign WAV).
    case badAudio(command: String, detail: String)
    /// The private temporary directory could not be made or used.
    case temporaryDirectory(path: String, errno: Int32)
    /// The caller's cancellation check said stop.
    case cancelled

    /// One sentence for the log and the terminal (never the text being said).
    package var sentence: String {
        switch self {
        case let .toolMissing(command, package):
            "\(command) is not installed; run sudo apt-get install \(package) (or make setup)."
        case let .toolFailed(command, status, package):
            "\(command) failed with status \(status); check that the Debian package \(package) is installed and works (run it by hand), or leave its voices out."
        case let .badAudio(command, detail):
            "\(command) gave audio ears cannot read (\(detail)); reinstall it with sudo apt-get install --reinstall \(command == "sox" ? "sox" : command)."
        case let .temporaryDirectory(path, code):
            "Cannot use the private temporary directory \(path) (errno \(code)); check that TMPDIR (or /tmp) exists and is writable."
        case .cancelled:
            "Synthesis was cancelled; nothing was kept."
        }
    }
}
