import Foundation
import Testing

/// `ears scan A B C` loads the engine once and reads the files one after the
/// other; each file must still get the result it gets when scanned alone, in
/// any order. (The engines adapt to what they hear — PocketSphinx's live
/// cepstral mean and noise estimate, Vosk's feature pipeline — and before the
/// fix that adaptation leaked from one file into the next: the same files
/// woke on different files forwards and backwards.)
@Suite(.serialized) struct ScanOrderTests {
    /// One wake as the scan prints it, without the file.
    private struct Wake: Equatable, CustomStringConvertible {
        var phrase: String
        var t: Double
        var score: Double
        var piece: String
        var description: String { "\(phrase) at \(t) s (score \(score), \(piece))" }
    }

    /// Every wake line of a `scan --json` output, grouped by file.
    private func wakesByFile(_ output: String) -> [String: [Wake]] {
        var found: [String: [Wake]] = [:]
        for line in output.split(separator: "\n") {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  object["event"] as? String == "wake", let file = object["file"] as? String else { continue }
            found[file, default: []].append(Wake(phrase: object["phrase"] as? String ?? "", t: object["t"] as? Double ?? -1,
                                                 score: object["score"] as? Double ?? -1, piece: object["piece"] as? String ?? ""))
        }
        return found
    }

    /// Scans `files` forwards, backwards and each alone with `arguments`, and
    /// expects the same wakes for every file all three ways. Returns the wakes
    /// of the files alone.
    @discardableResult
    private func expectSameWakesInAnyOrder(_ files: [String], arguments: [String],
                                           environment: [String: String] = [:]) throws -> [String: [Wake]] {
        func scan(_ these: [String]) throws -> [String: [Wake]] {
            let result = try runCommand(earsBinary, ["scan", "--json"] + arguments + these, environment: environment)
            try #require(result.status == 0, "ears scan \(these) failed: \(result.stderr)")
            return wakesByFile(result.stdout)
        }
        let forwards = try scan(files)
        let backwards = try scan(files.reversed())
        var alone: [String: [Wake]] = [:]
        for file in files { alone[file] = try scan([file])[file] ?? [] }
        for file in files {
            let name = (file as NSString).lastPathComponent
            let expected = alone[file] ?? []
            #expect(forwards[file] ?? [] == expected, "\(name) forwards: \(forwards[file] ?? []), alone: \(expected)")
            #expect(backwards[file] ?? [] == expected, "\(name) backwards: \(backwards[file] ?? []), alone: \(expected)")
        }
        return alone
    }

    @Test func pocketSphinxGivesEachFileItsOwnResultWhateverCameBefore() throws {
        let dir = try scratchDirectory("scan-order")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Different voices, with and without the phrase, and one call in pink
        // noise: material that moves the engine's channel estimate around.
        try Speech.wav("hey cordelia, what's for dinner tonight", voice: "rms", at: dir + "/a.wav")
        try Speech.wav("the weather will be cold and windy tomorrow, so bring a coat", voice: "slt", at: dir + "/b.wav")
        try Speech.wav("hey cordelia, turn on the kitchen lights", voice: "awb", at: dir + "/c.wav")
        try Speech.wav("good morning, I would like a cup of coffee please", voice: "kal16", at: dir + "/d.wav")
        try Speech.wav("hey cordelia, play some music", voice: "slt", at: dir + "/e.wav")
        try Speech.wav("hey cordelia, what time is it", voice: "kal16", at: dir + "/f-clean.wav")
        let mixed = try runCommand("/usr/bin/sox", ["-m", dir + "/f-clean.wav",
                                                    "|/usr/bin/sox \(dir)/f-clean.wav -p synth pinknoise vol 0.03",
                                                    dir + "/f.wav"])
        try #require(mixed.status == 0, "sox failed: \(mixed.stderr)")
        let files = ["a", "b", "c", "d", "e", "f"].map { "\(dir)/\($0).wav" }

        let alone = try expectSameWakesInAnyOrder(files, arguments: [])
        // Not a vacuous comparison: the phrase is heard somewhere, and never in
        // the file without it.
        #expect(!alone.values.joined().isEmpty, "no file woke at all")
        #expect(alone[dir + "/b.wav"] ?? [] == [], "woke on the file without the phrase")
    }

    @Test func voskGivesEachFileItsOwnResultWhateverCameBefore() throws {
        let dir = try scratchDirectory("scan-order-vosk")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Korean.wav("코델리아 피파, 오늘 저녁 뭐 먹을까", voice: "ko", at: dir + "/k1.wav")
        try Korean.wav("오늘 저녁 뭐 먹을까, 내일 학교에 가요", voice: "ko+klatt", at: dir + "/k2.wav")
        try Korean.wav("코델리아 피파, 불 좀 켜 줘", voice: "ko+f2", at: dir + "/k3.wav")
        try Korean.wav("코델리아 피파, 음악 틀어 줘", voice: "ko+m3", at: dir + "/k4.wav")
        let files = ["k1", "k2", "k3", "k4"].map { "\(dir)/\($0).wav" }

        let alone = try expectSameWakesInAnyOrder(files, arguments: ["--engine", "vosk", "--phrase", "코델리아 피파"],
                                                  environment: try Korean.voskEnvironment())
        #expect(!alone.values.joined().isEmpty, "no file woke at all")
    }
}
