import Foundation
import Testing

/// After the call: the capture, the exec hook and the manual tap, through
/// `ears listen` on the file-backed ALSA device with synthesized speech.
@Suite(.serialized) struct CaptureTests {
    /// Starts `ears listen` with a config whose hook is `hookScript`; returns the daemon.
    private func startDaemon(dir: String, mic: AlsaFixture, hookScript: String, extra: String = "") throws -> EarsDaemon {
        let hook = dir + "/hook.sh"
        try hookScript.write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        let config = dir + "/ears.conf"
        try "[capture]\non_wake = \(hook)\n\(extra)".write(toFile: config, atomically: true, encoding: .utf8)
        return try EarsDaemon(["listen", "--config", config, "--device", "cap", "--runtime-dir", dir + "/run"],
                              environment: mic.environment)
    }

    @Test func aWakeHandsTheHookACaptureWithThePhraseCappedAndEndedBySilence() throws {
        let dir = try scratchDirectory("capture-hook")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        // The hook is the consumer: it may keep what it is given (that is its job, not the daemon's).
        let daemon = try startDaemon(dir: dir, mic: mic, hookScript: """
        #!/bin/sh
        cat > "\(dir)/capture-$EARS_SOURCE.wav"
        echo "$EARS_PHRASE|$EARS_SOURCE|$EARS_SCORE" > "\(dir)/env-$EARS_SOURCE.txt"
        """)
        defer { _ = daemon.terminate() }
        mic.startFeeding()
        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" } != nil, "\(daemon.output)")
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: dir + "/call.wav")
        mic.enqueue(Data(count: 64_000))
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))

        let status = try #require(waitForStatus(socket, within: 30) { (($0["hook"] as? [String: Any])?["runs"] as? Int) == 1 },
                                  "\(daemon.output)")
        #expect(status["captures"] as? Int == 1)
        let seconds = status["capture_s"] as? Double ?? 0
        #expect(seconds >= 3 && seconds <= 20, "capture_s \(seconds)")
        let env = try String(contentsOfFile: dir + "/env-wake.txt", encoding: .utf8)
        #expect(env.hasPrefix("hey cordelia|wake|"))
        let wav = dir + "/capture-wake.wav"
        let duration = try Speech.duration(of: wav)
        #expect(abs(duration - seconds) < 0.15, "WAV \(duration) s vs capture_s \(seconds)")
        // It ended on silence, well before the cap: the sentence is about 2 s long.
        #expect(duration < 8)
        #expect((status["hook"] as? [String: Any])?["failures"] as? Int == 0)
    }

    @Test func aTapStartsACaptureWithAShortPreRoll() throws {
        let dir = try scratchDirectory("capture-tap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try startDaemon(dir: dir, mic: mic, hookScript: """
        #!/bin/sh
        cat > "\(dir)/capture-$EARS_SOURCE.wav"
        """, extra: "silence_seconds = 0.5\n")
        defer { _ = daemon.terminate() }
        mic.startFeeding()
        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" } != nil, "\(daemon.output)")
        let tap = try runCommand(earsBinary, ["tap", "--runtime-dir", dir + "/run"])
        #expect(tap.status == 0, "\(tap.stderr)")
        let status = try #require(waitForStatus(socket, within: 15) { (($0["hook"] as? [String: Any])?["runs"] as? Int) == 1 },
                                  "\(daemon.output)")
        #expect(status["captures"] as? Int == 1)
        // Silence all along: 0.3 s pre-roll + 0.5 s of silence (+ a chunk of slack).
        let duration = try Speech.duration(of: dir + "/capture-tap.wav")
        #expect(duration >= 0.7 && duration <= 1.0, "\(duration)")
    }

    @Test func aHookThatHangsIsKilledAfterItsTimeoutAndCounted() throws {
        let dir = try scratchDirectory("capture-hang")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try startDaemon(dir: dir, mic: mic, hookScript: "#!/bin/sh\nexec sleep 60\n",
                                     extra: "hook_timeout_seconds = 1\nsilence_seconds = 0.3\n")
        defer { _ = daemon.terminate() }
        mic.startFeeding()
        let socket = dir + "/run/status.sock"
        try #require(waitForStatus(socket, within: 20) { $0["phase"] as? String == "listening" } != nil)
        _ = try runCommand(earsBinary, ["tap", "--runtime-dir", dir + "/run"])
        let status = waitForStatus(socket, within: 15) { (($0["hook"] as? [String: Any])?["killed"] as? Int) == 1 }
        #expect(status != nil, "\(daemon.output)")
        // The audio loop never waited for the hook.
        #expect((status?["ear"] as? [String: Any])?["since_audio_s"] as? Double ?? 99 < 1)
    }
}

/// `ears follow`, the small client of the listen socket.
@Suite(.serialized) struct FollowTests {
    @Test func followPrintsOneLinePerEventAndWavWritesACapture() throws {
        let dir = try scratchDirectory("follow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: "[capture]\nsilence_seconds = 0.5\n", mic: mic)
        defer { _ = daemon.terminate() }

        let lines = try EarsDaemon(["follow", "--runtime-dir", dir + "/run"])
        let wav = Process()
        wav.executableURL = URL(fileURLWithPath: "/bin/sh")
        wav.arguments = ["-c", "exec '\(earsBinary)' follow --wav --runtime-dir '\(dir)/run' > '\(dir)/follow.wav'"]
        try wav.run()
        defer { if wav.isRunning { kill(wav.processIdentifier, SIGKILL) } }
        usleep(800_000)
        _ = try runCommand(earsBinary, ["tap", "--runtime-dir", dir + "/run"])
        #expect(lines.waitForLine(within: 10) { $0.hasPrefix("audio-stop") } != nil, "\(lines.output)")
        #expect(lines.output.contains("audio-start rate=16000 width=2 channels=1"))
        #expect(lines.output.contains { $0.hasPrefix("audio-chunk samples=") })
        _ = lines.terminate()
        usleep(500_000) // the WAV is written at audio-stop; then the follower just waits
        kill(wav.processIdentifier, SIGKILL)
        wav.waitUntilExit()
        let seconds = try Speech.duration(of: dir + "/follow.wav")
        #expect(seconds >= 0.7 && seconds <= 1.2, "\(seconds)")
    }
}
