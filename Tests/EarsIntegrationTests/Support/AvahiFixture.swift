import Foundation
import Glibc

/// A private D-Bus system bus and an avahi-daemon on it, for the zeroconf
/// tests, started directly (no systemd as PID 1 here, and the machine's own
/// bus, if any, is left alone).
///
/// `dbus-daemon` runs with Debian's system-bus configuration (so avahi's
/// policy file admits the daemon's name) on a socket in the test's scratch
/// directory; `DBUS_SYSTEM_BUS_ADDRESS` (read by libdbus, hence by
/// avahi-daemon, libavahi-client in ears and avahi-browse) points at it.
/// avahi-daemon stays root (`--no-drop-root --no-chroot`: the test runs as
/// root and has no `avahi` user set up) in the foreground, so this fixture
/// owns both processes by id and ends them.
final class AvahiFixture: Sendable {
    /// The environment that points D-Bus clients at the private bus.
    let environment: [String: String]
    private let bus: Process
    private let avahi: Process

    static let dbusDaemon = "/usr/bin/dbus-daemon"
    static let avahiDaemon = "/usr/sbin/avahi-daemon"
    static let avahiBrowse = "/usr/bin/avahi-browse"
    static let systemBusConfig = "/usr/share/dbus-1/system.conf"
    /// Where avahi-daemon writes its pid (compiled in); a live daemon there means another test's.
    static let avahiPidFile = "/run/avahi-daemon/pid"

    /// Why the fixture cannot run here, or nil when it can: the programs
    /// (`make setup` installs them) and root (avahi-daemon's pid file and
    /// privileges).
    static var unavailableReason: String? {
        for tool in [dbusDaemon, avahiDaemon, avahiBrowse] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (make setup installs dbus, avahi-daemon and avahi-utils)"
        }
        if getuid() != 0 { return "avahi-daemon needs root to run outside systemd (its pid file is in /run)" }
        return nil
    }

    /// Starts the bus in `directory`, then avahi-daemon, and waits up to
    /// `seconds` until avahi-browse can talk to the daemon.
    init(directory: String, within seconds: Double = 20) throws {
        let socket = directory + "/system_bus_socket"
        environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + socket]
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: Self.dbusDaemon)
        bus.arguments = ["--config-file=" + Self.systemBusConfig, "--address=unix:path=" + socket, "--nofork", "--nopidfile"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        avahi = Process()
        avahi.executableURL = URL(fileURLWithPath: Self.avahiDaemon)
        avahi.arguments = ["--no-drop-root", "--no-chroot", "--no-rlimits", "--no-proc-title"]
        avahi.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        avahi.standardOutput = FileHandle.nullDevice
        avahi.standardError = FileHandle.nullDevice
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        try avahi.run()
        while Date() < deadline {
            if !avahi.isRunning { break }
            if (try? runCommand(Self.avahiBrowse, ["-a", "-t", "-p"], environment: environment))?.status == 0 { return }
            usleep(200_000)
        }
        stop()
        throw SpeechError(detail: "avahi-daemon did not come up on the private bus within \(seconds) s")
    }

    /// `avahi-browse -rtp TYPE`'s resolved lines (`=;iface;proto;name;type;domain;host;address;port;txt`).
    func browse(_ type: String) -> [String] {
        let result = try? runCommand(Self.avahiBrowse, ["-r", "-t", "-p", type], environment: environment)
        return (result?.stdout ?? "").split(separator: "\n").map(String.init).filter { $0.hasPrefix("=;") }
    }

    /// Waits up to `seconds` for a resolved line satisfying `match`.
    func waitForService(_ type: String, within seconds: Double, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let line = browse(type).first(where: match) { return line }
            usleep(300_000)
        } while Date() < deadline
        return nil
    }

    /// Ends avahi-daemon, then the bus (SIGTERM, SIGKILL after 5 s).
    func stop() {
        for process in [avahi, bus] where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        }
    }

    deinit { stop() }
}
