import Foundation
import Testing

/// SIGHUP re-reads ears.conf in a running `ears listen`: new phrases apply,
/// a bad file is refused with its file:line and the old configuration stays.
@Suite(.serialized) struct ReloadTests {
    private static let wyomingClient = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/wyoming_client.py").path

    /// The verifier is off here: these tests are about reloading, and the
    /// verifier's fitted weights refuse "open the door" said by flite (a
    /// phrase of short common words spots with a low ratio; docs/benchmark.md).
    private static func config(phrase: String, maxSeconds: Int = 20) -> String {
        """
        # ears.conf written by ReloadTests
        [wake]
        phrase = \(phrase)
        verifier = off

        [capture]
        max_seconds = \(maxSeconds)
        """
    }

    @Test func sighupAppliesNewPhrasesAndRefusesABadFileKeepingTheOldOne() throws {
        let dir = try scratchDirectory("reload")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let configPath = dir + "/ears.conf"
        let runtime = dir + "/run"
        let daemon = try EarsDaemon.listening(in: dir, config: Self.config(phrase: "hey cordelia"), mic: mic)
        defer { _ = daemon.terminate() }
        let socket = runtime + "/status.sock"

        // A broken file: refused, with the file and line, and nothing changes.
        try """
        [wake]
        phrase = open the door
        refractory_seconds = soon
        """.write(toFile: configPath, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        let refused = daemon.waitForLine(within: 5) { $0.contains("reload refused") }
        let line = try #require(refused, "no refusal: \(daemon.output)")
        #expect(line.contains("\(configPath):3"), "refusal does not name file:line: \(line)")
        #expect(line.hasPrefix("error: "))
        #expect(!daemon.output.contains { $0.contains("reloaded:") })

        // The old phrase is still in force.
        try Speech.wav("hey cordelia, open the door", at: dir + "/call.wav")
        let call = try Speech.rawSamples(of: dir + "/call.wav")
        mic.enqueue(Data(count: 16_000))
        mic.enqueue(call)
        let first = daemon.waitForLine(within: 20) { $0.hasPrefix("notice: wake") }
        #expect(first?.contains("phrase=\"hey cordelia\"") == true, "\(daemon.output)")

        // A good file: the new phrase replaces the old one.
        try Self.config(phrase: "open the door", maxSeconds: 5).write(toFile: configPath, atomically: true, encoding: .utf8)
        usleep(2_500_000) // past the first wake's refractory time and capture silence
        kill(daemon.process.processIdentifier, SIGHUP)
        let applied = daemon.waitForLine(within: 10) { $0.contains("reloaded: applied:") }
        let summary = try #require(applied, "no reload line: \(daemon.output)")
        #expect(summary.contains("wake phrases"))
        #expect(summary.contains("capture limits"))
        // The engine is loaded again, boosted toward the new phrase.
        let loads = { daemon.output.filter { $0.contains("engine pocketsphinx loaded") }.count }
        let deadline = Date().addingTimeInterval(10)
        while loads() < 2 && Date() < deadline { usleep(100_000) }
        #expect(loads() == 2, "the engine was not loaded again: \(daemon.output)")
        // The listen socket's info shows the phrase in force.
        let info = try runCommand("/usr/bin/env", ["python3", Self.wyomingClient, runtime + "/listen.sock",
                                                   "--captures", "0", "--timeout", "10"])
        #expect(info.stdout.contains("open the door"), "info: \(info.stdout) \(info.stderr)")
        #expect(!info.stdout.contains("hey cordelia"))

        mic.enqueue(call)
        let second = daemon.waitForLine(within: 20) { $0.hasPrefix("notice: wake") && $0 != first }
        #expect(second?.contains("phrase=\"open the door\"") == true, "\(daemon.output)")
        let wakes = daemon.output.filter { $0.hasPrefix("notice: wake") }
        #expect(wakes.count == 2, "\(wakes)")
        // The meter carried on across the new engine.
        let status = try #require(waitForStatus(socket, within: 5) { ($0["wakes"] as? Int) == 2 })
        #expect(((status["ear"] as? [String: Any])?["chunks"] as? Int ?? 0) > 50)
        #expect(daemon.terminate(within: 3) == 0)
    }

    @Test func keysThatNeedARestartKeepTheirOldValueAndSaySo() throws {
        let dir = try scratchDirectory("reload-restart")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir, defineDevice: false)
        let configPath = dir + "/ears.conf"
        try "[audio]\ndevice = cap\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        let runtime = dir + "/run"
        let daemon = try EarsDaemon(["listen", "--config", configPath, "--runtime-dir", runtime], environment: mic.environment)
        defer { _ = daemon.terminate() }
        try #require(waitForStatus(runtime + "/status.sock", within: 20) { $0["phase"] as? String == "closed" } != nil)
        try "[audio]\ndevice = elsewhere\n\n[listen]\near_text = on\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        let line = try #require(daemon.waitForLine(within: 5) { $0.contains("reloaded:") }, "\(daemon.output)")
        #expect(line.contains("ear text on"))
        #expect(line.contains("[audio] device changes only at restart"))
        let status = try #require(waitForStatus(runtime + "/status.sock", within: 5) { $0["heard_shown"] as? Bool == true })
        // Still the old device in the sentence.
        #expect((status["closed_why"] as? String ?? "").contains("'cap'"))
        #expect(daemon.terminate(within: 3) == 0)
    }
}
