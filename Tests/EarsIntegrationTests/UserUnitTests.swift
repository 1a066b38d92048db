import Foundation
import Testing

/// systemd/user/ears.service, the unit for a desktop session whose microphone
/// PipeWire owns: systemd's user manager accepts it, and it keeps to what a
/// user manager can do without privileges.
@Suite struct UserUnitTests {
    private static let unitPath = Repository.root + "/systemd/user/ears.service"

    private static func directives() throws -> [(key: String, value: String)] { try UnitFile(path: unitPath).directives() }

    private static func value(_ key: String) throws -> String? { try UnitFile(path: unitPath).value(key) }

    @Test("systemd-analyze --user verify accepts the user unit with the built binary")
    func userManagerVerifiesTheUnit() throws {
        let dir = try scratchDirectory("user-unit")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        #expect(text.contains("\nExecStart=/usr/local/bin/ears listen\n"))
        try text.replacingOccurrences(of: "/usr/local/bin/ears", with: earsBinary)
            .write(toFile: dir + "/ears.service", atomically: true, encoding: .utf8)
        // A user manager needs its runtime directory (%t); the test's own stands in.
        let runtime = dir + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let result = try runCommand("/usr/bin/systemd-analyze", ["--user", "verify", "--man=no", dir + "/ears.service"],
                                    environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 0, "systemd-analyze --user verify: \(result.stdout) \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("the user unit is the service contract minus what needs privileges")
    func userUnitKeepsTheContractUnprivileged() throws {
        #expect(try Self.value("Type") == "notify")
        #expect(try Self.value("NotifyAccess") == "main")
        #expect(try Self.value("RestartPreventExitStatus")?.split(separator: " ").contains("78") == true)
        // %t/ears: where `ears status` run by the same user looks ($XDG_RUNTIME_DIR/ears).
        #expect(try Self.value("RuntimeDirectory") == "ears")
        #expect(try Self.value("StateDirectory") == "ears")
        #expect(try Self.value("WantedBy") == "default.target")
        #expect(try Self.value("RestrictAddressFamilies") == "AF_UNIX")
        #expect(try Self.value("NoNewPrivileges") == "yes")
        #expect(try Self.directives().contains { $0.key == "SystemCallFilter" && $0.value == "@system-service" })
        // A user manager cannot switch users, join groups or set up cgroup
        // device and IP rules; a unit asking for them would not start.
        for key in ["User", "Group", "DynamicUser", "SupplementaryGroups", "DeviceAllow", "DevicePolicy",
                    "IPAddressDeny", "PrivateNetwork", "ProtectSystem", "CapabilityBoundingSet"] {
            #expect(try Self.value(key) == nil, "\(key)= has no place in a user unit")
        }
    }
}
