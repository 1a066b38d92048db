/// Where ears writes its log lines: passed in, never created deep inside a
/// module. Log lines carry phases, counts, phrases and sentences; never
/// transcript text or audio.
package struct EarsLog: Sendable {
    /// Severity, in journald's sense (`LogLineFormat` maps each to its
    /// syslog priority number).
    package enum Level: String, Sendable, CaseIterable { case debug, info, notice, warning, error }

    private let sink: @Sendable (Level, String) -> Void
    /// Whether `debug` lines reach the sink (`--verbose`).
    package let debugEnabled: Bool

    /// Makes a log writing each line to `sink`; `debug` lines only when
    /// `debugEnabled` (their text is then not even built otherwise).
    package init(debugEnabled: Bool = false, sink: @escaping @Sendable (Level, String) -> Void) {
        self.debugEnabled = debugEnabled
        self.sink = sink
    }

    /// A log that drops everything (tests, `scan --json`).
    package static let silent = EarsLog { _, _ in }

    /// A detail for someone diagnosing ears (`--verbose`): timings,
    /// decisions, connections. Never transcript text.
    package func debug(_ message: @autoclosure () -> String) {
        if debugEnabled { sink(.debug, message()) }
    }
    package func info(_ message: String) { sink(.info, message) }
    package func notice(_ message: String) { sink(.notice, message) }
    package func warning(_ message: String) { sink(.warning, message) }
    package func error(_ message: String) { sink(.error, message) }
}
