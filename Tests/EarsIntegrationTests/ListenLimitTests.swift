import Foundation
import Testing

/// Issue 12, defect 3 and the hostile-client checks on listen.sock, with the
/// real daemon: idle clients of one user cannot lock out another user, a
/// flood of refused connects costs a couple of log lines, and a consumer
/// that never reads loses its own events without hurting anyone else.
@Suite(.serialized) struct ListenLimitTests {
    /// The per-user cap `ears listen` applies (`WyomingServer.Options`).
    private static let perUserCap = 16
    private static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/wyoming_client.py").path

    /// `ears listen` on a missing device with sockets anyone may connect to
    /// (mode 0666 in a 0755 runtime directory), waited until `closed`.
    private func closedDaemon(in dir: String) throws -> EarsDaemon {
        let runtime = dir + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false)
        chmod(dir, 0o755)
        chmod(runtime, 0o755)
        try "[status]\nsocket_mode = 0666\n".write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)
        let daemon = try EarsDaemon(["listen", "--config", dir + "/ears.conf", "--device", "nosuch", "--runtime-dir", runtime],
                                    environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        if waitForStatus(runtime + "/status.sock", within: 20, { $0["phase"] as? String == "closed" }) == nil {
            _ = daemon.terminate()
            try #require(Bool(false), "never closed: \(daemon.output)")
        }
        return daemon
    }

    /// Connects `count` idle clients and waits until the daemon logged the last.
    private func idleClients(_ count: Int, socket: String, daemon: EarsDaemon) throws -> [RawUnixClient] {
        let clients = try (0..<count).map { _ in try RawUnixClient(path: socket) }
        let connected = daemon.waitForLine(within: 10) { $0.contains("client \(count) connected") }
        try #require(connected != nil, "\(daemon.output.suffix(5))")
        return clients
    }

    @Test func anotherUserIsServedWhileOneUserHoldsItsWholeShareOfIdleConnections() throws {
        try #require(getuid() == 0, "needs root to run a client as another user")
        let dir = try scratchDirectory("listen-peruser")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try closedDaemon(in: dir)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/listen.sock"
        let held = try idleClients(Self.perUserCap, socket: socket, daemon: daemon)
        defer { withExtendedLifetime(held) {} }

        // One more from the same user is closed at once.
        let extra = try RawUnixClient(path: socket)
        #expect(extra.readOnce(within: 5) == .endOfStream)

        // Another user (nobody) connects, describes, and gets `info`.
        let script = dir + "/describe.py"
        try """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(sys.argv[1])
        s.sendall(b'{"type": "describe"}\\n')
        line = s.makefile("rb").readline()
        print(json.loads(line)["type"] if line else "end of stream")
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o644)
        let other = try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                         "/usr/bin/python3", script, socket])
        #expect(other.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "info", "\(other.stdout) \(other.stderr)")
        #expect(daemon.output.contains { $0.contains("uid 65534") && $0.contains("connected") }, "\(daemon.output.suffix(5))")
    }

    @Test func twoThousandRefusedConnectsWriteAtMostACoupleOfLogLines() throws {
        let dir = try scratchDirectory("listen-flood")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try closedDaemon(in: dir)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/listen.sock"
        let held = try idleClients(Self.perUserCap, socket: socket, daemon: daemon)
        defer { withExtendedLifetime(held) {} }

        for _ in 0..<2_000 { _ = try RawUnixClient(path: socket) } // connected, then closed at once
        // The daemon took them all (one last refused client sees its close),
        // and still answers on both sockets.
        let last = try RawUnixClient(path: socket)
        #expect(last.readOnce(within: 10) == .endOfStream)
        let status = try runCommand(earsBinary, ["status", "--runtime-dir", dir + "/run"])
        #expect(status.status == 0, "\(status.stderr)")

        let refusals = daemon.output.filter { $0.contains("wyoming: refus") }
        #expect(refusals.count >= 1 && refusals.count <= 2, "\(refusals.count) refusal lines: \(refusals.prefix(3))")
        #expect(refusals.first?.contains("from uid \(getuid())") == true, "\(refusals.first ?? "none")")
    }

    @Test func aConsumerThatNeverReadsLosesOnlyItsOwnEvents() throws {
        let dir = try scratchDirectory("listen-slow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        // One 45 s capture of continuous speech: ~450 events, more than the
        // never-reading client's outbox (256) and socket buffer together hold.
        let daemon = try EarsDaemon.listening(in: dir, config: "[capture]\nmax_seconds = 45\nsilence_seconds = 5\n", mic: mic)
        defer { _ = daemon.terminate() }
        let run = dir + "/run"

        let slow = try RawUnixClient(path: run + "/listen.sock")
        try slow.send("{\"type\": \"describe\"}\n") // subscribed like wyoming_client.py, then never reads
        let good = Process()
        good.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        good.arguments = ["python3", Self.client, run + "/listen.sock", "--timeout", "90"]
        let pipe = Pipe()
        good.standardOutput = pipe
        good.standardError = FileHandle.nullDevice
        try good.run()
        defer { if good.isRunning { good.terminate() } }
        try #require(daemon.waitForLine(within: 10) { $0.contains("client 2 connected") } != nil, "\(daemon.output.suffix(5))")

        try Speech.wav("the quick brown fox jumps over the lazy dog, and then it runs back home again", at: dir + "/talk.wav")
        let talk = try Speech.rawSamples(of: dir + "/talk.wav")
        for _ in 0..<20 { mic.enqueue(talk) }
        let tap = try runCommand(earsBinary, ["tap", "--runtime-dir", run])
        #expect(tap.status == 0, "\(tap.stderr)")

        // The well-behaved consumer gets the whole capture.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        good.waitUntilExit()
        #expect(good.terminationStatus == 0, "good client exit \(good.terminationStatus)")
        let events = String(decoding: output, as: UTF8.self).split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let samples = events.filter { $0["type"] as? String == "audio-chunk" }.reduce(0) { $0 + ($1["samples"] as? Int ?? 0) }
        #expect(samples >= 40 * 16_000 && samples <= 45 * 16_000, "the good consumer got \(samples) samples")
        #expect(events.last?["type"] as? String == "audio-stop")

        // The daemon kept listening and answering; the slow one's drops are counted and logged.
        let status = waitForStatus(run + "/status.sock", within: 5) { _ in true }
        #expect(status?["phase"] as? String == "listening")
        let dropped = (status?["dropped_chunks"] as? [String: Int])?["listen_socket"] ?? 0
        #expect(dropped > 0, "no drops counted: \(status ?? [:])")
        let answer = try runCommand(earsBinary, ["status", "--runtime-dir", run])
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(daemon.output.contains { $0.contains("is not keeping up") }, "\(daemon.output.suffix(10))")
        // A newcomer still connects and is described.
        let newcomer = try RawUnixClient(path: run + "/listen.sock")
        try newcomer.send("{\"type\": \"describe\"}\n")
        if case .bytes = newcomer.readOnce(within: 5) {} else { Issue.record("a new client got no info") }
        withExtendedLifetime(slow) {}
    }
}
