import Foundation
import Testing

/// Privacy, checked on the running daemon: under `strace -f`, through a wake
/// and a capture, ears opens no file for writing outside its runtime
/// directory (the sockets live there). `/dev/null` is the ALSA test device's
/// own output side (`file "/dev/null"` in the fixture), not ears' choice.
@Suite(.serialized) struct PrivacyTraceTests {
    @Test func listeningThroughAWakeAndACaptureOpensNoFileForWriting() throws {
        let dir = try scratchDirectory("strace")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let trace = dir + "/trace.txt"
        let runtime = dir + "/run"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = ["-f", "-qq", "-e", "trace=open,openat,openat2,creat,truncate,rename,renameat,renameat2,link,symlink",
                             "-o", trace, earsBinary, "listen", "--auto-train", "off", "--device", "cap", "--runtime-dir", runtime]
        process.environment = inheritedEnvironment.merging(mic.environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        mic.startFeeding()
        let socket = runtime + "/status.sock"
        try #require(waitForStatus(socket, within: 30) { $0["phase"] as? String == "listening" } != nil)
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: dir + "/call.wav")
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))
        let status = waitForStatus(socket, within: 30) { ($0["captures"] as? Int ?? 0) >= 1 && ($0["wakes"] as? Int ?? 0) >= 1 }
        #expect(status != nil, "no wake and capture under strace")
        usleep(1_500_000) // let the capture run on
        // Stop ears itself (strace's child); strace then exits with it.
        let child = try runCommand("/usr/bin/pgrep", ["-P", String(process.processIdentifier)])
        for pid in child.stdout.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        try #require(!process.isRunning, "strace did not end after ears was stopped")

        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 50, "the trace is suspiciously short")
        let writeFlags = try Regex(#"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND"#)
        let quoted = try Regex(#""([^"]*)""#)
        var offenders: [String] = []
        for line in lines {
            let isCreate = line.contains("creat(") || line.contains("rename") || line.contains("link(") || line.contains("truncate(")
            guard isCreate || line.contains(writeFlags) else { continue }
            guard !line.contains("= -1") else { continue } // a failed attempt wrote nothing
            let path = line.firstMatch(of: quoted).flatMap { $0.output[1].substring.map(String.init) } ?? ""
            if path.hasPrefix(runtime + "/") || path == "/dev/null" { continue }
            offenders.append(String(line))
        }
        #expect(offenders.isEmpty, "opened for writing: \(offenders.prefix(10))")
    }
}
