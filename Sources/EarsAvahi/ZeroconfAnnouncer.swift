import Synchronization

/// Announces ears' TCP services on the local network through avahi-daemon
/// (DNS-SD over mDNS), so Home Assistant's Wyoming integration finds them.
///
/// Each `announce` is one published service with its own avahi connection
/// (`AvahiPublication`); `stop` withdraws them all. When avahi-daemon is not
/// running, `announce` throws `AvahiError.daemonNotRunning` at once; the
/// daemon's wiring says so once and goes on serving unannounced.
package final class ZeroconfAnnouncer: Sendable {
    /// The live publications, in announce order.
    private let publications = Mutex<[AvahiPublication]>([])
    /// Where later events go: established, renamed after a collision, ended.
    private let notice: @Sendable (ZeroconfEvent) -> Void

    /// An announcer whose later events (after each `announce` returned) go
    /// to `notice`, which is called on avahi's thread.
    package init(notice: @escaping @Sendable (ZeroconfEvent) -> Void) {
        self.notice = notice
    }

    /// Publishes `type` (default `_wyoming._tcp`) named `name` on TCP `port`
    /// with TXT entries `txt`, on every interface or (`loopbackOnly`, for a
    /// service bound to 127.0.0.1 or ::1) on `lo` alone. Returns once avahi-daemon has the request (the
    /// announcement itself follows within about a second). Throws
    /// `AvahiError.daemonNotRunning` without a D-Bus system bus, or
    /// `AvahiError.call` when avahi refuses the request; with the bus but
    /// no daemon, returns `.waitingForDaemon`. If the daemon goes away
    /// later, the service is announced again when it is back.
    @discardableResult
    package func announce(name: String, port: UInt16, txt: [String: String] = [:],
                          type: String = ZeroconfService.wyomingType, loopbackOnly: Bool = false) throws(AvahiError) -> Outcome {
        let service = ZeroconfService(name: name, type: type, port: port, txt: txt, loopbackOnly: loopbackOnly)
        let publication = try AvahiPublication(service: service, notice: notice)
        publications.withLock { $0.append(publication) }
        return publication.waitingForDaemonAtStart ? .waitingForDaemon : .requested
    }

    /// What `announce` did.
    package enum Outcome: Sendable, Equatable {
        /// avahi-daemon has the request; `established` follows.
        case requested
        /// The D-Bus system bus is there but avahi-daemon is not (yet): the
        /// service is announced when the daemon starts.
        case waitingForDaemon
    }

    /// The names as published now (after any collision renames), in announce order.
    package var announcedNames: [String] {
        publications.withLock { $0.map(\.publishedName) }
    }

    /// Withdraws every announcement and frees its avahi handles. Idempotent.
    package func stop() {
        let ended = publications.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for publication in ended { publication.withdraw() }
    }

    deinit { stop() }
}
