import Foundation
import Testing

/// ears as a Wyoming wake service (`[wyoming] uri`), with the reference
/// `wyoming` package (PyPI) as the client — the part Home Assistant or a
/// satellite plays — over TCP on 127.0.0.1 and over a Unix socket.
@Suite(.serialized) struct WyomingWakeServiceTests {
    private static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/wyoming_wake_client.py").path

    /// The client's event lines for `arguments` (see wyoming_wake_client.py).
    private func client(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try runCommand("/usr/bin/env", ["python3", Self.client] + arguments + ["--timeout", "60"])
        #expect(result.status == 0, "client \(arguments.first ?? ""): \(result.stderr) \(result.stdout)")
        return result.stdout.split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    private func types(_ events: [[String: Any]]) -> [String] { events.map { $0["type"] as? String ?? "" } }

    /// A TCP port nobody listens on now (the kernel's pick, released again).
    private func freePort() throws -> Int {
        let result = try runCommand("/usr/bin/env", ["python3", "-c",
            "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        return try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Converts the WAV at `path` with sox to `rate` Hz, `channels` channels, 16-bit.
    private func convert(_ path: String, rate: Int, channels: Int, to out: String) throws {
        let result = try runCommand("/usr/bin/sox", [path, "-r", String(rate), "-c", String(channels), "-b", "16", out])
        try #require(result.status == 0, "sox: \(result.stderr)")
    }

    @Test("describe, a flite phrase at 44.1 kHz stereo over TCP, other speech at 22.05 kHz over a Unix socket, a bad event; the meters and the microphone")
    func wakeServiceEndToEnd() throws {
        let dir = try scratchDirectory("wyoming-wake")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let port = try freePort()
        let tcp = "tcp://127.0.0.1:\(port)"
        let unix = "unix://\(dir)/run/wake.sock"
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: "[wyoming]\nuri = \(tcp)\nuri = \(unix)\n", mic: mic)
        defer { _ = daemon.terminate() }
        let status = dir + "/run/status.sock"
        #expect(daemon.waitForLine(within: 5) { $0.contains("wyoming wake service on \(tcp)") } != nil, "\(daemon.output)")

        // describe -> info: one wake program, "ears", the phrase as its model.
        let info = try #require(try client(["describe", tcp]).first)
        #expect(info["type"] as? String == "info")
        #expect(info["wake_programs"] as? [String] == ["ears"])
        let models = try #require(info["wake_models"] as? [[String: Any]])
        #expect(models.map { $0["name"] as? String } == ["hey cordelia"])
        #expect(models.first?["installed"] as? Bool == true)
        #expect(models.first?["languages"] as? [String] == ["en"])
        #expect(models.first?["attribution"] as? String == "ears")

        // The phrase, resampled and stereo: detection (with the phrase's name), never not-detected.
        try Speech.wav("hey cordelia", at: dir + "/phrase.wav")
        try convert(dir + "/phrase.wav", rate: 44_100, channels: 2, to: dir + "/phrase44.wav")
        let heard = try client(["detect", tcp, dir + "/phrase44.wav"])
        #expect(types(heard) == ["detection", "closed"], "\(heard)")
        let detection = try #require(heard.first)
        #expect(detection["name"] as? String == "hey cordelia")
        let milliseconds = try #require(detection["timestamp"] as? Int)
        #expect(milliseconds > 500 && milliseconds < 4_000, "timestamp \(milliseconds) ms of a 2.5 s file")

        // The same with names asking for it (as Home Assistant's detect does).
        let asked = try client(["detect", unix, dir + "/phrase44.wav", "--names", "hey_cordelia"])
        #expect(types(asked) == ["detection", "closed"], "\(asked)")

        // Speech without the phrase at 22.05 kHz mono over the Unix socket: not-detected at the stop.
        try Speech.wav("the weather is nice today and the birds are singing", at: dir + "/other.wav")
        try convert(dir + "/other.wav", rate: 22_050, channels: 1, to: dir + "/other22.wav")
        let missed = try client(["detect", unix, dir + "/other22.wav"])
        #expect(types(missed) == ["not-detected", "closed"], "\(missed)")

        // Garbage and an oversized event: an error event, then the close.
        for kind in ["notjson", "oversized"] {
            let refused = try client(["garbage", tcp, kind])
            #expect(types(refused) == ["error", "closed"], "\(kind): \(refused)")
            #expect(((refused.first?["data"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        }
        // A name no phrase answers to: an error naming it.
        let unknown = try client(["detect", tcp, dir + "/phrase44.wav", "--names", "ok_nabu"])
        #expect(types(unknown) == ["error", "closed"], "\(unknown)")

        // The daemon is unharmed: ears status answers, the next client is served.
        let statusCommand = try runCommand(earsBinary, ["status", "--runtime-dir", dir + "/run"])
        #expect(statusCommand.status == 0, "\(statusCommand.stderr)")
        #expect(try client(["describe", unix]).first?["type"] as? String == "info")

        // Content-free remote meters: connections, audio seconds, detections by phrase.
        let report = try #require(waitForStatus(status, within: 5) { report in
            ((report["remote"] as? [String: Any])?["connections"] as? Int) == 0
        })
        let remote = try #require(report["remote"] as? [String: Any])
        #expect(remote["connections_total"] as? Int == 8)
        #expect(remote["errors"] as? Int == 3)
        #expect(remote["detections"] as? Int == 2)
        #expect((remote["detections_by_phrase"] as? [String: Int]) == ["hey cordelia": 2])
        let audioSeconds = try #require(remote["audio_s"] as? Double)
        #expect(audioSeconds > 6 && audioSeconds < 20, "\(audioSeconds) s")
        let metrics = try curlUnix(status, "/metrics").body
        #expect(metrics.contains("ears_remote_detections_total{phrase=\"hey cordelia\"} 2"))
        #expect(metrics.contains("ears_remote_connections_total 8"))
        // Remote streams never touch the microphone's wakes or captures.
        #expect(report["wakes"] as? Int == 0)
        #expect(report["captures"] as? Int == 0)
        for line in daemon.output { #expect(!line.contains("weather"), "words in the log: \(line)") }

        // The microphone path kept listening all along.
        mic.enqueue(try Speech.rawSamples(of: dir + "/phrase.wav"))
        #expect(waitForStatus(status, within: 20) { ($0["wakes"] as? Int) == 1 } != nil, "the microphone did not wake: \(daemon.output)")
    }

    @Test("after a reload with a new phrase, remote streams hear the new phrase (no ear of the old one is reused)")
    func reloadReachesRemoteStreams() throws {
        let dir = try scratchDirectory("wyoming-wake-reload")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socket = "unix://\(dir)/run/wake.sock"
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let wyoming = "[wyoming]\nuri = \(socket)\n"
        let daemon = try EarsDaemon.listening(in: dir, config: "[wake]\nphrase = hey cordelia\n" + wyoming, mic: mic)
        defer { _ = daemon.terminate() }
        try Speech.wav("hey cordelia", at: dir + "/cordelia.wav")
        try Speech.wav("okay jarvis", at: dir + "/jarvis.wav")
        // This connection's ear is kept for the next one.
        #expect(types(try client(["detect", socket, dir + "/cordelia.wav"])) == ["detection", "closed"])

        try ("[wake]\nphrase = okay jarvis\n" + wyoming).write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(daemon.waitForLine(within: 10) { $0.contains("reloaded:") } != nil, "\(daemon.output)")
        let info = try #require(try client(["describe", socket]).first)
        #expect((info["wake_models"] as? [[String: Any]])?.map { $0["name"] as? String } == ["okay jarvis"])
        let heard = try client(["detect", socket, dir + "/jarvis.wav"])
        #expect(types(heard) == ["detection", "closed"], "\(heard)")
        #expect(heard.first?["name"] as? String == "okay jarvis")
        #expect(types(try client(["detect", socket, dir + "/cordelia.wav"])) == ["not-detected", "closed"])
    }

    @Test("off by default: no wake service, and ears listen --uri adds one")
    func offByDefaultAndFlag() throws {
        let dir = try scratchDirectory("wyoming-wake-flag")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: "", mic: mic)
        let report = waitForStatus(dir + "/run/status.sock", within: 5) { _ in true }
        #expect(report?["remote"] is NSNull, "\(String(describing: report?["remote"]))")
        #expect(!daemon.output.contains { $0.contains("wyoming wake service") })
        _ = daemon.terminate()

        let socket = dir + "/run/flag.sock"
        let flagged = try EarsDaemon(["listen", "--config", dir + "/ears.conf", "--device", "cap", "--runtime-dir", dir + "/run",
                                      "--uri", "unix://" + socket], environment: mic.environment)
        defer { _ = flagged.terminate() }
        #expect(flagged.waitForLine(within: 20) { $0.contains("wyoming wake service on unix://\(socket)") } != nil, "\(flagged.output)")
        #expect(try client(["describe", "unix://" + socket]).first?["type"] as? String == "info")
        _ = flagged.terminate()
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file outlived the daemon")
    }

    @Test("a bad [wyoming] uri or --uri is refused with file:line or the flag, and what to write")
    func badURIs() throws {
        let dir = try scratchDirectory("wyoming-wake-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ears.conf"
        try "[wyoming]\nuri = tcp://0.0.0.0\n".write(toFile: path, atomically: true, encoding: .utf8)
        let checked = try runCommand(earsBinary, ["check-config", "--config", path])
        #expect(checked.status != 0)
        #expect(checked.stderr.contains("\(path):2") && checked.stderr.contains("needs a port"), "\(checked.stderr)")
        let flagged = try runCommand(earsBinary, ["listen", "--uri", "http://localhost:10400"])
        #expect(flagged.status != 0)
        #expect(flagged.stderr.contains("--uri") && flagged.stderr.contains("tcp://HOST:PORT"), "\(flagged.stderr)")
    }
}

/// The drop-in docs/operations.md shows for opening the wake service's port:
/// systemd knows every key, and the unit with it is still rated OK or better.
@Suite struct WyomingWakeDropInTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The ```ini block of the "Home Assistant (Wyoming wake service)" section.
    static func dropIn() throws -> String {
        let doc = try String(contentsOf: repository.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "## Home Assistant (Wyoming wake service)"), "no such section")
        let rest = doc[section.upperBound...]
        let start = try #require(rest.range(of: "```ini\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    @Test("the documented drop-in verifies, opens only TCP and one port, and keeps the unit's IP deny-list")
    func dropInVerifies() throws {
        let dropIn = try Self.dropIn()
        #expect(dropIn.contains("PrivateNetwork=no"))
        #expect(dropIn.contains("SocketBindAllow=tcp:10400") && dropIn.contains("SocketBindDeny=any"))
        #expect(dropIn.contains("IPAddressAllow="))
        let dir = try scratchDirectory("wake-drop-in")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let unit = try String(contentsOf: Self.repository.appendingPathComponent("systemd/ears.service"), encoding: .utf8)
        #expect(unit.contains("PrivateNetwork=yes") && unit.contains("IPAddressDeny=any"), "the default unit must keep the network closed")
        // A drop-in's [Service] lines apply after the unit's: appending them is the same.
        let combined = unit.replacingOccurrences(of: "/usr/local/bin/ears", with: earsBinary) + "\n" + dropIn
        try combined.write(toFile: dir + "/ears.service", atomically: true, encoding: .utf8)
        let verified = try runCommand("/usr/bin/systemd-analyze", ["verify", "--man=no", dir + "/ears.service"])
        #expect(verified.status == 0 && verified.stderr.isEmpty, "\(verified.stdout) \(verified.stderr)")
        let rated = try runCommand("/usr/bin/systemd-analyze", ["security", "--offline=true", "--no-pager", dir + "/ears.service"])
        let summary = try #require(rated.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let match = try #require(summary.firstMatch(of: /: ([0-9.]+) (\w+)/), "\(summary)")
        #expect(try #require(Double(match.output.1)) <= 2.0, "\(summary)")
    }
}
