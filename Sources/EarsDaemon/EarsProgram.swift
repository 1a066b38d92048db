import EarsCore

/// What every part of the `ears` program shares: its version and exit statuses.
public enum EarsProgram {
    /// The version `--version` prints and `/metrics` reports.
    public static let version = "0.1.0"

    /// Exit statuses, documented in docs/operations.md.
    public enum ExitCode {
        /// Done as asked.
        public static let success: Int32 = 0
        /// Failed; stderr says why.
        public static let failure: Int32 = 1
        /// Bad command line (EX_USAGE).
        public static let usage: Int32 = 64
        /// Bad configuration (EX_CONFIG).
        public static let config: Int32 = ConfigError.exitCode
    }
}
