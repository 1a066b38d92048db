import Testing
@testable import EarsCore

/// Log lines for a terminal and for the journal (`JOURNAL_STREAM`).
@Suite struct LogLineFormatTests {
    @Test("each level maps to its syslog priority, sd-daemon style")
    func prioritiesFollowSyslog() {
        let expected: [EarsLog.Level: Int] = [.error: 3, .warning: 4, .notice: 5, .info: 6, .debug: 7]
        for level in EarsLog.Level.allCases {
            #expect(LogLineFormat.priority(of: level) == expected[level])
        }
    }

    @Test("JOURNAL_STREAM set turns prefixes on; unset or empty leaves today's format")
    func environmentDecides() {
        #expect(LogLineFormat(environment: ["JOURNAL_STREAM": "8:12345"]).journald)
        #expect(!LogLineFormat(environment: [:]).journald)
        #expect(!LogLineFormat(environment: ["JOURNAL_STREAM": ""]).journald)
        #expect(!LogLineFormat(environment: ["INVOCATION_ID": "abc"]).journald)
        // Inherited into a terminal (a shell under a terminal emulator that systemd runs): no prefixes.
        #expect(!LogLineFormat(environment: ["JOURNAL_STREAM": "8:12345"], outputIsTerminal: true).journald)
    }

    @Test("without the journal a line is 'level: message', as before")
    func terminalFormatIsUnchanged() {
        let format = LogLineFormat(journald: false)
        #expect(format.text(.info, "stopped") == "info: stopped\n")
        #expect(format.text(.warning, "closed: no device") == "warning: closed: no device\n")
        #expect(format.bare(.error, "ears: cannot serve") == "ears: cannot serve\n")
    }

    @Test("for the journal every line starts with <N> and keeps the level word")
    func journalLinesArePrefixed() {
        let format = LogLineFormat(journald: true)
        #expect(format.text(.error, "reload refused") == "<3>error: reload refused\n")
        #expect(format.text(.warning, "closed: no device") == "<4>warning: closed: no device\n")
        #expect(format.text(.notice, "wake") == "<5>notice: wake\n")
        #expect(format.text(.info, "stopped") == "<6>info: stopped\n")
        #expect(format.text(.debug, "engine loaded") == "<7>debug: engine loaded\n")
    }

    @Test("a message of several lines is prefixed on each line, so none falls back to info")
    func multiLineMessagesArePrefixedPerLine() {
        let format = LogLineFormat(journald: true)
        #expect(format.text(.error, "a.conf:2: bad\na.conf:5: worse") == "<3>error: a.conf:2: bad\n<3>a.conf:5: worse\n")
        #expect(format.bare(.error, "a.conf:2: bad\na.conf:5: worse") == "<3>a.conf:2: bad\n<3>a.conf:5: worse\n")
        #expect(LogLineFormat(journald: false).text(.error, "one\ntwo") == "error: one\ntwo\n")
    }

    @Test("debug lines reach the sink only when enabled, and their text is not built otherwise")
    func debugIsGated() {
        let seen = LineCollector()
        let quiet = EarsLog { level, message in seen.add("\(level.rawValue) \(message)") }
        var built = false
        quiet.debug({ built = true; return "hidden" }())
        quiet.info("shown")
        #expect(!built)
        let verbose = EarsLog(debugEnabled: true) { level, message in seen.add("\(level.rawValue) \(message)") }
        verbose.debug("detail")
        #expect(seen.lines == ["info shown", "debug detail"])
    }
}

/// Lines a test log received, in order.
private final class LineCollector: @unchecked Sendable {
    // @unchecked: the test calls the log on one thread.
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}
