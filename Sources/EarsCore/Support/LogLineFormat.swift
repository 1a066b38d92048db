/// How a log line is written out: `level: message` for a person at a
/// terminal, or with an sd-daemon(3) priority prefix (`<4>warning: …`) when
/// stdout/stderr is the journal, so `journalctl -p warning` can filter.
///
/// systemd sets `JOURNAL_STREAM` for a service whose output goes to the
/// journal (systemd.exec(5)); journald reads a leading `<N>` on each line as
/// that line's syslog priority and strips it. The level word stays in the
/// text, so `journalctl -o cat` and greps for `warning:` still read the same.
/// Pure: the environment is passed in, so it is unit-tested without systemd.
package struct LogLineFormat: Sendable, Equatable {
    /// Whether lines carry `<N>` priority prefixes.
    package var journald: Bool

    /// A format with (`journald`) or without priority prefixes.
    package init(journald: Bool) {
        self.journald = journald
    }

    /// The format for a process whose environment is `environment`:
    /// prefixed when `JOURNAL_STREAM` is set and not empty, unless the output
    /// is a terminal. A shell started by a program that systemd runs (a
    /// terminal emulator launched as a user service) inherits
    /// `JOURNAL_STREAM` while writing to a terminal; there the prefixes would
    /// only be noise, and journald never reads a terminal.
    package init(environment: [String: String], outputIsTerminal: Bool = false) {
        journald = !(environment["JOURNAL_STREAM"] ?? "").isEmpty && !outputIsTerminal
    }

    /// The syslog priority of `level` (syslog(3), sd-daemon's `SD_ERR` … `SD_DEBUG`):
    /// 3 error, 4 warning, 5 notice, 6 info, 7 debug.
    package static func priority(of level: EarsLog.Level) -> Int {
        switch level {
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug: 7
        }
    }

    /// The text to write for one log call, newline-terminated. A message of
    /// several lines (a list of configuration problems) is written with the
    /// prefix on every line, because journald makes each line its own entry
    /// and would give an unprefixed one the default priority (info).
    package func text(_ level: EarsLog.Level, _ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        guard journald else { return "\(level.rawValue): " + lines.joined(separator: "\n") + "\n" }
        let prefix = "<\(Self.priority(of: level))>"
        return lines.enumerated().map { index, line in
            prefix + (index == 0 ? "\(level.rawValue): " : "") + line + "\n"
        }.joined()
    }

    /// The text for a line written without a level word (a command's own
    /// error message before the log exists, e.g. a bad configuration at
    /// start): unchanged at a terminal, `<N>`-prefixed on every line for the journal.
    package func bare(_ level: EarsLog.Level, _ message: String) -> String {
        guard journald else { return message + "\n" }
        let prefix = "<\(Self.priority(of: level))>"
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 + "\n" }.joined()
    }
}
