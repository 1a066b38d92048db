import Foundation
import Testing

/// The same Wyoming client script (Support/wake_shape_client.py: describe,
/// detect, audio-start, real-time audio-chunks, audio-stop) against the
/// reference wake service, PyPI wyoming-openwakeword 1.8.2 with its bundled
/// `hey_jarvis` model, and against ears with the phrase "hey jarvis": the
/// event sequences must have the same shape (event types in order, the key
/// sets of their data, the info's wake program and model key sets), for the
/// phrase and for other speech. Scores, timestamps and names are not
/// compared: the engines differ, the protocol must not.
@Suite(.serialized, .enabled(if: WyomingPeers.installed, "needs wyoming-openwakeword in .deps (make wyoming-peers-setup)"))
struct WyomingDifferentialTests {
    /// One event's shape as the client printed it.
    struct Shape: Equatable, CustomStringConvertible {
        var type: String
        var keys: Set<String>
        /// For `info`: each wake program's keys and its models' key sets.
        var programs: [Set<String>] = []
        var models: [Set<String>] = []

        var description: String {
            "\(type)\(keys.sorted())" + (programs.isEmpty ? "" : " programs \(programs.map { $0.sorted() }) models \(models.map { $0.sorted() })")
        }
    }

    /// Keys ears may add that wyoming 1.2.0 (openwakeword 1.8.2's pin) had
    /// no field for: the wyoming package ears follows (1.10.2) has an
    /// artifact `version` (programs and models) and a wake model's `phrase`.
    static let newerProtocolKeys: Set<String> = ["version", "phrase"]

    /// Parses the client's JSON into shapes and detection names; runs of the
    /// same shape collapse to one (openWakeWord sends a `detection` for every
    /// 80 ms frame over its threshold, ears one per phrase: the protocol says
    /// only that detections come, not how many).
    private func shapes(_ output: String) throws -> (shapes: [Shape], detections: [String]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "client said: \(output)")
        var result: [Shape] = []
        for event in object["events"] as? [[String: Any]] ?? [] {
            var shape = Shape(type: event["type"] as? String ?? "?", keys: Set(event["keys"] as? [String] ?? []))
            for program in event["wake"] as? [[String: Any]] ?? [] {
                shape.programs.append(Set(program["keys"] as? [String] ?? []))
                shape.models += (program["models"] as? [[String]] ?? []).map(Set.init)
            }
            if result.last != shape { result.append(shape) }
        }
        return (result, object["detections"] as? [String] ?? [])
    }

    /// Whether ears' `candidate` has the reference's shape: the same type,
    /// and the same keys except newer-protocol additions.
    private func sameShape(_ reference: Shape, _ candidate: Shape) -> Bool {
        func matches(_ want: Set<String>, _ have: Set<String>) -> Bool {
            want.isSubset(of: have) && have.subtracting(want).isSubset(of: Self.newerProtocolKeys)
        }
        guard reference.type == candidate.type, matches(reference.keys, candidate.keys),
              reference.programs.count == candidate.programs.count,
              zip(reference.programs, candidate.programs).allSatisfy({ matches($0, $1) }) else { return false }
        // Every model of both has the reference's model key set.
        guard let modelKeys = reference.models.first else { return candidate.models.isEmpty }
        return !candidate.models.isEmpty && candidate.models.allSatisfy { matches(modelKeys, $0) }
    }

    /// Runs the shape client against `uri` with `audio`, detect naming `names`.
    private func run(_ uri: String, _ audio: String, names: [String]) throws -> (shapes: [Shape], detections: [String]) {
        let result = try runCommand("/usr/bin/env", ["python3", WyomingPeers.shapeClient, uri, audio] + names.flatMap { ["--name", $0] })
        try #require(result.status == 0, "wake_shape_client exit \(result.status): \(result.stderr)")
        return try shapes(result.stdout)
    }

    @Test("describe, detect and a stream give ears' events the shape of wyoming-openwakeword's, phrase or not")
    func sameShapeAsOpenWakeWord() throws {
        let dir = try scratchDirectory("differential")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try WyomingPeers.rawSpeech("hey jarvis", at: dir + "/phrase.raw")
        try WyomingPeers.rawSpeech("the weather is nice today", at: dir + "/other.raw")

        // The reference: wyoming-openwakeword 1.8.2 with its bundled hey_jarvis model.
        let port = try WyomingPeers.freePort()
        let reference = try PeerProcess(WyomingPeers.openWakeWordPython, [
            "-m", "wyoming_openwakeword", "--uri", "tcp://127.0.0.1:\(port)", "--preload-model", "hey_jarvis",
        ])
        defer { reference.stop() }
        try #require(WyomingPeers.waitForListener(port: port, within: 30), "wyoming-openwakeword never listened on \(port)")
        let referencePhrase = try run("tcp://127.0.0.1:\(port)", dir + "/phrase.raw", names: ["hey_jarvis"])
        let referenceOther = try run("tcp://127.0.0.1:\(port)", dir + "/other.raw", names: ["hey_jarvis"])
        reference.stop()

        // ears, the same script, the phrase as text, over TCP and a Unix socket.
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let unix = "unix://\(dir)/run/wake.sock"
        let config = "[wake]\nphrase = hey jarvis\n[wyoming]\nuri = tcp://127.0.0.1:\(try WyomingPeers.freePort())\nuri = \(unix)\nzeroconf = off\n"
        let (daemon, earsPort) = try WyomingPeers.earsWakeService(in: dir, config: config, mic: mic)
        defer { _ = daemon.terminate() }

        // openWakeWord heard the phrase and nothing in the other speech (the
        // comparison is between like outcomes): info, then detection or not-detected.
        #expect(referencePhrase.detections.first?.hasPrefix("hey_jarvis") == true, "\(referencePhrase)")
        #expect(referenceOther.detections.isEmpty)
        #expect(referencePhrase.shapes.map(\.type) == ["info", "detection"], "\(referencePhrase.shapes)")
        #expect(referenceOther.shapes.map(\.type) == ["info", "not-detected"], "\(referenceOther.shapes)")
        for uri in ["tcp://127.0.0.1:\(earsPort)", unix] {
            let earsPhrase = try run(uri, dir + "/phrase.raw", names: ["hey jarvis"])
            let earsOther = try run(uri, dir + "/other.raw", names: ["hey jarvis"])
            #expect(earsPhrase.detections.first == "hey jarvis", "\(uri): \(earsPhrase)")
            #expect(earsOther.detections.isEmpty, "\(uri): \(earsOther)")
            for (reference, candidate) in [(referencePhrase.shapes, earsPhrase.shapes), (referenceOther.shapes, earsOther.shapes)] {
                #expect(reference.count == candidate.count && zip(reference, candidate).allSatisfy(sameShape),
                        "\(uri): openwakeword \(reference) vs ears \(candidate)")
            }
        }
    }
}
