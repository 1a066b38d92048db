import CSystemd
import Glibc

/// Why a message to the service manager was not delivered.
package struct SystemdNotifyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The libsystemd call, e.g. `sd_notify`.
    package var call: String
    /// The positive errno the call returned (negated).
    package var errno: Int32

    /// One line for the journal, e.g. `sd_notify: Connection refused (errno 111)`.
    package var description: String {
        "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// The sd_notify(3) side of `Type=notify`: READY, STATUS, WATCHDOG, RELOADING
/// and STOPPING messages to the socket systemd names in `$NOTIFY_SOCKET`.
///
/// Outside systemd (no `$NOTIFY_SOCKET`) every call is a no-op that reports
/// "not delivered", so `ears listen` behaves the same in a terminal. The
/// environment is left in place (`unset_environment` 0) because every message
/// needs it; `ExecHook` removes the variables from its children's environment.
package struct SystemdNotifier: Sendable {
    /// Whether the process was started with `$NOTIFY_SOCKET` (by systemd or a test standing in for it).
    package let isSupervised: Bool
    /// The watchdog period systemd asked for (`WatchdogSec=`, via
    /// `$WATCHDOG_USEC` and `$WATCHDOG_PID`), in seconds, or nil when off.
    package let watchdogSeconds: Double?

    /// Reads the environment systemd set for this process.
    package init() {
        isSupervised = getenv("NOTIFY_SOCKET") != nil
        var microseconds: UInt64 = 0
        let enabled = sd_watchdog_enabled(0, &microseconds)
        watchdogSeconds = enabled > 0 && microseconds > 0 ? Double(microseconds) / 1_000_000 : nil
    }

    /// `READY=1` with a first `STATUS=` line: the sockets are up.
    @discardableResult
    package func ready(status: String) -> Result<Bool, SystemdNotifyError> {
        send(["READY=1", "STATUS=" + Self.oneLine(status)])
    }

    /// `STATUS=`: a short, content-free state line `systemctl status` shows.
    @discardableResult
    package func status(_ line: String) -> Result<Bool, SystemdNotifyError> {
        send(["STATUS=" + Self.oneLine(line)])
    }

    /// `WATCHDOG=1`: the audio loop is alive.
    @discardableResult
    package func watchdog() -> Result<Bool, SystemdNotifyError> {
        send(["WATCHDOG=1"])
    }

    /// `RELOADING=1` before re-reading the configuration; follow with `ready(status:)`.
    @discardableResult
    package func reloading() -> Result<Bool, SystemdNotifyError> {
        send(["RELOADING=1", "STATUS=reloading the configuration"])
    }

    /// `STOPPING=1`: shutting down on SIGTERM/SIGINT.
    @discardableResult
    package func stopping() -> Result<Bool, SystemdNotifyError> {
        send(["STOPPING=1", "STATUS=stopping"])
    }

    /// Sends the assignments as one datagram. `.success(true)` when delivered,
    /// `.success(false)` when not supervised.
    package func send(_ assignments: [String]) -> Result<Bool, SystemdNotifyError> {
        guard isSupervised else { return .success(false) }
        return Self.call("sd_notify") { sd_notify(0, assignments.joined(separator: "\n")) }.map { $0 > 0 }
    }

    /// The funnel every libsystemd call goes through: libsystemd returns a
    /// negative errno on failure and retries EINTR itself, so only the sign
    /// needs turning into a typed error.
    static func call(_ name: String, _ body: () -> Int32) -> Result<Int32, SystemdNotifyError> {
        let result = body()
        return result < 0 ? .failure(SystemdNotifyError(call: name, errno: -result)) : .success(result)
    }

    /// A status line must be one line: the protocol separates assignments by newlines.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }.prefix(Self.statusLimit))
    }

    /// Longest STATUS= text sent, in characters; `systemctl status` shows one line.
    package static let statusLimit = 200
}
