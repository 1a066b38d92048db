import Foundation
import Testing

/// Issue 12, defect 1: the sockets' directory and files, on the real daemon.
/// A runtime directory others may write to is refused with the fix; the
/// socket files get their mode and group without any call that follows a
/// path (a symbolic link swapped in after `bind` would be followed by
/// `chmod`/`chown`, and root would change its target).
@Suite(.serialized) struct SocketSafetyTests {
    /// Starts `ears listen` on a missing device; returns once it has exited
    /// or `seconds` have passed (then it is still running).
    private func listen(_ arguments: [String], within seconds: Double) throws -> EarsDaemon {
        let daemon = try EarsDaemon(["listen", "--device", "nosuch"] + arguments,
                                    environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        let deadline = Date().addingTimeInterval(seconds)
        while daemon.process.isRunning && Date() < deadline { usleep(50_000) }
        return daemon
    }

    @Test func aGroupWritableRuntimeDirectoryIsRefusedWithTheCommandThatFixesIt() throws {
        let dir = try scratchDirectory("group-writable")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let runtime = dir + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false)
        chmod(runtime, 0o770)
        let daemon = try listen(["--runtime-dir", runtime], within: 10)
        defer { _ = daemon.terminate() }
        try #require(!daemon.process.isRunning, "ears listen started in a group-writable directory: \(daemon.output)")
        usleep(100_000) // the last output lines
        #expect(daemon.process.terminationStatus == 1)
        let line = daemon.output.first { $0.contains("unsafe runtime directory") } ?? ""
        #expect(line.contains("run `chmod g-w,o-w \(runtime)`"), "\(daemon.output)")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/status.sock"))
    }

    @Test func theSocketsGetTheirModeAndGroupWithoutFollowingAPath() throws {
        let dir = try scratchDirectory("socket-trace")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let runtime = dir + "/run"
        // Root may give the socket any group; anyone else only one of theirs.
        let groupID = getuid() == 0 ? gid_t(65534) : getegid()
        let groupName = try #require(getgrgid(groupID).map { String(cString: $0.pointee.gr_name) })
        try "[listen]\nsocket_group = \(groupName)\n".write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)
        let trace = dir + "/trace.txt"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = ["-f", "-qq", "-e", "trace=chmod,fchmod,fchmodat,chown,fchown,fchownat,lchown,umask,bind",
                             "-o", trace, earsBinary, "listen", "--auto-train", "off", "--config", dir + "/ears.conf", "--device", "nosuch",
                             "--runtime-dir", runtime]
        process.environment = ProcessInfo.processInfo.environment.merging(["ALSA_CONFIG_PATH": "/dev/null"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try #require(waitForStatus(runtime + "/status.sock", within: 30) { $0["phase"] as? String == "closed" } != nil)

        var listen = stat(), status = stat()
        try #require(lstat(runtime + "/listen.sock", &listen) == 0 && lstat(runtime + "/status.sock", &status) == 0)
        #expect(listen.st_mode & 0o7777 == 0o660 && status.st_mode & 0o7777 == 0o660)
        #expect(listen.st_gid == groupID)

        let child = try runCommand("/usr/bin/pgrep", ["-P", String(process.processIdentifier)])
        for pid in child.stdout.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        try #require(!process.isRunning, "strace did not end after ears was stopped")

        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let onSockets = lines.filter { $0.contains(".sock\"") }
        #expect(onSockets.contains { $0.contains("bind(") && $0.contains("listen.sock") }, "the trace saw no bind: \(lines.prefix(20))")
        // By path and following links: any chmod or chown of a socket file.
        let followed = onSockets.filter {
            $0.contains("chmod(") || $0.contains("chown(") || $0.contains("lchown(")
                || ($0.contains("fchownat(") && !$0.contains("AT_SYMLINK_NOFOLLOW"))
        }
        #expect(followed.isEmpty, "path-following mode/owner changes on the sockets: \(followed)")
        #expect(onSockets.contains { $0.contains("fchownat(") && $0.contains("listen.sock") && $0.contains("AT_SYMLINK_NOFOLLOW") },
                "the group was not set with fchownat(AT_SYMLINK_NOFOLLOW): \(onSockets)")
        // The mode came from the umask at bind.
        #expect(lines.contains { $0.contains("umask(0117)") }, "no umask(0117) around bind: \(lines.filter { $0.contains("umask") })")
    }
}
