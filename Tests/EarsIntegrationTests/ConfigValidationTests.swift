import Foundation
import Testing

/// What `ears check-config` passes, `ears listen` starts with, and the other
/// way round: both (and a SIGHUP reload) refuse the same files, with exit
/// status 78 and the sentence at the key's file:line.
@Suite struct ConfigValidationTests {
    /// A config that parses but cannot run on this machine, and what the refusal must say.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var config: @Sendable (String) -> String
        var line: Int
        var sentence: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing socket group", config: { _ in "[audio]\ndevice = default\n[listen]\nsocket_group = ears-no-such-group\n" },
             line: 4, sentence: "[listen] socket_group 'ears-no-such-group' is not a group on this machine; create it (groupadd)"),
        Case(name: "missing model directory", config: { dir in "[engine]\n\nmodel = \(dir)/no-model\n" },
             line: 3, sentence: "/no-model' does not exist; point it at the engine's model directory"),
        Case(name: "on_wake not executable", config: { dir in "[capture]\non_wake = \(dir)/hook.sh\n" },
             line: 2, sentence: "/hook.sh' is not executable by this user"),
    ]

    /// Writes `<dir>/ears.conf` for `testCase`, and a non-executable hook beside it.
    private func write(_ testCase: Case, in dir: String) throws -> String {
        try "#!/bin/sh\nexit 0\n".write(toFile: dir + "/hook.sh", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir + "/hook.sh")
        let path = dir + "/ears.conf"
        try testCase.config(dir).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("check-config refuses what listen would refuse, with 78 and the sentence at file:line", arguments: cases)
    func checkConfigRefuses(_ testCase: Case) throws {
        let dir = try scratchDirectory("validate-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try write(testCase, in: dir)
        let result = try runCommand(earsBinary, ["check-config", "--config", path])
        #expect(result.status == 78, "\(result.stdout)")
        #expect(result.stderr.contains("\(path):\(testCase.line): "), "\(result.stderr)")
        #expect(result.stderr.contains(testCase.sentence), "\(result.stderr)")
    }

    @Test("check-config lists every problem of a file in one run, each at its file:line, with the key it nearly is")
    func everyProblemInOneRun() throws {
        let dir = try scratchDirectory("validate-all")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ears.conf"
        try "[wake]\ntrainde_models = on\n[capture]\nmax_seconds = 900\n[listen]\nsocket_group = ears-no-such-group\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runCommand(earsBinary, ["check-config", "--config", path])
        #expect(result.status == 78)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix(path + ":") }
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(result.stderr.contains("\(path):2: unknown key 'trainde_models' in [wake]; did you mean 'trained_models'?"))
        #expect(result.stderr.contains("\(path):4: bad value '900' for max_seconds"))
        #expect(result.stderr.contains("\(path):6: [listen] socket_group 'ears-no-such-group' is not a group"))
    }

    @Test("check-config opens the device it is given: a missing one is a problem with ALSA's reason, one that opens is said to")
    func checksTheDevice() throws {
        let dir = try scratchDirectory("validate-device")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // alsa-lib with only a `null` capture PCM named mic: it opens at any rate, and there is no card 7.
        try "pcm.mic { type null }\n".write(toFile: dir + "/asound.conf", atomically: true, encoding: .utf8)
        let environment = ["ALSA_CONFIG_PATH": dir + "/asound.conf"]
        let missing = try runCommand(earsBinary, ["check-config", "--config", "/dev/null", "--device", "hw:7"], environment: environment)
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("--device: device 'hw:7' does not open here: "), "\(missing.stderr)")
        let present = try runCommand(earsBinary, ["check-config", "--config", "/dev/null", "--device", "mic"], environment: environment)
        #expect(present.status == 0, "\(present.stderr)")
        #expect(present.stdout.contains("device mic (it opens)"))
        // Without a device named, nothing is opened (a machine without a card still checks its file).
        let unnamed = try runCommand(earsBinary, ["check-config", "--config", "/dev/null"], environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        #expect(unnamed.status == 0 && !unnamed.stdout.contains("opens"))
    }

    /// Runs `ears arguments` (no microphone) for at most 10 s: the exit
    /// status, or nil when it was still running (a listen that started), and
    /// everything it printed.
    private func runBounded(_ arguments: [String]) throws -> (status: Int32?, output: String) {
        let daemon = try EarsDaemon(arguments, environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        let deadline = Date().addingTimeInterval(10)
        while daemon.process.isRunning && Date() < deadline { usleep(20_000) }
        let status: Int32? = daemon.process.isRunning ? nil : daemon.process.terminationStatus
        _ = daemon.terminate()
        // The output handler may still be draining the pipe after exit.
        usleep(100_000)
        return (status, daemon.output.joined(separator: "\n"))
    }

    @Test("listen refuses the same files at start, the same way", arguments: cases)
    func listenRefuses(_ testCase: Case) throws {
        let dir = try scratchDirectory("validate-listen")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try write(testCase, in: dir)
        let (status, output) = try runBounded(["listen", "--config", path, "--device", "nosuch", "--runtime-dir", dir + "/run"])
        #expect(status == 78, "listen started with a configuration check-config refuses: \(output)")
        #expect(output.hasPrefix("\(path):\(testCase.line): ") && output.contains(testCase.sentence), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/run/status.sock"), "listen opened its sockets before refusing")
    }

    @Test("a SIGHUP reload to an on_wake that is not executable is refused with its sentence; the daemon stays up")
    func reloadRefusesANonExecutableHook() throws {
        let dir = try scratchDirectory("validate-reload")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ears.conf"
        try "[wake]\nphrase = hey cordelia\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try EarsDaemon(["listen", "--config", path, "--device", "nosuch", "--runtime-dir", dir + "/run"],
                                    environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        defer { _ = daemon.terminate() }
        try #require(waitForStatus(dir + "/run/status.sock", within: 10) { $0["phase"] as? String == "closed" } != nil, "\(daemon.output)")

        _ = try write(Self.cases[2], in: dir)
        kill(daemon.process.processIdentifier, SIGHUP)
        let refused = daemon.waitForLine(within: 5) { $0.contains("reload refused") }
        let line = try #require(refused, "no refusal: \(daemon.output)")
        #expect(line.contains("\(path):2: [capture] on_wake"), "\(line)")
        #expect(line.contains("is not executable by this user"), "\(line)")
        #expect(daemon.process.isRunning)
    }

    @Test("the CRLF file from issue 12 sets its phrase instead of being one long comment")
    func crlfFileIsRead() throws {
        let dir = try scratchDirectory("validate-crlf")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ears.conf"
        try Data("# c\r\n[wake]\r\nphrase = hey pippa\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try runCommand(earsBinary, ["check-config", "--config", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("phrases \"hey pippa\""), "\(result.stdout)")
    }

    @Test("a 2 MB file, a 65th phrase and a 1 MB value are refused with 78 and a short line", arguments: [
        ("big", String(repeating: "# padding\n", count: 200_000), 0, "may have at most 1048576 bytes (1 MiB) and the file is 2000000 bytes"),
        ("phrases", "[wake]\n" + (1...65).map { "phrase = hey word\($0)\n" }.joined(), 66, "this makes 65 phrases and aliases; at most 64 are allowed"),
        ("value", "[wake]\nrefractory_seconds = " + String(repeating: "9", count: 1_000_000) + "\n", 2, "…' (1000000 characters) for refractory_seconds"),
    ])
    func oversizedInputIsRefused(name: String, text: String, line: Int, sentence: String) throws {
        let dir = try scratchDirectory("validate-\(name)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ears.conf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["check-config", "listen"] {
            let (status, output) = try runBounded([command, "--config", path, "--device", "nosuch", "--runtime-dir", dir + "/run"])
            #expect(status == 78, "\(command): \(String(describing: status))")
            #expect(output.hasPrefix(line > 0 ? "\(path):\(line): " : "\(path): "), "\(output.prefix(300))")
            #expect(output.contains(sentence), "\(output.prefix(300))")
            #expect(output.utf8.count < 1_000, "a \(output.utf8.count)-byte error line")
        }
    }

    @Test("65 --phrase flags are refused like 65 phrase lines")
    func tooManyPhraseFlags() throws {
        let result = try runCommand(earsBinary, ["check-config", "--config", "/dev/null"] + (1...65).flatMap { ["--phrase", "word \($0)"] })
        #expect(result.status == 78)
        #expect(result.stderr.hasPrefix("--phrase: this makes 65 phrases and aliases"), "\(result.stderr)")
    }
}
