import Foundation
import Glibc
import Synchronization

/// A private D-Bus system bus and an avahi-daemon on it, for the zeroconf
/// tests, started directly (no systemd as PID 1 here, and the machine's own
/// bus, if any, is left alone).
///
/// `dbus-daemon` runs with Debian's system-bus configuration (so avahi's
/// policy file admits the daemon's name) on a socket in the test's scratch
/// directory; `DBUS_SYSTEM_BUS_ADDRESS` (read by libdbus, hence by
/// avahi-daemon, libavahi-client in ears and avahi-browse) points at it.
/// avahi-daemon stays root (`--no-drop-root --no-chroot`: the test runs as
/// root) in the foreground; both are this fixture's children, ended and
/// reaped by their process ids.
final class AvahiFixture: Sendable {
    /// The environment that points D-Bus clients at the private bus.
    let environment: [String: String]
    /// dbus-daemon's process id.
    private let bus: pid_t
    /// avahi-daemon's process id while it runs.
    private let avahi = Mutex<pid_t?>(nil)
    /// `avahi-publish` processes started by `publish`, stopped before the daemons.
    private let publishers = Mutex<[pid_t]>([])

    static let dbusDaemon = "/usr/bin/dbus-daemon"
    static let avahiDaemon = "/usr/sbin/avahi-daemon"
    static let avahiBrowse = "/usr/bin/avahi-browse"
    static let avahiPublish = "/usr/bin/avahi-publish"
    static let systemBusConfig = "/usr/share/dbus-1/system.conf"

    /// Why the fixture cannot run here, or nil when it can: the programs
    /// (`make setup` installs them) and root (avahi-daemon's pid file is in
    /// /run, and it keeps root with `--no-drop-root`).
    static var unavailableReason: String? {
        for tool in [dbusDaemon, avahiDaemon, avahiBrowse] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (make setup installs dbus, avahi-daemon and avahi-utils)"
        }
        if getuid() != 0 { return "avahi-daemon needs root to run outside systemd (its pid file is in /run)" }
        return nil
    }

    /// Starts the bus in `directory`, then (unless `startingAvahi` is
    /// false) avahi-daemon, waiting up to `seconds` until avahi-browse can
    /// talk to it.
    init(directory: String, startingAvahi: Bool = true, within seconds: Double = 20) throws {
        let socket = directory + "/system_bus_socket"
        environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + socket]
        let deadline = Date().addingTimeInterval(seconds)
        bus = try Self.spawn(Self.dbusDaemon, ["--config-file=" + Self.systemBusConfig, "--address=unix:path=" + socket,
                                               "--nofork", "--nopidfile"], environment: environment)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        guard startingAvahi else { return }
        do {
            try startAvahi(within: seconds)
        } catch {
            stop()
            throw error
        }
    }

    /// Starts avahi-daemon on the bus and waits up to `seconds` until
    /// avahi-browse can talk to it.
    func startAvahi(within seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        let pid = try Self.spawn(Self.avahiDaemon, ["--no-drop-root", "--no-chroot", "--no-rlimits", "--no-proc-title"],
                                 environment: environment)
        avahi.withLock { $0 = pid }
        while Date() < deadline {
            if (try? runCommand(Self.avahiBrowse, ["-a", "-t", "-p"], environment: environment))?.status == 0 { return }
            usleep(200_000)
        }
        throw SpeechError(detail: "avahi-daemon did not come up on the private bus within \(seconds) s")
    }

    /// Stops avahi-daemon (the bus stays).
    func stopAvahi() {
        if let pid = avahi.withLock({ pid in defer { pid = nil }; return pid }) { Self.end(pid) }
    }

    /// Starts `path arguments` with posix_spawn, standard streams on
    /// /dev/null, the test's environment plus `environment`. Not Foundation's
    /// Process: it watches a child through a descriptor the child inherits,
    /// and avahi-daemon closes every descriptor at start, which Process
    /// takes for an exit and then blocks in waitpid for good.
    private static func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard code == 0 else { throw SpeechError(detail: "posix_spawn \(path) failed: \(String(cString: strerror(code)))") }
        return pid
    }

    /// Announces `name` of `type` on `port` with avahi-publish (another
    /// program on the same daemon), until `stop`.
    func publish(name: String, type: String, port: Int) throws {
        let pid = try Self.spawn(Self.avahiPublish, ["-s", name, type, String(port)], environment: environment)
        publishers.withLock { $0.append(pid) }
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

    /// Ends the publishers, avahi-daemon, then the bus (SIGTERM, SIGKILL after 5 s), and
    /// reaps them. Idempotent: a reaped id is never signalled again.
    func stop() {
        for pid in publishers.withLock({ list in defer { list.removeAll() }; return list }) { Self.end(pid) }
        stopAvahi()
        Self.end(bus)
    }

    /// SIGTERM to this fixture's child `pid`, SIGKILL after 5 s; reaped.
    /// A child already reaped is left alone.
    private static func end(_ pid: pid_t) {
        guard waitpid(pid, nil, WNOHANG) == 0 else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        var reaped = false
        while !reaped && Date() < deadline {
            reaped = waitpid(pid, nil, WNOHANG) == pid
            if !reaped { usleep(20_000) }
        }
        if !reaped { kill(pid, SIGKILL); waitpid(pid, nil, 0) }
    }

    deinit { stop() }
}
