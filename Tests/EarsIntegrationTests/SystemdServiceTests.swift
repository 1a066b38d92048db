import Foundation
import Testing

/// The service contract of systemd/ears.service, tested without systemd as
/// PID 1: the unit's ExecStart runs with `NOTIFY_SOCKET` pointing at a
/// datagram socket the test owns, `WATCHDOG_USEC` and `RUNTIME_DIRECTORY` set
/// as systemd would set them.
@Suite(.serialized) struct SystemdServiceTests {
    /// A 2 s watchdog: pings every second, a heartbeat older than 1 s is stale.
    private static let watchdogMicroseconds = "2000000"

    /// One supervised daemon and what stands around it; `close()` tears it all down.
    private struct Service {
        let dir: String
        let runtime: String
        let notify: NotifySocket
        let mic: AlsaFixture
        let daemon: EarsDaemon

        /// Starts `ears listen --device cap` as the unit would (no
        /// --runtime-dir: the sockets go where RuntimeDirectory= says), on a
        /// fixture microphone that exists only if `withMicrophone`.
        init(_ name: String, withMicrophone: Bool = true) throws {
            dir = try scratchDirectory(name)
            runtime = dir + "/run"
            notify = try NotifySocket(path: dir + "/notify.sock")
            mic = try AlsaFixture(directory: dir, defineDevice: withMicrophone)
            let environment = ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": SystemdServiceTests.watchdogMicroseconds,
                               "RUNTIME_DIRECTORY": runtime].merging(mic.environment) { $1 }
            daemon = try EarsDaemon(["listen", "--device", "cap"], environment: environment)
            if withMicrophone { mic.startFeeding() }
        }

        func close() {
            _ = daemon.terminate()
            mic.stop()
            notify.shutdown()
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    @Test func readyStatusAndWatchdogArriveAndThePingsStopWhileTheAudioLoopIsStuck() throws {
        let service = try Service("notify")
        defer { service.close() }
        let (notify, mic, daemon, runtime) = (service.notify, service.mic, service.daemon, service.runtime)

        let ready = try #require(notify.waitFor(within: 20) { $0.contains("READY=1") }, "no READY=1; got \(notify.messages.map(\.text)) and \(daemon.output)")
        // READY means the sockets are up.
        #expect(FileManager.default.fileExists(atPath: runtime + "/status.sock"))
        #expect(FileManager.default.fileExists(atPath: runtime + "/listen.sock"))
        #expect(ready.contains("STATUS="))
        let listening = notify.waitFor(within: 20) { $0.hasPrefix("STATUS=listening; engine pocketsphinx; 0 wakes") }
        #expect(listening != nil, "no listening STATUS line: \(notify.messages.map(\.text))")

        // A turning loop is pinged about every second.
        usleep(3_500_000)
        let before = notify.messages(with: "WATCHDOG=1").count
        #expect(before >= 2, "only \(before) pings in the first seconds")

        // Wedge the device: ears' read blocks, the heartbeat goes stale, the pings stop.
        mic.pause()
        let pausedAt = Date()
        let stuck = daemon.waitForLine(within: 6) { $0.contains("the audio loop has not turned") }
        #expect(stuck != nil, "no stall line: \(daemon.output)")
        usleep(3_000_000)
        // Pings that left before the heartbeat went stale (1 s) are fine; none after that.
        let late = notify.messages(with: "WATCHDOG=1").filter { $0.at > pausedAt.addingTimeInterval(1.6) }
        #expect(late.isEmpty, "\(late.count) pings while the loop was stuck")

        // The device comes back: the loop turns, the pings resume.
        let resumedAt = Date()
        mic.resume()
        #expect(daemon.waitForLine(within: 5) { $0.contains("turning again") } != nil, "no recovery line: \(daemon.output)")
        usleep(2_500_000)
        #expect(!notify.messages(with: "WATCHDOG=1").filter { $0.at > resumedAt }.isEmpty, "pings did not resume")

        #expect(daemon.terminate(within: 3) == 0)
        #expect(notify.waitFor(within: 1) { $0.contains("STOPPING=1") } != nil)
    }

    @Test func withoutAMicrophoneTheServiceIsStillReadyAndSaysWhyItIsClosed() throws {
        let service = try Service("notify-closed", withMicrophone: false)
        defer { service.close() }
        let (notify, daemon) = (service.notify, service.daemon)
        #expect(notify.waitFor(within: 20) { $0.contains("READY=1") } != nil, "no READY=1: \(daemon.output)")
        let closed = notify.waitFor(within: 10) { $0.contains("STATUS=closed; engine pocketsphinx; 0 wakes; closed: The microphone 'cap'") }
        #expect(closed != nil, "no closed STATUS: \(notify.messages.map(\.text))")
        // Closed and waiting to retry is alive: the watchdog keeps being fed.
        usleep(3_500_000)
        #expect(notify.messages(with: "WATCHDOG=1").count >= 2)
        #expect(daemon.terminate(within: 3) == 0)
    }

    @Test func sigtermDuringACaptureExitsZeroWithinTwoSecondsAndRemovesTheSockets() throws {
        let service = try Service("sigterm")
        defer { service.close() }
        let (notify, mic, daemon, runtime, dir) = (service.notify, service.mic, service.daemon, service.runtime, service.dir)
        let socket = runtime + "/status.sock"
        try #require(waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" } != nil, "\(daemon.output)")
        // A tap starts a capture that would run for up to 20 s of speech.
        try Speech.wav("please tell me a long story about the sea and the ships", at: dir + "/talk.wav")
        let talk = try Speech.rawSamples(of: dir + "/talk.wav")
        mic.enqueue(talk + talk + talk)
        #expect(try curlUnix(socket, "/tap", method: "POST").code == 202)
        try #require(waitForStatus(socket, within: 5) { ($0["captures"] as? Int ?? 0) == 1 } != nil)

        let start = Date()
        let status = daemon.terminate(within: 5)
        let seconds = Date().timeIntervalSince(start)
        #expect(status == 0)
        #expect(seconds < 2, "took \(seconds) s to stop")
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: runtime + "/listen.sock"))
        #expect(notify.messages(with: "STOPPING=1").count == 1)
        #expect(daemon.output.contains("info: stopped"))
    }
}
