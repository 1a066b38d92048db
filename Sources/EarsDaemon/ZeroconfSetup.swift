import EarsAvahi
import EarsCore
import Glibc
import EarsConfig

/// Wires zeroconf into `ears listen`: each `tcp://` address of the Wyoming
/// wake service is announced as `_wyoming._tcp` through avahi-daemon, so
/// Home Assistant's Wyoming integration discovers it (`[wyoming] zeroconf`,
/// on by default).
///
/// Announcing is a courtesy, never a condition: without avahi-daemon (or
/// without a D-Bus system bus) `listen` says so once, in one sentence naming
/// what to install and start, and serves unannounced; a daemon that starts
/// (or restarts) later is found by the client and the service announced.
enum ZeroconfSetup {
    /// The instance name: what Home Assistant shows when it offers the
    /// discovered service ("ears on kitchen").
    static func serviceName(host: String) -> String { "ears on \(host)" }

    /// This machine's name (gethostname(2), no DNS lookup), "localhost" if unset.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: Int(HOST_NAME_MAX) + 1)
        guard gethostname(&buffer, buffer.count - 1) == 0, buffer[0] != 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Announces every `tcp://` address in `addresses` (as the service
    /// reports them) unless `config` turns zeroconf off. Returns the
    /// announcer to `stop` at shutdown (it also holds announcements waiting
    /// for avahi-daemon to start), or nil when there is nothing to announce
    /// or no D-Bus system bus.
    static func start(config: EarsConfig, addresses: [String], version: String, log: EarsLog) -> ZeroconfAnnouncer? {
        guard config.wyomingZeroconf else { return nil }
        let tcp: [(port: Int, loopback: Bool)] = addresses.compactMap { address in
            guard let uri = try? ServiceURI(parsing: address), case let .tcp(_, port) = uri else { return nil }
            return (port, !uri.isReachableFromOtherMachines)
        }
        guard !tcp.isEmpty else { return nil }
        let announcer = ZeroconfAnnouncer { event in
            if event.isProblem { log.warning(event.description) } else { log.info(event.description) }
        }
        let host = hostName()
        var saidWaiting = false
        for (index, address) in tcp.enumerated() {
            // One name per address: a second port on the same host needs its own.
            let name = index == 0 ? serviceName(host: host) : "\(serviceName(host: host)) port \(address.port)"
            do throws(AvahiError) {
                let outcome = try announcer.announce(name: name, port: UInt16(address.port), txt: ["version": version],
                                                     loopbackOnly: address.loopback)
                if outcome == .waitingForDaemon {
                    // Said once; each address is announced when the daemon starts.
                    if !saidWaiting {
                        log.warning("zeroconf: avahi-daemon is not running, so the Wyoming wake service is not announced yet; " +
                                    "ears announces it as soon as avahi-daemon starts (\(AvahiError.installHint))")
                    }
                    saidWaiting = true
                    continue
                }
                // The name as published: avahi may have given an alternative.
                let published = announcer.announcedNames.last ?? name
                log.info("zeroconf: announcing \(ZeroconfService.wyomingType) '\(published)' on port \(address.port)" +
                         (address.loopback ? " (loopback interface only)" : ""))
            } catch {
                if error.isDaemonUnavailable {
                    // Said once: the other addresses would fail the same way.
                    log.warning("zeroconf: the Wyoming wake service is not announced: \(error)")
                    announcer.stop()
                    return nil
                }
                log.warning("zeroconf: cannot announce port \(address.port): \(error)")
            }
        }
        return announcer
    }
}
