import CAvahi

/// What went wrong talking to avahi-daemon, as a sentence that says what to do.
///
/// Made only by `AvahiCall` (the funnel every avahi call goes through), from
/// avahi's negative return codes and `avahi_strerror`.
package enum AvahiError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no D-Bus system bus, or no avahi-daemon on it: nothing can be
    /// announced until the daemon runs. `code` is avahi's error code
    /// (`AVAHI_ERR_NO_DAEMON`, `AVAHI_ERR_DBUS_ERROR`, `AVAHI_ERR_DISCONNECTED`).
    case daemonNotRunning(function: String, code: Int32, reason: String)
    /// Any other failed call: the C function, avahi's error code and its message.
    case call(function: String, code: Int32, reason: String)

    /// How a person gets avahi-daemon running on Debian.
    package static let installHint =
        "install and start it (apt-get install avahi-daemon; systemctl enable --now avahi-daemon), " +
        "or set [wyoming] zeroconf = off"

    /// avahi's error codes that mean "the daemon or the bus is not there"
    /// rather than "this request was wrong".
    static let unavailableCodes: Set<Int32> = [
        Int32(AVAHI_ERR_NO_DAEMON), Int32(AVAHI_ERR_DBUS_ERROR), Int32(AVAHI_ERR_DISCONNECTED),
    ]

    /// True when the error means avahi-daemon (or the D-Bus system bus) is
    /// not running, the case a caller reports once and carries on from.
    package var isDaemonUnavailable: Bool {
        if case .daemonNotRunning = self { return true }
        return false
    }

    /// One sentence naming the call, avahi's reason and what to do.
    package var description: String {
        switch self {
        case let .daemonNotRunning(function, code, reason):
            return "avahi-daemon is not running or the D-Bus system bus is not there (\(function): \(reason), code \(code)); " +
                Self.installHint
        case let .call(function, code, reason):
            return "\(function) failed: \(reason) (avahi error \(code))"
        }
    }
}
