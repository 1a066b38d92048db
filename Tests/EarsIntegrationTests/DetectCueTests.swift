import Foundation
import Testing

/// The immediate cue: `[capture] on_detect` and `awake_sound`, through
/// `ears listen` on the file-backed ALSA device with synthesized speech.
@Suite(.serialized) struct DetectCueTests {
    /// Writes an executable script at `dir/name`; returns its path.
    private func script(_ dir: String, _ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// The call every test speaks: the phrase, then a request.
    private func call(_ dir: String) throws -> Data {
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: dir + "/call.wav")
        return try Speech.rawSamples(of: dir + "/call.wav")
    }

    @Test("on_detect runs while the capture is still going, with the phrase, score and time and no audio")
    func onDetectRunsBeforeTheCaptureEnds() throws {
        let dir = try scratchDirectory("cue-detect")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let detect = try script(dir, "detect.sh", """
        #!/bin/sh
        date +%s.%N > "\(dir)/detect-time.txt"
        echo "$EARS_PHRASE|$EARS_SCORE|$EARS_DETECTED_AT|$(wc -c)" > "\(dir)/detect.tmp"
        env > "\(dir)/detect-env.txt"
        mv "\(dir)/detect.tmp" "\(dir)/detect.txt"
        """)
        let wake = try script(dir, "wake.sh", "#!/bin/sh\ncat > /dev/null\ndate +%s.%N > \"\(dir)/wake-time.txt\"\n")
        let daemon = try EarsDaemon.listening(in: dir, config: "[capture]\non_detect = \(detect)\non_wake = \(wake)\n", mic: mic)
        defer { _ = daemon.terminate() }
        mic.enqueue(Data(count: 32_000))
        mic.enqueue(try call(dir))

        // The moment the on_detect hook has written its line, the capture it
        // belongs to has not ended: on_wake (run at the capture's end) has not run.
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: dir + "/detect.txt") && Date() < deadline { usleep(20_000) }
        try #require(FileManager.default.fileExists(atPath: dir + "/detect.txt"), "on_detect never ran: \(daemon.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/wake-time.txt"), "on_wake ran before on_detect was seen")

        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 30) { (($0["hook"] as? [String: Any])?["runs"] as? Int) == 1 } != nil,
                     "\(daemon.output)")
        let detectedAt = Double(try String(contentsOfFile: dir + "/detect-time.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity
        let captureEnded = Double(try String(contentsOfFile: dir + "/wake-time.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        // The capture runs on past the phrase ("what's for dinner tonight?" and the closing silence).
        #expect(detectedAt < captureEnded - 0.5, "on_detect at \(detectedAt), capture's end at \(captureEnded)")

        let fields = try String(contentsOfFile: dir + "/detect.txt", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        try #require(fields.count == 4, "\(fields)")
        #expect(fields[0] == "hey cordelia")
        let score = Double(fields[1]) ?? -1
        #expect(score > 0 && score <= 1, "EARS_SCORE \(fields[1])")
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let stamp = try #require(try? iso.parse(fields[2]), "EARS_DETECTED_AT \(fields[2])")
        #expect(abs(stamp.timeIntervalSince1970 - detectedAt) < 2)
        // Nothing heard reaches the hook: its stdin is empty, and nothing in
        // its environment carries the words after the phrase.
        #expect(fields[3].trimmingCharacters(in: .whitespaces) == "0", "stdin had \(fields[3]) bytes")
        let environment = try String(contentsOfFile: dir + "/detect-env.txt", encoding: .utf8)
        #expect(!environment.lowercased().contains("dinner"))
        #expect(!environment.contains("NOTIFY_SOCKET="))
        #expect(daemon.output.contains { $0.hasPrefix("info: on_detect \(detect) exited 0") }, "\(daemon.output)")
    }

    @Test("an on_detect that hangs is killed at the timeout, a detection meanwhile is said, and listening goes on")
    func aHangingOnDetectIsKilledAndListeningGoesOn() throws {
        let dir = try scratchDirectory("cue-hang")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let hang = try script(dir, "hang.sh", "#!/bin/sh\necho run >> \"\(dir)/runs.txt\"\nexec sleep 60\n")
        let daemon = try EarsDaemon.listening(in: dir, config: "[capture]\non_detect = \(hang)\nhook_timeout_seconds = 6\nsilence_seconds = 0.3\n", mic: mic)
        defer { _ = daemon.terminate() }
        let speech = try call(dir)
        let second = Data(count: 32_000)
        // Two calls 1 s apart (the second while the first hook hangs), then
        // one after the kill.
        mic.enqueue(second)
        mic.enqueue(speech)
        mic.enqueue(second)
        mic.enqueue(speech)
        mic.enqueue(Data(count: 32_000 * 8))
        mic.enqueue(speech)

        let skipped = daemon.waitForLine(within: 30) { $0.contains("still running from the last detection") }
        #expect(skipped?.hasPrefix("warning: on_detect \(hang)") == true, "\(daemon.output)")
        let killed = daemon.waitForLine(within: 20) { $0.contains("on_detect") && $0.contains("was killed") }
        #expect(killed?.hasPrefix("warning: on_detect \(hang) ran past 6 s and was killed") == true, "\(daemon.output)")
        // After the kill the next detection starts the hook again.
        let deadline = Date().addingTimeInterval(30)
        var runs = 0
        while Date() < deadline {
            runs = ((try? String(contentsOfFile: dir + "/runs.txt", encoding: .utf8)) ?? "").split(separator: "\n").count
            if runs >= 2 { break }
            usleep(100_000)
        }
        #expect(runs == 2, "\(daemon.output)")
        #expect(daemon.output.filter { $0.hasPrefix("notice: wake") }.count == 3, "\(daemon.output)")
        // The audio loop never waited for the hook.
        let status = waitForStatus(dir + "/run/status.sock", within: 5) { $0["phase"] as? String == "listening" }
        #expect((status?["ear"] as? [String: Any])?["since_audio_s"] as? Double ?? 99 < 1)
    }

    /// A WAV of `samples` (mono 16-bit at `rate`).
    private func wavBytes(_ samples: [Int16], rate: UInt32) -> Data {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let body = samples.flatMap { le16(UInt16(bitPattern: $0)) }
        var bytes = Array("RIFF".utf8) + le32(UInt32(36 + body.count)) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16)
        bytes += Array("data".utf8) + le32(UInt32(body.count)) + body
        return Data(bytes)
    }

    @Test("awake_sound plays the WAV's samples on the configured ALSA playback device at a detection")
    func awakeSoundIsPlayed() throws {
        let dir = try scratchDirectory("cue-sound")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        // A playback device without a sound card: the file plugin writes
        // what is played into played.raw.
        let played = dir + "/played.raw"
        let handle = try #require(FileHandle(forWritingAtPath: mic.configPath))
        handle.seekToEndOfFile()
        handle.write(Data("\npcm.cue {\n    type file\n    slave.pcm { type null }\n    file \"\(played)\"\n    format \"raw\"\n}\n".utf8))
        try handle.close()
        // 0.25 s of a 660 Hz tone at 22.05 kHz: a rate unlike the microphone's.
        let samples = (0..<5_512).map { Int16(8_000 * sin(2 * Double.pi * 660 * Double($0) / 22_050)) }
        try wavBytes(samples, rate: 22_050).write(to: URL(fileURLWithPath: dir + "/cue.wav"))

        let daemon = try EarsDaemon.listening(in: dir, config: "[capture]\nawake_sound = \(dir)/cue.wav\nawake_sound_device = cue\n", mic: mic)
        defer { _ = daemon.terminate() }
        #expect(!FileManager.default.fileExists(atPath: played), "the sound played before any detection")
        mic.enqueue(Data(count: 32_000))
        mic.enqueue(try call(dir))
        try #require(daemon.waitForLine(within: 30) { $0.hasPrefix("notice: wake") } != nil, "\(daemon.output)")
        let expected = Data(samples.flatMap { [UInt8(UInt16(bitPattern: $0) & 0xFF), UInt8(UInt16(bitPattern: $0) >> 8)] })
        let deadline = Date().addingTimeInterval(10)
        var written = Data()
        while Date() < deadline {
            written = (try? Data(contentsOf: URL(fileURLWithPath: played))) ?? Data()
            if written.count >= expected.count { break }
            usleep(50_000)
        }
        #expect(written.count >= expected.count, "played \(written.count) of \(expected.count) bytes: \(daemon.output)")
        #expect(written.prefix(expected.count) == expected, "the device did not receive the WAV's samples")
        #expect(!daemon.output.contains { $0.contains("awake sound") && $0.hasPrefix("warning:") }, "\(daemon.output)")
    }

    @Test("a playback device that cannot play is said once, and every wake still comes")
    func aBrokenPlaybackDeviceIsSaidOnce() throws {
        let dir = try scratchDirectory("cue-nodevice")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        try wavBytes([0, 1000, -1000, 0], rate: 16_000).write(to: URL(fileURLWithPath: dir + "/cue.wav"))
        let daemon = try EarsDaemon.listening(in: dir, config: "[capture]\nawake_sound = \(dir)/cue.wav\nawake_sound_device = nosuchpcm\n", mic: mic)
        defer { _ = daemon.terminate() }
        let speech = try call(dir)
        mic.enqueue(Data(count: 32_000))
        mic.enqueue(speech)
        mic.enqueue(Data(count: 32_000))
        mic.enqueue(speech)
        let deadline = Date().addingTimeInterval(40)
        while daemon.output.filter({ $0.hasPrefix("notice: wake") }).count < 2 && Date() < deadline { usleep(100_000) }
        #expect(daemon.output.filter { $0.hasPrefix("notice: wake") }.count == 2, "\(daemon.output)")
        usleep(500_000)
        let warnings = daemon.output.filter { $0.hasPrefix("warning: The awake sound cannot open the ALSA playback device nosuchpcm") }
        #expect(warnings.count == 1, "\(daemon.output)")
        #expect(warnings.first?.contains("awake_sound_device") == true)
    }

    @Test("a missing or non-WAV awake_sound, or a non-executable on_detect, is refused with file:line")
    func badCueFilesAreConfigErrors() throws {
        let dir = try scratchDirectory("cue-config")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/ears.conf"
        try "[capture]\n# the cue\nawake_sound = \(dir)/nosuch.wav\n".write(toFile: config, atomically: true, encoding: .utf8)
        let missing = try runCommand(earsBinary, ["check-config", "--config", config])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("\(config):3: [capture] awake_sound '\(dir)/nosuch.wav' does not exist; point it at a 16-bit PCM WAV file, or leave the key empty for no sound"), "\(missing.stderr)")
        // listen refuses it the same way, before opening anything.
        let listen = try runCommand(earsBinary, ["listen", "--config", config, "--runtime-dir", dir + "/run"],
                                    environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        #expect(listen.status == 78)
        #expect(listen.stderr.contains("\(config):3: [capture] awake_sound"), "\(listen.stderr)")

        let notWav = dir + "/hook.sh"
        try "#!/bin/sh\n".write(toFile: notWav, atomically: true, encoding: .utf8)
        try "[capture]\nawake_sound = \(notWav)\non_detect = \(dir)/nosuch.sh\n".write(toFile: config, atomically: true, encoding: .utf8)
        let both = try runCommand(earsBinary, ["check-config", "--config", config])
        #expect(both.status == 78)
        #expect(both.stderr.contains("\(config):2: [capture] awake_sound '\(notWav)' is not a WAV file"), "\(both.stderr)")
        #expect(both.stderr.contains("\(config):3: [capture] on_detect '\(dir)/nosuch.sh' does not exist"), "\(both.stderr)")
    }
}
