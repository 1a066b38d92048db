import CAvahi
import Glibc

/// One service published through avahi-daemon, and the one owner of the
/// three avahi handles that keep it published: the threaded poll (avahi's
/// own event-loop thread), the client (the D-Bus connection to the daemon)
/// and the entry group (the published records). `withdraw` (or deinit) stops
/// the thread and frees them in that order, exactly once.
///
/// Threading: the handles are created and the service first added on the
/// caller's thread before the poll thread starts; from then on only avahi's
/// callbacks touch the state, and avahi runs them on its thread with its
/// lock held; `withdraw` stops that thread before it frees anything. That
/// discipline (not a Swift lock) is why the class is `@unchecked Sendable`.
final class AvahiPublication: @unchecked Sendable {
    /// The service as published now; its name changes (on avahi's thread)
    /// when avahi reports a collision and an alternative is chosen. Other
    /// threads read it through `publishedName`.
    private var service: ZeroconfService
    /// Where events after the start go (established, renamed, daemon lost, ended).
    private let notice: @Sendable (ZeroconfEvent) -> Void
    /// `AvahiThreadedPoll*`.
    private var poll: OpaquePointer?
    /// `AvahiClient*`; freeing it frees its entry groups too. Replaced by a
    /// new one (on avahi's thread) when the daemon goes away.
    private var client: OpaquePointer?
    /// `AvahiEntryGroup*`, made when the client first reaches RUNNING.
    private var group: OpaquePointer?
    /// The first error met inside a callback while `init` still runs, thrown
    /// from `init` (later ones go to `notice`).
    private var startError: AvahiError?
    /// True until avahi's thread starts (callbacks until then run inside
    /// `avahi_client_new` on the caller's thread): errors are thrown, not noticed.
    private var starting = true
    /// Renames tried after collisions; avahi's "#N" alternatives are
    /// cheap, but a network that collides forever must not spin.
    private var renames = 0
    /// More collisions than this and the service stays withdrawn.
    static let maximumRenames = 16
    /// The loopback interface's name on Linux.
    static let loopbackInterface = "lo"

    /// True when `init` found the system bus but no avahi-daemon on it: the
    /// client waits (`AVAHI_CLIENT_NO_FAIL`) and publishes when it appears.
    private(set) var waitingForDaemonAtStart = false

    /// Connects to avahi-daemon and publishes `service`, or, with the bus
    /// there but no daemon yet, waits for it (`waitingForDaemonAtStart`).
    /// Events after this (established, renamed after a collision, daemon
    /// lost and awaited again, ended) go to `notice`. Throws
    /// `AvahiError.daemonNotRunning` when there is no D-Bus system bus.
    init(service: ZeroconfService, notice: @escaping @Sendable (ZeroconfEvent) -> Void) throws(AvahiError) {
        self.service = service
        self.notice = notice
        do {
            try start()
        } catch {
            withdraw()
            throw error
        }
    }

    deinit { withdraw() }

    /// The name as published now, read under avahi's lock (a rename runs on
    /// avahi's thread). Never call it from an avahi callback: the lock is
    /// held there already.
    var publishedName: String {
        guard let poll else { return service.name }
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return service.name
    }

    /// Makes the poll and the client (whose first RUNNING callback adds the
    /// service), then starts avahi's thread.
    private func start() throws(AvahiError) {
        let poll = try AvahiCall.make("avahi_threaded_poll_new", errorCode: { Int32(AVAHI_ERR_NO_MEMORY) }) {
            avahi_threaded_poll_new()
        }
        self.poll = poll
        let client = try connect(poll: poll)
        self.client = client
        if let startError { throw startError }
        waitingForDaemonAtStart = avahi_client_get_state(client) == AVAHI_CLIENT_CONNECTING
        // Before the thread runs: from here on callbacks notice, not throw.
        starting = false
        try AvahiCall.check("avahi_threaded_poll_start") { avahi_threaded_poll_start(poll) }
    }

    /// A new client on `poll`. `AVAHI_CLIENT_NO_FAIL`: with the bus there
    /// but no daemon, the client waits in CONNECTING and turns RUNNING when
    /// the daemon appears (no bus at all still fails, with NO_DAEMON or
    /// DBUS_ERROR).
    private func connect(poll: OpaquePointer) throws(AvahiError) -> OpaquePointer {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var code: Int32 = 0
        return try AvahiCall.make("avahi_client_new", errorCode: { code }) {
            avahi_client_new(avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL, { client, state, userdata in
                guard let client, let userdata else { return }
                Unmanaged<AvahiPublication>.fromOpaque(userdata).takeUnretainedValue().clientChanged(client, state)
            }, me, &code)
        }
    }

    /// Stops avahi's thread and frees the client (with its group) and the
    /// poll. Idempotent; the service disappears from the network at once.
    func withdraw() {
        guard let poll else { return }
        // Stop first: after this no callback runs, so freeing is race-free.
        // (Stopping a poll whose thread never started is a harmless no-op error.)
        avahi_threaded_poll_stop(poll)
        if let client { avahi_client_free(client) }
        avahi_threaded_poll_free(poll)
        self.group = nil
        self.client = nil
        self.poll = nil
    }

    // MARK: avahi callbacks (on avahi's thread, its lock held, or inside avahi_client_new)

