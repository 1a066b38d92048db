import Foundation
import Testing

/// `ears scan` on synthesized speech through the real PocketSphinx engine.
@Suite(.serialized) struct ScanTests {
    private func wakes(in output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["event"] as? String == "wake" }
    }

    @Test func aSpokenPhraseWakesOnceJustAfterItEnds() throws {
        let dir = try scratchDirectory("scan-phrase")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The phrase alone tells where it ends inside the longer sentence.
        try Speech.wav("hey cordelia", at: dir + "/phrase.wav", leadSeconds: 1.0, tailSeconds: 0)
        let phraseEnd = try Speech.duration(of: dir + "/phrase.wav")
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: dir + "/call.wav", leadSeconds: 1.0, tailSeconds: 1.0)

        let result = try runCommand(earsBinary, ["scan", dir + "/call.wav", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let found = wakes(in: result.stdout)
        try #require(found.count == 1, "expected one wake, got \(result.stdout)")
        let t = try #require(found[0]["t"] as? Double)
        #expect(found[0]["phrase"] as? String == "hey cordelia")
        #expect(t >= phraseEnd - 0.4 && t <= phraseEnd + 1.0, "wake at \(t) s, phrase ends at \(phraseEnd) s")
        let summary = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.contains("\"event\":\"summary\"") && summary.contains("\"wakes\":1"))
    }

    @Test func speechWithoutThePhraseWakesNothing() throws {
        let dir = try scratchDirectory("scan-none")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("the weather will be cold and windy tomorrow, so bring a coat", at: dir + "/other.wav")
        let result = try runCommand(earsBinary, ["scan", dir + "/other.wav", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(wakes(in: result.stdout).isEmpty, "\(result.stdout)")
        #expect(result.stdout.contains("\"wakes\":0"))
    }

    @Test func aBrokenFileFailsAloneAndTheOthersStillScan() throws {
        let dir = try scratchDirectory("scan-broken")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "this is not audio".write(toFile: dir + "/broken.wav", atomically: true, encoding: .utf8)
        try Speech.wav("hey cordelia, turn on the lights", at: dir + "/good.wav")
        let result = try runCommand(earsBinary, ["scan", dir + "/broken.wav", dir + "/good.wav", "--json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("broken.wav"))
        #expect(result.stdout.contains("\"event\":\"error\""))
        let found = wakes(in: result.stdout)
        #expect(found.count == 1)
        #expect((found.first?["file"] as? String)?.hasSuffix("good.wav") == true)
    }

    @Test func anUnreadableFileAloneGivesOnlyItsErrorAndExitOne() throws {
        let result = try runCommand(earsBinary, ["scan", "/nonexistent/call.wav"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "no summary for a scan that read nothing: \(result.stdout)")
        #expect(result.stderr.contains("ears scan: The audio file '/nonexistent/call.wav' could not be read"), "\(result.stderr)")
    }

    @Test func plainOutputNamesTheRouteThatHeardTheWake() throws {
        let dir = try scratchDirectory("scan-route")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, turn on the lights", at: dir + "/call.wav")
        let result = try runCommand(earsBinary, ["scan", "--models-dir", dir, dir + "/call.wav"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("call.wav: wake \"hey cordelia\" at ") && result.stdout.contains("(acoustic route, score "),
                "\(result.stdout)")
        let json = try runCommand(earsBinary, ["scan", "--json", "--models-dir", dir, dir + "/call.wav"])
        #expect(wakes(in: json.stdout).first?["route"] as? String == "acoustic", "\(json.stdout)")
    }

    @Test func filesAtOtherRatesAndChannelCountsAreConverted() throws {
        let dir = try scratchDirectory("scan-rates")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, what time is it", at: dir + "/mono16.wav")
        let converted = try runCommand("/usr/bin/sox", [dir + "/mono16.wav", "-r", "44100", "-c", "2", dir + "/stereo44.flac"])
        try #require(converted.status == 0)
        let result = try runCommand(earsBinary, ["scan", dir + "/stereo44.flac", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(wakes(in: result.stdout).count == 1, "\(result.stdout)")
    }

    @Test func aPhraseGivenOnTheCommandLineReplacesTheDefault() throws {
        let dir = try scratchDirectory("scan-phrase-flag")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Both phrases are said: with the default only "hey cordelia" wakes,
        // with --phrase only the new one does (it replaces, it does not add).
        try Speech.wav("hey cordelia. okay jarvis, open the door", at: dir + "/call.wav")
        let replaced = wakes(in: try runCommand(earsBinary, ["scan", dir + "/call.wav", "--json", "--phrase", "okay jarvis"]).stdout)
        #expect(replaced.map { $0["phrase"] as? String } == ["okay jarvis"], "\(replaced)")
        let defaults = wakes(in: try runCommand(earsBinary, ["scan", dir + "/call.wav", "--json"]).stdout)
        #expect(defaults.map { $0["phrase"] as? String } == ["hey cordelia"], "\(defaults)")
    }
}

/// Phonetic matching through the real engine: flite's slt voice says "hey
/// cordelia" and PocketSphinx's transcriber (the `transcript` spotter, which
/// matches text) writes sound-alike words; sounds still match.
@Suite struct PhoneticScanTests {
    private let transcript = ["--spotter", "transcript", "--verifier", "off", "--noise-suppression", "off"]

    @Test func aSoundAlikeTranscriptWakesByPhonesButNotByLetters() throws {
        let dir = try scratchDirectory("phonetic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, what's for dinner tonight", voice: "slt", at: dir + "/slt.wav", leadSeconds: 0.5, tailSeconds: 0.5)
        let phonetic = try runCommand(earsBinary, ["scan", dir + "/slt.wav", "--json", "--matching", "phonetic"] + transcript)
        let letters = try runCommand(earsBinary, ["scan", dir + "/slt.wav", "--json", "--matching", "letters"] + transcript)
        #expect(phonetic.stdout.contains("\"wakes\":1"), "\(phonetic.stdout)")
        #expect(letters.stdout.contains("\"wakes\":0"), "\(letters.stdout)")
    }
}
