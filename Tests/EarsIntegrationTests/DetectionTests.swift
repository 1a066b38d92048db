import Foundation
import Testing

/// Acoustic detection through the real engine: the keyphrase spotter, the
/// noise front end and the verifier, on synthesized speech (flite).
@Suite(.serialized) struct DetectionTests {
    private func lines(_ output: String, event: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["event"] as? String == event }
    }

    /// RMS amplitude of a WAV, from `sox FILE -n stat`.
    private func rms(_ path: String) throws -> Double {
        let result = try runCommand("/usr/bin/sox", [path, "-n", "stat"])
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude") })
        return try #require(Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
    }

    /// `speech` mixed with pink noise at `snr` dB (speech RMS over noise RMS).
    private func withPinkNoise(_ speech: String, snr: Double, to out: String) throws {
        let noise = out + ".noise.wav"
        let seconds = try Speech.duration(of: speech)
        try #require(try runCommand("/usr/bin/sox", ["-R", "-n", "-r", "16000", "-b", "16", "-c", "1", noise, "synth", "\(seconds)", "pinknoise", "vol", "0.3"]).status == 0)
        let gain = try rms(speech) / (try rms(noise) * pow(10, snr / 20))
        try #require(try runCommand("/usr/bin/sox", ["-m", "-v", "1", speech, "-v", "\(gain)", noise, out]).status == 0)
    }

    @Test func aPhraseUnderTenDecibelsOfPinkNoiseWakes() throws {
        let dir = try scratchDirectory("detect-noise")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, what time is it", at: dir + "/clean.wav", leadSeconds: 1.0, tailSeconds: 1.0)
        try withPinkNoise(dir + "/clean.wav", snr: 10, to: dir + "/noisy.wav")
        let result = try runCommand(earsBinary, ["scan", "--json", dir + "/noisy.wav"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(result.stdout, event: "wake").count == 1, "\(result.stdout)")
    }

    @Test(arguments: [("hey cornelia, nice to see you", "hey cordelia"), ("okay jennifer, nice to see you", "okay juniper")])
    func aSoundAlikeDoesNotWakeThePhrase(sentence: String, phrase: String) throws {
        let dir = try scratchDirectory("detect-alike")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav(sentence, at: dir + "/alike.wav", leadSeconds: 1.0, tailSeconds: 1.0)
        let result = try runCommand(earsBinary, ["scan", "--json", "--phrase", phrase, dir + "/alike.wav"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(result.stdout, event: "wake").isEmpty, "\(result.stdout)")
    }

    @Test func noiseSuppressionOffInTheConfigurationIsHonoured() throws {
        let dir = try scratchDirectory("detect-ns")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia", at: dir + "/phrase.wav")
        for (setting, expected) in [("off", "off"), ("on", "speexdsp -20 dB")] {
            try "[audio]\nnoise_suppression = \(setting)\nnoise_suppression_db = -20\n".write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)
            let result = try runCommand(earsBinary, ["scan", "--json", "--config", dir + "/ears.conf", dir + "/phrase.wav"])
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try #require(lines(result.stdout, event: "summary").first)
            #expect(summary["noise_suppression"] as? String == expected)
        }
    }

    @Test func aBadNoiseSuppressionLevelExits78WithFileAndLine() throws {
        let dir = try scratchDirectory("detect-bad-level")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[audio]\nnoise_suppression = on\nnoise_suppression_db = +6\n".write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)
        for command in [["check-config"], ["listen"]] {
            let result = try runCommand(earsBinary, command + ["--config", dir + "/ears.conf"])
            #expect(result.status == 78)
            #expect(result.stderr.contains(dir + "/ears.conf:3:"), "\(result.stderr)")
        }
    }

    @Test func theVerifierRefusesAndCountsWhenItsThresholdIsOutOfReach() throws {
        let dir = try scratchDirectory("detect-verifier")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, turn on the lights", at: dir + "/call.wav", leadSeconds: 1.0, tailSeconds: 1.0)
        let strict = try runCommand(earsBinary, ["scan", "--candidates", "--verifier-threshold", "0.99", dir + "/call.wav"])
        let candidates = lines(strict.stdout, event: "candidate")
        try #require(!candidates.isEmpty, "the spotter found no candidate: \(strict.stdout)")
        let passing = candidates.filter { ($0["score"] as? Double ?? 0) >= 0.99 && $0["competitor_wins"] as? Bool == false }
        #expect(lines(strict.stdout, event: "wake").count == passing.count)
        let summary = try #require(lines(strict.stdout, event: "summary").first)
        #expect(summary["refused"] as? Int == candidates.count - passing.count)
        let off = try runCommand(earsBinary, ["scan", "--json", "--verifier", "off", dir + "/call.wav"])
        #expect(lines(off.stdout, event: "wake").count == 1, "\(off.stdout)")
    }
}
