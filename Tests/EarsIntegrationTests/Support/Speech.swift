import Foundation

/// Synthesized speech for tests: Debian's flite (and espeak-ng), converted by
/// sox to what a microphone would give ears. No person, no recording.
enum Speech {
    /// Says `text` with flite's `voice` into a 16 kHz mono S16 WAV at `path`,
    /// with `leadSeconds` of silence before and `tailSeconds` after.
    static func wav(_ text: String, voice: String = "rms", at path: String,
                    leadSeconds: Double = 0.5, tailSeconds: Double = 1.0) throws {
        let raw = path + ".flite.wav"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let said = try runCommand("/usr/bin/flite", ["-voice", voice, "-t", text, "-o", raw])
        guard said.status == 0 else { throw SpeechError(detail: "flite failed: \(said.stderr)") }
        let converted = try runCommand("/usr/bin/sox", [raw, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer",
                                                        path, "pad", String(leadSeconds), String(tailSeconds)])
        guard converted.status == 0 else { throw SpeechError(detail: "sox failed: \(converted.stderr)") }
    }

    /// Raw S16_LE 16 kHz mono samples of a WAV made by `wav` (or any file sox reads).
    static func rawSamples(of path: String) throws -> Data {
        let raw = path + ".raw"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let converted = try runCommand("/usr/bin/sox", [path, "-t", "raw", "-r", "16000", "-c", "1", "-b", "16",
                                                        "-e", "signed-integer", "-L", raw])
        guard converted.status == 0 else { throw SpeechError(detail: "sox failed: \(converted.stderr)") }
        return try Data(contentsOf: URL(fileURLWithPath: raw))
    }

    /// Duration of an audio file in seconds (soxi).
    static func duration(of path: String) throws -> Double {
        let result = try runCommand("/usr/bin/soxi", ["-D", path])
        guard let seconds = Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SpeechError(detail: "soxi could not read \(path)")
        }
        return seconds
    }
}

struct SpeechError: Error, CustomStringConvertible {
    var detail: String
    var description: String { detail }
}
