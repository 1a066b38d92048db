/// Where ears writes its log lines: passed in, never created deep inside a
/// module. Log lines carry phases, counts, phrases and sentences; never
/// transcript text or audio.
public struct EarsLog: Sendable {
    /// Severity, in journald's sense.
    public enum Level: String, Sendable { case debug, info, notice, warning, error }

    private let sink: @Sendable (Level, String) -> Void

    /// Makes a log writing each line to `sink`.
    public init(sink: @escaping @Sendable (Level, String) -> Void) {
        self.sink = sink
    }

    /// A log that drops everything (tests, `scan --json`).
    public static let silent = EarsLog { _, _ in }

    public func info(_ message: String) { sink(.info, message) }
    public func notice(_ message: String) { sink(.notice, message) }
    public func warning(_ message: String) { sink(.warning, message) }
    public func error(_ message: String) { sink(.error, message) }
}
