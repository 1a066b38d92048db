import Foundation
import Testing

/// ears as the wake service of a real wyoming-satellite 1.0.0 (PyPI), the
/// program a Home Assistant voice satellite runs. The test plays Home
/// Assistant (Support/satellite_ha.py): it attaches to the satellite with
/// `describe` and `run-satellite`, a flite phrase reaches the satellite's
/// microphone command, and the satellite, told by ears over `--wake-uri`
/// that the wake word was heard, asks for a pipeline from speech on
/// (`run-pipeline`, start stage `asr`) and streams the audio after it.
///
/// The satellite 1.0.0 never sends `audio-start` to its wake service (only
/// `detect`, then bare `audio-chunk`s), and sends `detect` again in the middle
/// of the stream after each pipeline: the test proves ears takes both.
@Suite(.serialized, .enabled(if: WyomingPeers.installed, "needs wyoming-satellite in .deps (make wyoming-peers-setup)"))
struct WyomingSatelliteTests {
    /// What the harness printed, one JSON object a line.
    private func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// How the satellite reaches ears: TCP on 127.0.0.1 or a Unix socket.
    enum Transport: String, CaseIterable, Sendable {
        case tcp, unix

        /// The `[wyoming] uri` for a daemon whose scratch directory is `dir`.
        func uri(in dir: String) throws -> String {
            switch self {
            case .tcp: return "tcp://127.0.0.1:\(try WyomingPeers.freePort())"
            case .unix: return "unix://\(dir)/run/wake.sock"
            }
        }
    }

    /// Runs the Home Assistant harness against a satellite whose wake service
    /// is ears (phrase "hey jarvis") over `transport`, with `spoken` in the microphone.
    private func session(saying spoken: String, over transport: Transport = .tcp, timeoutSeconds: Int)
        throws -> (result: CommandResult, lines: [[String: Any]], remote: [String: Any]?, log: [String]) {
        let dir = try scratchDirectory("satellite")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let config = "[wake]\nphrase = hey jarvis\n[wyoming]\nuri = \(try transport.uri(in: dir))\nzeroconf = off\n"
        let (daemon, address) = try WyomingPeers.earsWakeServiceAddress(in: dir, config: config, mic: mic)
        defer { _ = daemon.terminate() }
        try WyomingPeers.rawSpeech(spoken, at: dir + "/mic.raw")
        let result = try runCommand(WyomingPeers.satellitePython, [
            WyomingPeers.satelliteHarness, "--wake-uri", address, "--audio", dir + "/mic.raw",
            "--wake-word-name", "hey jarvis", "--timeout", String(timeoutSeconds),
        ])
        let remote = waitForStatus(dir + "/run/status.sock", within: 5) { _ in true }?["remote"] as? [String: Any]
        return (result, lines(result.stdout), remote, daemon.output)
    }

    @Test("the satellite's wake fires on the phrase, and it asks Home Assistant for a pipeline from speech on",
          arguments: Transport.allCases)
    func satelliteWakesOnThePhrase(over transport: Transport) throws {
        let (result, lines, remote, log) = try session(saying: "hey jarvis", over: transport, timeoutSeconds: 40)
        #expect(result.status == 0, "harness exit \(result.status): \(result.stdout) \(result.stderr) ears: \(log)")
        let info = lines.first { $0["from"] as? String == "satellite" && $0["type"] as? String == "info" }
        #expect(info?["satellite"] as? String == "ears test satellite")
        // Home Assistant's connection: the pipeline request, from speech on (the wake word was local).
        let pipeline = try #require(lines.first { $0["from"] as? String == "satellite" && $0["type"] as? String == "run-pipeline" },
                                    "\(lines)")
        #expect((pipeline["data"] as? [String: Any])?["start_stage"] as? String == "asr")
        // The event service: ears' detection as the satellite received it, with the phrase as its name.
        let detection = try #require(lines.first { $0["from"] as? String == "event-service" && $0["type"] as? String == "detection" },
                                     "\(lines)")
        #expect((detection["data"] as? [String: Any])?["name"] as? String == "hey jarvis")
        // After run-pipeline the satellite streamed to the server, not to ears.
        // (The harness's own result line; the event service may print after it while the satellite stops.)
        let done = try #require(lines.first { $0["result"] != nil }, "\(lines)")
        #expect(done["result"] as? String == "detected")
        #expect((done["streamed_chunks"] as? Int ?? 0) >= 3)
        // ears counted the satellite's stream as a remote one, and its detection.
        #expect((remote?["connections_total"] as? Int ?? 0) >= 1, "\(String(describing: remote))")
        #expect((remote?["detections"] as? Int ?? 0) >= 1, "\(String(describing: remote))")
    }

    @Test("other speech in the microphone never wakes the satellite")
    func otherSpeechDoesNotWake() throws {
        let (result, lines, remote, _) = try session(saying: "the weather is nice today", timeoutSeconds: 12)
        #expect(result.status == 2, "harness exit \(result.status): \(result.stdout) \(result.stderr)")
        #expect(!lines.contains { $0["type"] as? String == "run-pipeline" })
        #expect(!lines.contains { $0["type"] as? String == "detection" })
        // The satellite did stream to ears: the silence was heard, not missed.
        #expect((remote?["audio_s"] as? Double ?? 0) > 1, "\(String(describing: remote))")
    }
}
