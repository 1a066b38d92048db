import Foundation
import Testing

/// systemd/ears.service itself: systemd's own tools judge it, and the
/// daemon, traced through its life, uses only the system calls it allows.
@Suite(.serialized) struct SystemdUnitTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let unitPath = repository.appendingPathComponent("systemd/ears.service").path
    private static let analyze = "/usr/bin/systemd-analyze"
    /// The exposure the issue asks for: 1.0 or less.
    private static let highestExposure = 1.0

    private static func directives() throws -> [(key: String, value: String)] { try UnitFile(path: unitPath).directives() }

    private static func value(_ key: String) throws -> String? { try UnitFile(path: unitPath).value(key) }

    @Test func systemdRatesTheUnitSafe() throws {
        let result = try runCommand(Self.analyze, ["security", "--offline=true", "--no-pager", Self.unitPath])
        let summary = try #require(result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                   "no exposure line: \(result.stdout) \(result.stderr)")
        let match = try #require(summary.firstMatch(of: /level for ears\.service: ([0-9.]+) (\w+)/), "\(summary)")
        let exposure = try #require(Double(match.output.1))
        #expect(exposure <= Self.highestExposure, "exposure \(exposure): \(summary)")
        #expect(match.output.2 == "SAFE", "\(summary)")
    }

    @Test func systemdVerifiesTheUnitWithTheBuiltBinary() throws {
        let dir = try scratchDirectory("unit-verify")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // verify checks that ExecStart exists; point it at the binary under test.
        let text = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/ears listen --config /etc/ears/ears.conf"))
        try text.replacingOccurrences(of: "/usr/local/bin/ears", with: earsBinary)
            .write(toFile: dir + "/ears.service", atomically: true, encoding: .utf8)
        let result = try runCommand(Self.analyze, ["verify", "--man=no", dir + "/ears.service"])
        #expect(result.status == 0, "systemd-analyze verify: \(result.stdout) \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func theUnitKeepsTheServiceContract() throws {
        #expect(try Self.value("Type") == "notify")
        #expect(try Self.value("NotifyAccess") == "main")
        #expect(try Self.value("WatchdogSec").flatMap(Double.init).map { $0 >= 10 } == true)
        #expect(try Self.value("Restart") == "on-failure")
        #expect(try Self.value("RestartPreventExitStatus")?.split(separator: " ").contains("78") == true)
        #expect(try Self.value("StartLimitBurst") != nil)
        #expect(try Self.value("RuntimeDirectory") == "ears")
        #expect(try Self.value("DynamicUser") == "yes")
        #expect(try Self.value("SupplementaryGroups") == "audio")
        #expect(try Self.value("ExecReload")?.contains("-HUP") == true)
        for (key, expected) in [("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                                ("PrivateNetwork", "yes"), ("RestrictAddressFamilies", "AF_UNIX"),
                                ("DevicePolicy", "closed"), ("DeviceAllow", "char-alsa rw"), ("NoNewPrivileges", "yes"),
                                ("CapabilityBoundingSet", ""), ("ProtectKernelTunables", "yes"),
                                ("ProtectKernelModules", "yes"), ("ProtectKernelLogs", "yes"),
                                ("ProtectControlGroups", "yes"), ("LockPersonality", "yes"),
                                ("RestrictRealtime", "yes"), ("MemoryDenyWriteExecute", "yes")] {
            #expect(try Self.value(key) == expected, "\(key)")
        }
        #expect(try Self.directives().contains { $0.key == "SystemCallFilter" && $0.value == "@system-service" })
    }

    // MARK: the system-call filter, checked against what the daemon really calls

    /// The syscalls in `group`, groups expanded, as `systemd-analyze syscall-filter` lists them.
    private static func expand(_ group: String, seen: inout Set<String>) throws -> Set<String> {
        guard seen.insert(group).inserted else { return [] }
        let listing = try runCommand(analyze, ["syscall-filter", "--no-pager", group]).stdout
        var calls: Set<String> = []
        for line in listing.split(separator: "\n").dropFirst() {
            let name = line.trimmingCharacters(in: .whitespaces)
            if name.isEmpty || name.hasPrefix("#") { continue }
            if name.hasPrefix("@") { calls.formUnion(try expand(name, seen: &seen)) } else { calls.insert(name) }
        }
        return calls
    }

    /// The names in an `strace -c` summary.
    private static func calledNames(inSummary path: String) throws -> Set<String> {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let last = columns.last, columns.count >= 5, Double(columns[0]) != nil, last != "total" else { continue }
            names.insert(String(last))
        }
        return names
    }

    /// What one traced life of the daemon did.
    private struct TracedLife {
        var called: Set<String>
        var captured: Bool
        var reloaded: Bool
        var exitedCleanly: Bool
    }

    /// Runs `ears listen` under `strace -f -c` through its whole life: start,
    /// listen, wake, capture with an exec hook, /metrics, SIGHUP, SIGTERM.
    /// `failing` syscalls are made to fail with EPERM, as the unit's
    /// `SystemCallErrorNumber=EPERM` filter would.
    private static func traceLife(named name: String, failing: [String] = []) throws -> TracedLife {
        let dir = try scratchDirectory(name)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let runtime = dir + "/run"
        let hook = dir + "/hook.sh"
        try "#!/bin/sh\ncat > /dev/null\n".write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        try "[capture]\non_wake = \(hook)\n".write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)

        let summary = dir + "/calls.txt"
        let log = dir + "/ears.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        var arguments = ["-f", "-qq", "-c", "-o", summary]
        if !failing.isEmpty { arguments += ["-e", "inject=\(failing.joined(separator: ",")):error=EPERM"] }
        process.arguments = arguments + [earsBinary, "listen", "--auto-train", "off", "--config", dir + "/ears.conf",
                                         "--device", "cap", "--runtime-dir", runtime]
        process.environment = inheritedEnvironment.merging(mic.environment) { $1 }
            .merging(["NOTIFY_SOCKET": dir + "/nobody.sock", "WATCHDOG_USEC": "2000000"]) { $1 }
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        mic.startFeeding()
        let socket = runtime + "/status.sock"
        try #require(waitForStatus(socket, within: 30) { $0["phase"] as? String == "listening" } != nil, "never listening")
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: dir + "/call.wav")
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))
        let captured = waitForStatus(socket, within: 30) { ($0["captures"] as? Int ?? 0) >= 1 } != nil
        _ = try curlUnix(socket, "/metrics")
        let ears = try runCommand("/usr/bin/pgrep", ["-P", String(process.processIdentifier)]).stdout
            .split(separator: "\n").compactMap { Int32($0) }
        for pid in ears { kill(pid, SIGHUP) }
        usleep(3_000_000) // the capture ends and the hook runs
        for pid in ears { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        try #require(!process.isRunning, "strace did not end after ears was stopped")
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return TracedLife(called: try calledNames(inSummary: summary), captured: captured,
                          reloaded: output.contains("reloaded:"),
                          exitedCleanly: process.terminationStatus == 0 && output.contains("info: stopped"))
    }

    @Test func theDaemonCallsNothingTheUnitsSystemCallFilterForbidsOrCopesWithEPERM() throws {
        var seen: Set<String> = []
        let allowed = try Self.expand("@system-service", seen: &seen)
        var seenDenied: Set<String> = []
        let denied = try Self.expand("@privileged", seen: &seenDenied).union(try Self.expand("@resources", seen: &seenDenied))
        #expect(allowed.count > 200 && denied.contains("setrlimit"), "could not read the syscall groups")

        // The hook (/bin/sh, a child of ears) is traced too; systemd filters it the same way.
        let life = try Self.traceLife(named: "syscalls")
        #expect(life.captured && life.reloaded && life.exitedCleanly, "the traced daemon did not live its life")
        #expect(life.called.count > 30, "the trace is suspiciously short: \(life.called.sorted())")
        #expect(life.called.subtracting(allowed).isEmpty, "calls outside @system-service: \(life.called.subtracting(allowed).sorted())")

        // Calls in the denied groups (today: libdispatch's setpriority for
        // worker-thread QoS) must be harmless when the filter answers EPERM:
        // the same life again, with them failing, still wakes, captures,
        // reloads and stops cleanly.
        let forbidden = life.called.intersection(denied).sorted()
        #expect(forbidden.allSatisfy { Self.toleratedDenied.contains($0) }, "new denied calls: \(forbidden)")
        if !forbidden.isEmpty {
            let refused = try Self.traceLife(named: "syscalls-eperm", failing: forbidden)
            #expect(refused.captured, "with \(forbidden) failing, no capture")
            #expect(refused.reloaded && refused.exitedCleanly, "with \(forbidden) failing, no clean reload and stop")
        }
    }

    /// Denied calls ears is known to make, each shown harmless under EPERM by
    /// the test above. A new one fails the test until it is looked at.
    private static let toleratedDenied: Set<String> = ["setpriority"]
}
