import Foundation
import Testing

/// The audio loop under stress, with the real daemon on the file-backed ALSA
/// microphone and real PocketSphinx: a decoder slower than real time
/// (`EARS_DEBUG_DECODE_DELAY_MS`), engine loads that take long
/// (`EARS_DEBUG_LOAD_DELAY_MS`), a storm of SIGHUPs, and a stopped process.
@Suite(.serialized) struct AudioLoopTests {
    private static let watchdogMicroseconds = "2000000"

    private func object(_ status: [String: Any]?, _ key: String) -> [String: Any] {
        status?[key] as? [String: Any] ?? [:]
    }

    @Test("with a decoder three times slower than real time the microphone never stalls, drops are counted and a tap's capture is whole")
    func aSlowDecoderNeverStallsTheMicrophone() throws {
        let dir = try scratchDirectory("slow-decoder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The microphone drops what ears does not read in time, like a real one.
        let mic = try AlsaFixture(directory: dir, dropsWhenFull: true)
        defer { mic.stop() }
        let notify = try NotifySocket(path: dir + "/notify.sock")
        defer { notify.shutdown() }
        let hook = dir + "/hook.sh"
        try "#!/bin/sh\ncat > \"\(dir)/capture-$EARS_SOURCE.wav\"\n".write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        let config = dir + "/ears.conf"
        try "[capture]\non_wake = \(hook)\nsilence_seconds = 0.5\n".write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["EARS_DEBUG_DECODE_DELAY_MS": "300", "NOTIFY_SOCKET": notify.path,
                           "WATCHDOG_USEC": Self.watchdogMicroseconds].merging(mic.environment) { $1 }
        let daemon = try EarsDaemon(["listen", "--config", config, "--device", "cap", "--runtime-dir", dir + "/run"],
                                    environment: environment)
        defer { _ = daemon.terminate() }
        mic.startFeeding()
        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" } != nil, "\(daemon.output)")
        #expect(daemon.output.contains { $0.contains("diagnostics: decode delay 300 ms") }, "\(daemon.output)")

        // The ear decodes a chunk every 300 ms while 100 ms chunks arrive: it drops.
        let behind = waitForStatus(socket, within: 15) { (($0["ear"] as? [String: Any])?["dropped"] as? Int ?? 0) > 10 }
        #expect(behind != nil, "no drops counted: \(daemon.output)")
        usleep(3_000_000)

        // The tap goes to the audio owner, which never waits for the ear: the
        // capture is whole (0.3 s pre-roll + 0.5 s of silence, + a chunk of slack).
        let tap = try runCommand(earsBinary, ["tap", "--runtime-dir", dir + "/run"])
        #expect(tap.status == 0, "\(tap.stderr)")
        let captured = waitForStatus(socket, within: 15) { (($0["hook"] as? [String: Any])?["runs"] as? Int) == 1 }
        #expect(captured?["captures"] as? Int == 1, "\(daemon.output)")
        let duration = try Speech.duration(of: dir + "/capture-tap.wav")
        #expect(duration >= 0.7 && duration <= 1.0, "capture of \(duration) s")

        // The microphone side never stalled: no audio lost, no overrun, the
        // feeder never found the FIFO full, the watchdog kept being pinged.
        let status = try #require(waitForStatus(socket, within: 5) { _ in true })
        #expect(object(status, "audio")["gap_s"] as? Double == 0, "\(status)")
        #expect(object(status, "audio")["overruns"] as? Int == 0, "\(status)")
        // A block or two may be lost to the test machine's own scheduling;
        // a reader held up by the decoder would lose two thirds of them.
        #expect(mic.blocksDropped <= 5, "the feeder dropped \(mic.blocksDropped) blocks: ears fell behind the device")
        #expect(!daemon.output.contains { $0.contains("the audio loop has not turned") }, "\(daemon.output)")
        // The stream restarts after every hole; that must not make the
        // libraries chatter (speexdsp warned on every fresh state).
        #expect(!daemon.output.contains { $0.contains("VAD") }, "\(daemon.output.filter { $0.contains("VAD") }.count) speexdsp warnings")
        let lastPing = notify.messages(with: "WATCHDOG=1").last?.at ?? .distantPast
        #expect(Date().timeIntervalSince(lastPing) < 2, "the watchdog pings stopped")
        let metrics = try curlUnix(socket, "/metrics")
        #expect(metrics.body.contains("ears_audio_gap_seconds_total 0\n"), "\(metrics.body)")
        let dropped = metrics.body.split(separator: "\n").first { $0.hasPrefix("ears_ear_dropped_chunks_total ") }
        #expect((dropped?.split(separator: " ").last.flatMap { Int($0) } ?? 0) > 10, "\(metrics.body)")
        #expect(daemon.terminate(within: 3) == 0)
    }

    @Test("an engine stuck in a decode holds the watchdog pings while the microphone goes on, and SIGTERM does not wait for it")
    func aStuckEngineHoldsTheWatchdog() throws {
        let dir = try scratchDirectory("stuck-engine")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir, dropsWhenFull: true)
        defer { mic.stop() }
        let notify = try NotifySocket(path: dir + "/notify.sock")
        defer { notify.shutdown() }
        // 20 s per chunk: against a 2 s watchdog, the engine is wedged.
        let environment = ["EARS_DEBUG_DECODE_DELAY_MS": "20000", "NOTIFY_SOCKET": notify.path,
                           "WATCHDOG_USEC": Self.watchdogMicroseconds].merging(mic.environment) { $1 }
        let daemon = try EarsDaemon(["listen", "--device", "cap", "--runtime-dir", dir + "/run"], environment: environment)
        defer { _ = daemon.terminate() }
        mic.startFeeding()
        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" } != nil, "\(daemon.output)")
        let stuck = daemon.waitForLine(within: 8) { $0.contains("the audio loop has not turned") }
        #expect(stuck != nil, "the pings went on with the engine stuck: \(daemon.output)")
        // The microphone side still turns: no audio lost.
        let captured = waitForStatus(socket, within: 5) { _ in true }
        #expect(object(captured, "audio")["gap_s"] as? Double == 0)
        #expect(mic.blocksDropped <= 5, "the feeder dropped \(mic.blocksDropped) blocks")
        let sentAt = Date()
        #expect(daemon.terminate(within: 5) == 0, "\(daemon.output)")
        #expect(Date().timeIntervalSince(sentAt) < 2, "exit waited for the stuck decode")
    }

