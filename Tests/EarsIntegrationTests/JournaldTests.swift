import Foundation
import Testing

/// Log lines for the journal: `<N>` syslog priorities when systemd says the
/// output is the journal (`JOURNAL_STREAM`), today's `level: message` otherwise,
/// and `--verbose`'s debug lines.
@Suite(.serialized) struct JournaldTests {
    /// Runs `ears listen` on a device that does not exist (so a warning is
    /// logged) with `environment` and `flags`; waits for the closed warning,
    /// asks for /ears once, stops it and returns every line it printed.
    private func listenLines(_ dir: String, environment: [String: String], flags: [String] = []) throws -> [String] {
        let config = dir + "/ears.conf"
        try "[wake]\nphrase = hey cordelia\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try EarsDaemon(["listen", "--config", config, "--device", "nosuch", "--runtime-dir", dir + "/run"] + flags,
                                    environment: environment.merging(["ALSA_CONFIG_PATH": "/dev/null"]) { $1 })
        defer { _ = daemon.terminate() }
        try #require(daemon.waitForLine(within: 30) { $0.contains("warning: closed:") } != nil, "\(daemon.output)")
        _ = try curlUnix(dir + "/run/status.sock", "/ears")
        #expect(daemon.terminate() == 0)
        return daemon.output
    }

    @Test("with JOURNAL_STREAM every line carries its priority: <6> info, <4> warning, <5> notice")
    func journalLinesArePrefixed() throws {
        let dir = try scratchDirectory("journald")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = try listenLines(dir, environment: ["JOURNAL_STREAM": "1:1"])
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.range(of: #"^<[3-7]>(error|warning|notice|info|debug): "#, options: .regularExpression) != nil,
                    "unprefixed line: \(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<4>warning: closed: ") }, "\(lines)")
        #expect(lines.contains("<6>info: configuration read from \(dir)/ears.conf"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<6>info: status on ") })
        #expect(lines.contains("<6>info: stopped"))
        // No --verbose: no debug lines.
        #expect(!lines.contains { $0.hasPrefix("<7>") }, "\(lines)")
    }

    @Test("without JOURNAL_STREAM lines are as before, with no prefix")
    func terminalLinesAreUnchanged() throws {
        let dir = try scratchDirectory("journald-off")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = try listenLines(dir, environment: ["JOURNAL_STREAM": ""])
        #expect(lines.contains { $0.hasPrefix("warning: closed: ") }, "\(lines)")
        #expect(lines.contains("info: configuration read from \(dir)/ears.conf"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("<") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("debug: ") })
    }

    @Test("--verbose adds <7> debug lines: the engine's load timings and status socket requests")
    func verboseAddsDebugLines() throws {
        let dir = try scratchDirectory("journald-verbose")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = try listenLines(dir, environment: ["JOURNAL_STREAM": "1:1"], flags: ["--verbose"])
        let debug = lines.filter { $0.hasPrefix("<7>debug: ") }
        #expect(debug.contains { $0.hasPrefix("<7>debug: engine load took ") }, "\(lines)")
        #expect(debug.contains("<7>debug: status socket: \"GET\" \"/ears\""), "\(lines)")
        let quiet = try listenLines(dir, environment: ["JOURNAL_STREAM": ""], flags: ["--verbose"])
        #expect(quiet.contains { $0.hasPrefix("debug: engine load took ") }, "\(quiet)")
    }

    @Test("an error before the log exists (a bad configuration) goes to stderr as <3> under the journal")
    func startupErrorsArePriorityThree() throws {
        let dir = try scratchDirectory("journald-error")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/ears.conf"
        try "[wake]\nnosuch = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
        let journal = try runCommand(earsBinary, ["listen", "--config", config], environment: ["JOURNAL_STREAM": "1:1"])
        #expect(journal.status == 78)
        #expect(journal.stderr.hasPrefix("<3>\(config):2: unknown key"), "\(journal.stderr)")
        let terminal = try runCommand(earsBinary, ["listen", "--config", config], environment: ["JOURNAL_STREAM": ""])
        #expect(terminal.stderr.hasPrefix("\(config):2: unknown key"), "\(terminal.stderr)")
    }

    @Test("listen says when no configuration file exists and it runs on the defaults")
    func listenSaysItRunsOnDefaults() throws {
        // Only where /etc/ears/ears.conf is absent (an installed package puts one there).
        guard !FileManager.default.fileExists(atPath: "/etc/ears/ears.conf") else { return }
        let dir = try scratchDirectory("journald-defaults")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try EarsDaemon(["listen", "--device", "nosuch", "--runtime-dir", dir + "/run"],
                                    environment: ["ALSA_CONFIG_PATH": "/dev/null", "JOURNAL_STREAM": ""])
        defer { _ = daemon.terminate() }
        let line = daemon.waitForLine(within: 10) { $0.contains("configuration") }
        #expect(line == "info: no configuration file at /etc/ears/ears.conf; running on the defaults and the command-line flags",
                "\(daemon.output)")
    }

    @Test("scan --verbose writes debug lines on stderr and leaves stdout to the results")
    func scanVerbose() throws {
        let dir = try scratchDirectory("journald-scan")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia", at: dir + "/call.wav")
        let result = try runCommand(earsBinary, ["scan", "--json", "--verbose", dir + "/call.wav"], environment: ["JOURNAL_STREAM": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("debug: engine pocketsphinx loaded"), "\(result.stderr)")
        #expect(result.stderr.contains("debug: \(dir)/call.wav: 1 wake(s)"), "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{") }, "\(result.stdout)")
        let plain = try runCommand(earsBinary, ["scan", "--json", dir + "/call.wav"], environment: ["JOURNAL_STREAM": ""])
        #expect(!plain.stderr.contains("debug:"), "\(plain.stderr)")
    }
}
