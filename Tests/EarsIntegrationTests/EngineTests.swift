import Foundation
import Testing

/// The real PocketSphinx engine and the speech gate, through the binary, on
/// synthesized speech; and what happens when an engine's files are missing.
@Suite(.serialized) struct EngineTests {
    private func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// The transcript spotter (the design before keyphrase search, still a setting).
    @Test func partialResultsArriveBeforeTheFinalSoALongUtteranceWakesEarly() throws {
        let dir = try scratchDirectory("partials")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, please tell me what the weather will be like tomorrow morning in the city",
                       at: dir + "/long.wav")
        let duration = try Speech.duration(of: dir + "/long.wav")
        let result = try runCommand(earsBinary, ["scan", dir + "/long.wav", "--json", "--spotter", "transcript", "--verifier", "off"])
        let wakes = events(result.stdout).filter { $0["event"] as? String == "wake" }
        try #require(wakes.count == 1, "\(result.stdout)")
        // A volatile piece carried the phrase, long before the utterance (and its final) ended.
        #expect(wakes[0]["piece"] as? String == "volatile")
        #expect((wakes[0]["t"] as? Double ?? 99) < duration / 2)
    }

    @Test func theGateFeedsNothingForSilenceWhileTheMeterCountsEveryChunk() throws {
        let dir = try scratchDirectory("gate-silence")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let made = try runCommand("/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", dir + "/silence.wav", "trim", "0", "10"])
        try #require(made.status == 0)
        let gated = events(try runCommand(earsBinary, ["scan", dir + "/silence.wav", "--json"]).stdout).last ?? [:]
        #expect(gated["chunks"] as? Int == 100)
        #expect(gated["fed"] as? Int == 0)
        let ungated = events(try runCommand(earsBinary, ["scan", dir + "/silence.wav", "--json", "--speech-gate", "off"]).stdout).last ?? [:]
        #expect(ungated["fed"] as? Int == 100)
    }

    @Test func theGateKeepsSteadyNoiseFromTheTranscriber() throws {
        let dir = try scratchDirectory("gate-noise")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let made = try runCommand("/usr/bin/sox", ["-R", "-n", "-r", "16000", "-c", "1", "-b", "16", dir + "/noise.wav",
                                                   "synth", "20", "pinknoise", "vol", "0.05"])
        try #require(made.status == 0)
        let summary = events(try runCommand(earsBinary, ["scan", dir + "/noise.wav", "--json"]).stdout).last ?? [:]
        #expect(summary["chunks"] as? Int == 200)
        // The floor settles within the first second; after that nothing is fed.
        #expect((summary["fed"] as? Int ?? 999) <= 10, "\(summary)")
    }

    @Test func theFirstWordSurvivesTheGate() throws {
        let dir = try scratchDirectory("gate-onset")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // "hey" is the first word after 3 s of silence: without it, "cordelia"
        // alone scores 8/11 and cannot wake, so a wake proves the onset survived.
        try Speech.wav("hey cordelia, what time is it", at: dir + "/call.wav", leadSeconds: 3, tailSeconds: 1.5)
        #expect(PhraseScore.cordeliaAloneIsBelowThreshold)
        let result = try runCommand(earsBinary, ["scan", dir + "/call.wav", "--json"])
        let all = events(result.stdout)
        #expect(all.filter { $0["event"] as? String == "wake" }.count == 1, "\(result.stdout)")
        let summary = all.last ?? [:]
        #expect((summary["fed"] as? Int ?? 0) < (summary["chunks"] as? Int ?? 0), "the gate skipped nothing: \(summary)")
    }

    /// A configured model directory that does not exist is a configuration
    /// mistake (`ConfigValidationTests`); one that exists without the model
    /// in it yet closes the listener until the files appear.
    @Test func aMissingModelClosesWithItsSentenceAndOpensWhenTheModelAppears() throws {
        let dir = try scratchDirectory("model-appears")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let modelPath = dir + "/model"
        try FileManager.default.createDirectory(atPath: modelPath, withIntermediateDirectories: false)
        let daemon = try EarsDaemon(["listen", "--device", "cap", "--model", modelPath, "--runtime-dir", dir + "/run"],
                                    environment: mic.environment)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/status.sock"
        let closed = try #require(waitForStatus(socket, within: 10) { $0["phase"] as? String == "closed" }, "\(daemon.output)")
        let why = try #require(closed["closed_why"] as? String)
        #expect(why.hasPrefix("The pocketsphinx model is not installed at \(modelPath)"), "\(why)")

        let installed = "/usr/share/pocketsphinx/model/en-us"
        for entry in try FileManager.default.contentsOfDirectory(atPath: installed) {
            try FileManager.default.createSymbolicLink(atPath: modelPath + "/" + entry, withDestinationPath: installed + "/" + entry)
        }
        mic.startFeeding()
        let open = waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" }
        #expect(open != nil, "\(daemon.output)")
    }

    @Test func aMissingVoskLibraryClosesTheListenerWithTheInstallSentence() throws {
        let dir = try scratchDirectory("vosk-missing")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try EarsDaemon(["listen", "--engine", "vosk", "--device", "nosuch", "--runtime-dir", dir],
                                    environment: ["EARS_VOSK_LIBRARY": "/nonexistent/libvosk.so", "ALSA_CONFIG_PATH": "/dev/null"])
        defer { _ = daemon.terminate() }
        let closed = try #require(waitForStatus(dir + "/status.sock", within: 10) { $0["phase"] as? String == "closed" })
        let why = try #require(closed["closed_why"] as? String)
        #expect(why.contains("libvosk.so is not installed"), "\(why)")
        #expect(why.contains("make setup"), "\(why)")
        #expect(closed["engine"] as? String == "vosk")
    }

    @Test func modelStatusReportsEachEngineAsJSON() throws {
        let models = try scratchDirectory("model-status")
        defer { try? FileManager.default.removeItem(atPath: models) }
        let result = try runCommand(earsBinary, ["model", "status", "--json", "--models-dir", models],
                                    environment: ["EARS_VOSK_LIBRARY": "/nonexistent/libvosk.so"])
        #expect(result.status == 0, "the default engine is installed")
        let whole = try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any])
        let report = whole.compactMapValues { $0 as? [String: Any] }
        #expect(report["pocketsphinx"]?["status"] as? String == "installed")
        #expect(report["pocketsphinx"]?["path"] as? String == "/usr/share/pocketsphinx/model/en-us")
        #expect((report["pocketsphinx"]?["size_bytes"] as? Int ?? 0) > 1_000_000)
        #expect(report["vosk"]?["status"] as? String == "not_installed")
        #expect((report["vosk"]?["install"] as? String ?? "").contains("make setup"))
        // Each configured phrase says whether it has a trained model (an empty models directory: none).
        let phrases = try #require(whole["phrases"] as? [[String: Any]])
        #expect(phrases.map { $0["phrase"] as? String } == ["hey cordelia"])
        #expect(phrases.first?["status"] as? String == "not_trained")
        #expect((phrases.first?["hint"] as? String ?? "").contains("ears train"))

        let vosk = try runCommand(earsBinary, ["model", "status", "--engine", "vosk"],
                                  environment: ["EARS_VOSK_LIBRARY": "/nonexistent/libvosk.so"])
        #expect(vosk.status == 1, "the configured engine is not installed")
        #expect(vosk.stdout.contains("vosk (configured): not installed"))
    }
}

/// The arithmetic behind `theFirstWordSurvivesTheGate`, checked rather than assumed.
enum PhraseScore {
    /// "cordelia" is 8 of the 11 letters of "heycordelia": a score of 0.73 < 0.8.
    static let cordeliaAloneIsBelowThreshold = 1 - 3.0 / 11.0 < 0.8
}