    @Test("SIGTERM while the engine loads (30 s, as if stuck in C code) exits at once")
    func sigtermMidLoadExitsAtOnce() throws {
        let dir = try scratchDirectory("slow-load")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon(["listen", "--device", "cap", "--runtime-dir", dir + "/run"],
                                    environment: ["EARS_DEBUG_LOAD_DELAY_MS": "30000"].merging(mic.environment) { $1 })
        defer { _ = daemon.terminate() }
        let opening = waitForStatus(dir + "/run/status.sock", within: 10) { $0["phase"] as? String == "opening" }
        try #require(opening != nil, "\(daemon.output)")
        usleep(1_000_000) // well inside the load
        let sentAt = Date()
        // Had it waited for the load, it would still be running at 10 s.
        #expect(daemon.terminate(within: 10) == 0, "\(daemon.output)")
        #expect(Date().timeIntervalSince(sentAt) < 10)
        #expect(!FileManager.default.fileExists(atPath: dir + "/run/status.sock"))
    }

    @Test("a reload's engine loads beside the old one: the microphone and the old engine go on, and SIGTERM mid-load exits within 2 s")
    func aReloadLoadsBesideTheOldEngine() throws {
        let dir = try scratchDirectory("reload-load")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let path = dir + "/ears.conf"
        try "[wake]\nphrase = hey cordelia\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try EarsDaemon(["listen", "--config", path, "--device", "cap", "--runtime-dir", dir + "/run"],
                                    environment: ["EARS_DEBUG_LOAD_DELAY_MS": "5000"].merging(mic.environment) { $1 })
        defer { _ = daemon.terminate() }
        mic.startFeeding()
        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 30) { $0["phase"] as? String == "listening" } != nil, "\(daemon.output)")
        // New phrases: a new engine (boosted toward them), loading for 5 s.
        try "[wake]\nphrase = open the door\n".write(toFile: path, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        try #require(daemon.waitForLine(within: 5) { $0.contains("reloaded: applied:") } != nil, "\(daemon.output)")
        let before = waitForStatus(socket, within: 2) { _ in true }
        usleep(2_000_000)
        let during = waitForStatus(socket, within: 2) { _ in true }
        // The old engine still decodes what the microphone still delivers.
        let chunksBefore = object(before, "ear")["chunks"] as? Int ?? 0
        let chunksDuring = object(during, "ear")["chunks"] as? Int ?? 0
        #expect(chunksDuring >= chunksBefore + 10, "chunks \(chunksBefore) → \(chunksDuring)")
        #expect(during?["phase"] as? String == "listening")
        #expect(daemon.output.filter { $0.contains("engine pocketsphinx loaded") }.count == 1, "the new engine is not loading: \(daemon.output)")
        #expect(daemon.terminate(within: 2) == 0, "\(daemon.output)")
    }

    @Test("a SIGHUP storm alternating good and bad files: bad ones refused with file:line, listening goes on, the last good one is in force")
    func aSighupStorm() throws {
        let dir = try scratchDirectory("sighup-storm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        func good(_ phrase: String) -> String { "[wake]\nphrase = \(phrase)\nverifier = off\n" }
        let bad = "[wake]\nphrase = open the door\nrefractory_seconds = soon\n"
        let daemon = try EarsDaemon.listening(in: dir, config: good("hey cordelia"), mic: mic)
        defer { _ = daemon.terminate() }
        let path = dir + "/ears.conf", socket = dir + "/run/status.sock"
        for round in 0..<20 {
            let text = round % 2 == 0 ? bad : good(round % 4 == 1 ? "hey cordelia" : "open the door")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            kill(daemon.process.processIdentifier, SIGHUP)
            usleep(250_000)
        }
        let refusals = daemon.output.filter { $0.contains("reload refused") }
        #expect(!refusals.isEmpty, "\(daemon.output)")
        for line in refusals { #expect(line.contains("\(path):3"), "refusal without file:line: \(line)") }
        #expect(daemon.output.contains { $0.contains("reloaded: applied:") })

        // Listening went on all along, and goes on.
        let first = object(waitForStatus(socket, within: 2) { _ in true }, "ear")["chunks"] as? Int ?? 0
        usleep(2_000_000)
        let status = waitForStatus(socket, within: 5) { $0["phase"] as? String == "listening" }
        #expect((object(status, "ear")["chunks"] as? Int ?? 0) >= first + 10, "\(String(describing: status))")
        // Let the coalesced loads finish, then the last good file's phrase is heard.
        usleep(3_000_000)
        try Speech.wav("hey cordelia, open the door", at: dir + "/call.wav")
        mic.enqueue(Data(count: 16_000))
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))
        let wake = daemon.waitForLine(within: 30) { $0.hasPrefix("notice: wake") }
        #expect(wake?.contains("phrase=\"open the door\"") == true, "\(daemon.output)")
        #expect(!daemon.output.contains { $0.hasPrefix("notice: wake") && $0.contains("cordelia") })
        #expect(daemon.terminate(within: 3) == 0)
    }

    @Test("a daemon stopped for 3.5 s while the microphone runs on counts the lost audio in /ears and /metrics")
    func aStoppedProcessCountsTheGap() throws {
        let dir = try scratchDirectory("gap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir, dropsWhenFull: true)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: "", mic: mic)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/status.sock"
        usleep(2_000_000)
        let before = waitForStatus(socket, within: 2) { _ in true }
        #expect(object(before, "audio")["gap_s"] as? Double == 0, "\(String(describing: before))")
        kill(daemon.process.processIdentifier, SIGSTOP)
        usleep(3_500_000)
        kill(daemon.process.processIdentifier, SIGCONT)
        let after = waitForStatus(socket, within: 10) { (($0["audio"] as? [String: Any])?["gap_s"] as? Double ?? 0) >= 2 }
        #expect(after != nil, "gap not counted: \(String(describing: waitForStatus(socket, within: 1) { _ in true }))")
        #expect(mic.blocksDropped >= 20, "the microphone dropped only \(mic.blocksDropped) blocks")
        let metrics = try curlUnix(socket, "/metrics")
        let line = metrics.body.split(separator: "\n").first { $0.hasPrefix("ears_audio_gap_seconds_total ") }
        let seconds = line?.split(separator: " ").last.flatMap { Double($0) } ?? 0
        #expect(seconds >= 2 && seconds <= 3.6, "\(metrics.body)")
        #expect(metrics.body.contains("# TYPE ears_audio_overruns_total counter"))
        #expect(daemon.terminate(within: 3) == 0)
    }
}
