/// What happened to an announcement after `ZeroconfAnnouncer.announce`
/// returned, reported on avahi's thread; the wiring turns each into one log
/// line of the right level.
package enum ZeroconfEvent: Sendable, Equatable, CustomStringConvertible {
    /// avahi-daemon has the service on the network under `name`.
    case established(name: String, type: String, port: UInt16)
    /// Another host had `from`; the service now goes by `to`.
    case renamed(from: String, to: String)
    /// avahi-daemon went away (stopped or restarted); `name` is announced
    /// again when it is back.
    case daemonLost(name: String)
    /// The announcement ended (the daemon went away, or refused the
    /// records) and stays ended until ears restarts.
    case ended(name: String, type: String, error: AvahiError)

    /// Whether a person should look (a warning), not just be told (info).
    package var isProblem: Bool {
        switch self {
        case .ended, .daemonLost: return true
        case .established, .renamed: return false
        }
    }

    /// The log line, without a level.
    package var description: String {
        switch self {
        case let .established(name, type, port):
            return "zeroconf: announced \(type) as '\(name)' on port \(port)"
        case let .renamed(from, to):
            return "zeroconf: the name '\(from)' is taken on this network; announcing as '\(to)'"
        case let .daemonLost(name):
            return "zeroconf: avahi-daemon went away; '\(name)' is announced again when it is back"
        case let .ended(name, type, error):
            return "zeroconf: '\(name)' (\(type)) is no longer announced until ears restarts: \(error)"
        }
    }
}
