import Foundation
import Testing

/// `ears listen` on a file-backed ALSA device, through the real status socket.
@Suite(.serialized) struct ListenTests {
    private static let spoken = "hey cordelia, what's for dinner tonight?"
    private static let spokenWords = ["cordelia", "dinner", "tonight", "what"]

    @Test func listeningOnTheMicrophoneWakesAndTheMeterShowsItWithoutWords() throws {
        let dir = try scratchDirectory("listen")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        try Speech.wav(Self.spoken, at: dir + "/call.wav")
        let speech = try Speech.rawSamples(of: dir + "/call.wav")

        let daemon = try EarsDaemon(["listen", "--device", "cap", "--runtime-dir", dir + "/run"], environment: mic.environment)
        defer { _ = daemon.terminate() }
        mic.startFeeding()
        let socket = dir + "/run/status.sock"
        let listening = waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" }
        try #require(listening != nil, "never listening: \(daemon.output)")

        mic.enqueue(Data(count: 32_000)) // a second of silence first
        mic.enqueue(speech)
        let wake = daemon.waitForLine(within: 20) { $0.hasPrefix("notice: wake") }
        let line = try #require(wake, "no wake line in \(daemon.output)")
        #expect(line.contains("phrase=\"hey cordelia\""))
        #expect(line.contains("score="))
        for word in ["dinner", "tonight"] { #expect(!line.contains(word)) }

        let status = try #require(waitForStatus(socket, within: 5) { ($0["wakes"] as? Int) == 1 })
        let ear = try #require(status["ear"] as? [String: Any])
        #expect((ear["chunks"] as? Int ?? 0) > 20)
        // The speech gate feeds the speech (with its onset), not the silence around it.
        #expect((ear["fed"] as? Int ?? 0) > 10)
        #expect((ear["fed"] as? Int ?? 0) < (ear["chunks"] as? Int ?? 0))
        #expect((ear["results"] as? Int ?? 0) > 0)
        #expect((ear["loudest"] as? Double ?? 0) > 0.05)
        #expect((ear["since_audio_s"] as? Double ?? 99) < 2)
        #expect(status["engine"] as? String == "pocketsphinx")
        #expect(status["heard_shown"] as? Bool == false)
        #expect(status["closed_why"] is NSNull)

        // Content-free: nothing that was said is in the status body or anywhere in the log.
        let body = try curlUnix(socket, "/ears").body.lowercased()
        for word in Self.spokenWords { #expect(!body.contains(word), "status body carries '\(word)'") }
        let log = daemon.output.joined(separator: "\n").lowercased()
        for word in ["dinner", "tonight"] { #expect(!log.contains(word), "log carries '\(word)'") }

        // `ears status` reads the same socket.
        let cli = try runCommand(earsBinary, ["status", "--runtime-dir", dir + "/run"])
        #expect(cli.status == 0)
        #expect(cli.stdout.contains("\"phase\":\"listening\""))

        // The socket is private to the service and its group, and goes away on SIGTERM.
        let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
        #expect(mode == 0o660)
        #expect(daemon.terminate(within: 3) == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func theStatusSocketAnswersOnlyGetOnSlashEars() throws {
        let dir = try scratchDirectory("routes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try EarsDaemon(["listen", "--device", "nosuch", "--runtime-dir", dir],
                                    environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        defer { _ = daemon.terminate() }
        let socket = dir + "/status.sock"
        try #require(waitForStatus(socket, within: 10) { _ in true } != nil, "\(daemon.output)")
        #expect(try curlUnix(socket, "/nope").code == 404)
        #expect(try curlUnix(socket, "/ears", method: "POST").code == 405)
        #expect(try curlUnix(socket, "/ears").code == 200)
    }

    @Test func aMissingMicrophoneIsClosedWithASentenceWhileTheDaemonKeepsServing() throws {
        let dir = try scratchDirectory("nomic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, status) = try EarsDaemon.closed(in: dir)
        defer { _ = daemon.terminate() }
        let socket = dir + "/status.sock"
        let why = try #require(status["closed_why"] as? String)
        #expect(why.contains("'nosuch'"))
        #expect(why.contains("not there"))
        #expect(why.hasSuffix("."))
        // Still serving a few seconds later, while it retries.
        usleep(2_500_000)
        #expect(try curlUnix(socket, "/ears").code == 200)
        // alsa-lib's own complaints are captured into the sentence, not printed raw.
        #expect(!daemon.output.contains { $0.hasPrefix("ALSA lib") }, "\(daemon.output)")
    }

    @Test func aMicrophoneThatAppearsLaterIsOpenedWithoutARestart() throws {
        let dir = try scratchDirectory("late-mic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir, defineDevice: false)
        defer { mic.stop() }
        let daemon = try EarsDaemon(["listen", "--device", "cap", "--runtime-dir", dir + "/run"], environment: mic.environment)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 10) { $0["phase"] as? String == "closed" } != nil, "\(daemon.output)")

        try mic.writeConfig(defineDevice: true)
        mic.startFeeding()
        let listening = waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" }
        #expect(listening != nil, "\(daemon.output)")
        #expect(listening?["closed_why"] is NSNull)
    }
}
