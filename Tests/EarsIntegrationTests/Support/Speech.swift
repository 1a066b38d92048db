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
    /// RMS amplitude of a WAV, from `sox FILE -n stat`.
    static func rms(_ path: String) throws -> Double {
        let result = try runCommand("/usr/bin/sox", [path, "-n", "stat"])
        guard let line = result.stderr.split(separator: "\n").first(where: { $0.hasPrefix("RMS     amplitude") }),
              let value = Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) else {
            throw SpeechError(detail: "sox stat gave no RMS for \(path)")
        }
        return value
    }

    /// `speech` mixed with pink noise at `snr` dB (speech RMS over noise RMS), written to `out`.
    static func withPinkNoise(_ speech: String, snr: Double, to out: String) throws {
        let noise = out + ".noise.wav"
        let seconds = try duration(of: speech)
        let made = try runCommand("/usr/bin/sox", ["-R", "-n", "-r", "16000", "-b", "16", "-c", "1", noise, "synth", "\(seconds)",
                                                   "pinknoise", "vol", "0.3"])
        guard made.status == 0 else { throw SpeechError(detail: "sox could not make pink noise: \(made.stderr)") }
        let gain = try rms(speech) / (try rms(noise) * pow(10, snr / 20))
        let mixed = try runCommand("/usr/bin/sox", ["-R", "-m", "-v", "1", speech, "-v", "\(gain)", noise, out])
        guard mixed.status == 0 else { throw SpeechError(detail: "sox could not mix: \(mixed.stderr)") }
    }

    /// `speech` under babble at `snr` dB: `talkers` (text and flite voice)
    /// each said, padded to the speech's length, summed, and mixed in as
    /// `withPinkNoise` mixes its noise. Several people talking at once, as a
    /// room with a television or a party gives.
    static func withBabble(_ speech: String, talkers: [(text: String, voice: String)], snr: Double, to out: String) throws {
        let seconds = try duration(of: speech)
        var parts: [String] = []
        defer { for part in parts { try? FileManager.default.removeItem(atPath: part) } }
        for (index, talker) in talkers.enumerated() {
            let said = out + ".talker\(index).wav", fitted = out + ".fitted\(index).wav"
            parts += [said, fitted]
            try wav(talker.text, voice: talker.voice, at: said, leadSeconds: 0.1 * Double(index), tailSeconds: seconds)
            let trimmed = try runCommand("/usr/bin/sox", [said, fitted, "trim", "0", "\(seconds)"])
            guard trimmed.status == 0 else { throw SpeechError(detail: "sox could not trim: \(trimmed.stderr)") }
        }
        let babble = out + ".babble.wav"
        parts.append(babble)
        let summed = try runCommand("/usr/bin/sox", ["-m"] + parts.filter { $0.contains(".fitted") } + [babble])
        guard summed.status == 0 else { throw SpeechError(detail: "sox could not sum the talkers: \(summed.stderr)") }
        let gain = try rms(speech) / (try rms(babble) * pow(10, snr / 20))
        let mixed = try runCommand("/usr/bin/sox", ["-m", "-v", "1", speech, "-v", "\(gain)", babble, out])
        guard mixed.status == 0 else { throw SpeechError(detail: "sox could not mix: \(mixed.stderr)") }
    }

    /// The JSON lines of `output` whose `event` is `event`.
    static func events(_ output: String, _ event: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["event"] as? String == event }
    }
}

struct SpeechError: Error, CustomStringConvertible {
    var detail: String
    var description: String { detail }
}