    /// The client's state changed: publish when RUNNING, withdraw the records
    /// while the host name is re-registered, and say so if the daemon went away.
    private func clientChanged(_ client: OpaquePointer, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            report { () throws(AvahiError) in try publish(client: client) }
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name is being (re-)registered; the records come back on RUNNING.
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_FAILURE:
            let code = avahi_client_errno(client)
            if code == Int32(AVAHI_ERR_DISCONNECTED), !starting, let poll {
                // The daemon went away (stopped, restarted, upgraded). Even
                // with NO_FAIL the client is dead now: free it (with its
                // group) and wait for the daemon with a new one, as
                // avahi-browse does. Freeing inside its own callback is what
                // avahi's own tools do; the client is not touched after.
                notice(.daemonLost(name: service.name))
                group = nil
                avahi_client_free(client)
                self.client = nil
                report { () throws(AvahiError) in self.client = try connect(poll: poll) }
            } else {
                let error = AvahiCall.error(function: "avahi client", code: code)
                report { () throws(AvahiError) in throw error }
            }
        default:
            break
        }
    }

    /// The entry group's state changed: report the announcement, or pick an
    /// alternative name after a collision and publish again.
    private func groupChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            if !starting {
                notice(.established(name: service.name, type: service.type, port: service.port))
            }
        case AVAHI_ENTRY_GROUP_COLLISION:
            report { () throws(AvahiError) in try rename(group: group) }
        case AVAHI_ENTRY_GROUP_FAILURE:
            let code = avahi_client_errno(avahi_entry_group_get_client(group))
            report { () throws(AvahiError) in throw AvahiCall.error(function: "avahi entry group", code: code) }
        default:
            break
        }
    }

    /// Makes the group on first use and (re)adds the service when the group is empty.
    private func publish(client: OpaquePointer) throws(AvahiError) {
        let group: OpaquePointer
        if let existing = self.group {
            group = existing
        } else {
            let me = Unmanaged.passUnretained(self).toOpaque()
            group = try AvahiCall.make("avahi_entry_group_new", errorCode: { avahi_client_errno(client) }) {
                avahi_entry_group_new(client, { group, state, userdata in
                    guard let group, let userdata else { return }
                    Unmanaged<AvahiPublication>.fromOpaque(userdata).takeUnretainedValue().groupChanged(group, state)
                }, me)
            }
            self.group = group
        }
        guard avahi_entry_group_is_empty(group) != 0 else { return }
        try addService(to: group)
        try AvahiCall.check("avahi_entry_group_commit") { avahi_entry_group_commit(group) }
    }

    /// Adds the service's records to `group` (not yet committed); a local
    /// name collision picks the next alternative name and tries again.
    private func addService(to group: OpaquePointer) throws(AvahiError) {
        var records: UnsafeMutablePointer<AvahiStringList>? = nil
        for record in service.txtRecords { records = avahi_string_list_add(records, record) }
        defer { avahi_string_list_free(records) }
        var interface = AvahiIfIndex(AVAHI_IF_UNSPEC)
        if service.loopbackOnly {
            let index = if_nametoindex(Self.loopbackInterface)
            // No "lo" (never on Linux): avahi's own error for a bad interface.
            guard index > 0 else { throw AvahiCall.error(function: "if_nametoindex(lo)", code: Int32(AVAHI_ERR_INVALID_INTERFACE)) }
            interface = AvahiIfIndex(index)
        }
        while true {
            let service = self.service
            let code = avahi_entry_group_add_service_strlst(
                group, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC),
                AvahiPublishFlags(rawValue: 0), service.name, service.type, nil, nil, service.port, records)
            if code == Int32(AVAHI_ERR_COLLISION), renames < Self.maximumRenames {
                try chooseAlternativeName()
                continue
            }
            try AvahiCall.check("avahi_entry_group_add_service_strlst") { code }
            return
        }
    }

    /// Another host announced the same name: take avahi's alternative
    /// ("ears on kitchen #2"), empty the group and publish again.
    private func rename(group: OpaquePointer) throws(AvahiError) {
        guard renames < Self.maximumRenames else {
            throw AvahiCall.error(function: "avahi entry group", code: Int32(AVAHI_ERR_COLLISION))
        }
        let old = service.name
        try chooseAlternativeName()
        notice(.renamed(from: old, to: service.name))
        try AvahiCall.check("avahi_entry_group_reset") { avahi_entry_group_reset(group) }
        try addService(to: group)
        try AvahiCall.check("avahi_entry_group_commit") { avahi_entry_group_commit(group) }
    }

    /// Replaces the service name with avahi's next alternative.
    private func chooseAlternativeName() throws(AvahiError) {
        renames += 1
        let alternative = try AvahiCall.make("avahi_alternative_service_name",
                                             errorCode: { Int32(AVAHI_ERR_NO_MEMORY) }) {
            avahi_alternative_service_name(service.name)
        }
        defer { avahi_free(alternative) }
        service.name = String(cString: alternative)
    }

    /// Runs `body`; an error is kept for `init` to throw while starting and
    /// goes to `notice` afterwards (callbacks cannot throw into avahi).
    private func report(_ body: () throws(AvahiError) -> Void) {
        do {
            try body()
        } catch {
            if starting {
                if startError == nil { startError = error }
            } else {
                notice(.ended(name: service.name, type: service.type, error: error))
            }
        }
    }
}
