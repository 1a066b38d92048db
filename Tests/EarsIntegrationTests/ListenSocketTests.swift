import Foundation
import Synchronization
import Testing

/// The listen socket with the reference `wyoming` package (PyPI) as the
/// client: a real peer no one here wrote.
@Suite(.serialized) struct ListenSocketTests {
    private static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/wyoming_client.py").path

    /// Runs the Python client in the background; returns a handle to its output.
    private func startClient(_ socket: String, arguments: [String] = []) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.client, socket, "--timeout", "40"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, pipe)
    }

    private func events(_ data: Data) -> [[String: Any]] {
        String(decoding: data, as: UTF8.self).split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    private func run(earText: Bool) throws -> (events: [[String: Any]], status: [String: Any]?, log: [String]) {
        let dir = try scratchDirectory("listen-socket")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: "[listen]\near_text = \(earText ? "on" : "off")\n", mic: mic)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/status.sock"
        let (client, pipe) = try startClient(dir + "/run/listen.sock")
        defer { if client.isRunning { client.terminate() } }
        usleep(1_000_000) // the client connects and describes
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: dir + "/call.wav")
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        client.waitUntilExit()
        #expect(client.terminationStatus == 0, "client exit \(client.terminationStatus): \(String(decoding: output, as: UTF8.self))")
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/run/listen.sock")[.posixPermissions] as? Int
        #expect(mode == 0o660)
        return (events(output), waitForStatus(socket, within: 5) { _ in true }, daemon.output)
    }

    @Test func aConsumerGetsDetectionThenTheCaptureAsAudioEvents() throws {
        let (events, status, log) = try run(earText: false)
        let types = events.map { $0["type"] as? String ?? "" }
        #expect(types.first == "info")
        #expect((events.first?["wake_phrases"] as? [String]) == ["hey cordelia"])
        let detection = try #require(events.first { $0["type"] as? String == "detection" }, "\(types)")
        #expect((detection["data"] as? [String: Any])?["name"] as? String == "hey cordelia")
        let start = try #require(events.first { $0["type"] as? String == "audio-start" })
        let format = start["data"] as? [String: Any]
        #expect(format?["rate"] as? Int == 16_000 && format?["width"] as? Int == 2 && format?["channels"] as? Int == 1)
        let samples = events.filter { $0["type"] as? String == "audio-chunk" }.reduce(0) { $0 + ($1["samples"] as? Int ?? 0) }
        // The 3 s pre-roll (the phrase itself) and what followed, never past the 20 s cap.
        #expect(samples >= 48_000 && samples <= 320_000, "\(samples) samples")
        #expect(types.last == "audio-stop")
        #expect(!types.contains("transcript"), "ear text is off, yet the transcript was sent")
        #expect(status?["heard_shown"] as? Bool == false)
        #expect(status?["captures"] as? Int == 1)
        #expect((status?["dropped_chunks"] as? [String: Int])?["listen_socket"] == 0)
        for word in ["dinner", "tonight"] { #expect(!log.joined().lowercased().contains(word)) }
    }

    @Test func theEarTextSwitchSendsTheTranscriptToTheListenSocketOnly() throws {
        let (events, status, log) = try run(earText: true)
        let transcripts = events.filter { $0["type"] as? String == "transcript" }
        #expect(!transcripts.isEmpty, "\(events.map { $0["type"] as? String ?? "" })")
        #expect(status?["heard_shown"] as? Bool == true)
        // The status socket and the log still carry no words.
        let statusText = String(describing: status ?? [:]).lowercased()
        for word in ["dinner", "tonight"] {
            #expect(!statusText.contains(word))
            #expect(!log.joined().lowercased().contains(word))
        }
    }
}
