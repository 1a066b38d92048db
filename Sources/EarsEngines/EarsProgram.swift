import EarsCore
import Foundation
#if canImport(Glibc)
import Glibc
import EarsConfig
#endif

/// What every part of the `ears` program shares: its version and exit statuses.
package enum EarsProgram {
    /// The version `--version` prints and `/metrics` reports.
    package static let version = "0.1.0"

    /// Exit statuses, documented in docs/operations.md.
    package enum ExitCode {
        /// Done as asked.
        package static let success: Int32 = 0
        /// Failed; stderr says why.
        package static let failure: Int32 = 1
        /// Bad command line (EX_USAGE).
        package static let usage: Int32 = 64
        /// Bad configuration (EX_CONFIG).
        package static let config: Int32 = ConfigError.exitCode
    }

    /// How log lines (stdout) are written: with `<N>` priorities when the
    /// output is the journal (`JOURNAL_STREAM`, not a terminal), as before otherwise.
    package static let lineFormat = LogLineFormat(environment: ProcessInfo.processInfo.environment,
                                                 outputIsTerminal: isatty(STDOUT_FILENO) == 1)
    /// The same for error lines on stderr.
    package static let errorFormat = LogLineFormat(environment: ProcessInfo.processInfo.environment,
                                                  outputIsTerminal: isatty(STDERR_FILENO) == 1)

    /// Writes an error line to stderr at once; `<3>`-prefixed when stderr
    /// is the journal. Every command's errors go through here.
    @Sendable package static func printError(_ message: String) {
        FileHandle.standardError.write(Data(errorFormat.bare(.error, message).utf8))
    }
}
