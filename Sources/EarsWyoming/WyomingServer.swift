import Dispatch
import EarsCore
import EarsSocket
import Foundation
import Glibc
import Synchronization

/// Hands wake detections and captures to local consumers over a Unix socket
/// speaking the Wyoming protocol (`<runtime dir>/listen.sock`).
///
/// Threads: `send` runs on the caller's thread (the audio thread) and only
/// encodes the event once and appends it to each client's bounded outbox
/// under a short lock, then pokes a wake pipe. One poll thread,
/// "ears-wyoming", does every socket operation: accepting, writing outboxes
/// with non-blocking sends, reading requests. A client that stops reading
/// fills its own outbox and loses its oldest events (counted); a client that
/// goes away is closed on the next failed send or hang-up. Neither can stall
/// `send` or the other clients.
///
/// Requests: `describe` is answered with `info` listing the wake phrases
/// (from the closure given to `init`, called on the poll thread), `ping`
/// with `pong`; every other event a client sends is read and ignored.
///
/// A client that connects during a capture receives no `audio-chunk` or
/// `audio-stop` until the next `audio-start`, so each capture it sees is
/// well-formed.
///
/// Limits: at most `Options.maximumClients` clients in all and
/// `Options.maximumClientsPerUser` from any one user id (the kernel's
/// `SO_PEERCRED`, not a claim), so one user's idle connections cannot lock
/// the others out. A refused client is closed at once (it reads end of
/// stream); refusals are logged at most once a minute, with a count.
///
/// Lifetime: the poll thread keeps the server alive; call `stop()` once done.
package final class WyomingServer: Sendable {
    /// Tuning and socket-file settings.
    package struct Options: Sendable {
        /// Events each client's outbox holds before dropping its oldest
        /// (256 is about 25 s of 100 ms chunks: more than a 20 s capture).
        package var queueCapacity: Int
        /// Clients served at once, all users together; later connections
        /// are closed at once. Bounds memory at about this many full outboxes
        /// (64 × 256 events of 3.2 kB: about 52 MB at the very worst).
        package var maximumClients: Int
        /// Clients served at once from one user id (`SO_PEERCRED`). Below
        /// `maximumClients`, so a user who fills their share still leaves
        /// room for everyone else.
        package var maximumClientsPerUser: Int
        /// Permission bits of the socket file.
        package var mode: mode_t
        /// Group of the socket file, if it should not be the process's.
        package var groupID: gid_t?
        /// ears' version, shown in `info`.
        package var version: String?

        /// The default `maximumClients`.
        package static let defaultMaximumClients = 64
        /// The default `maximumClientsPerUser`: a quarter of the clients.
        package static let defaultMaximumClientsPerUser = 16

        /// Makes options; the defaults suit `ears listen`.
        package init(queueCapacity: Int = 256, maximumClients: Int = defaultMaximumClients,
                    maximumClientsPerUser: Int = defaultMaximumClientsPerUser, mode: mode_t = 0o660,
                    groupID: gid_t? = nil, version: String? = nil) {
            self.queueCapacity = queueCapacity
            self.maximumClients = maximumClients
            self.maximumClientsPerUser = maximumClientsPerUser
            self.mode = mode
            self.groupID = groupID
            self.version = version
        }
    }

    /// The socket's file name inside the runtime directory.
    package static let socketFileName = "listen.sock"

    /// `<runtimeDirectory>/listen.sock`.
    package static func socketPath(runtimeDirectory: String) -> String {
        runtimeDirectory.hasSuffix("/") ? runtimeDirectory + socketFileName : runtimeDirectory + "/" + socketFileName
    }

    /// State shared by `send` (any thread) and the poll thread.
    struct Shared: Sendable {
        /// One outbox per connected client, by connection number.
        var outboxes: [UInt64: WyomingOutbox] = [:]
        /// Drops over the server's life, disconnected clients included.
        var droppedTotal = 0
        /// Between an `audio-start` and its `audio-stop`.
        var captureOpen = false
        /// Set once by `stop()`; `send` does nothing afterwards.
        var stopping = false
    }

    /// The socket path being served.
    package let socketPath: String
    /// The bound socket; its descriptor is closed by the poll thread.
    let listener: UnixSocketListener
    /// Wakes the poll thread when an outbox gains events or on `stop()`.
    let wake: WakePipe
    /// Everything `send` and the poll thread both touch.
    let shared = Mutex(Shared())
    /// As given to `init`.
    let options: Options
    /// Connection notices.
    let log: EarsLog
    /// The phrases `info` lists.
    let wakePhrases: @Sendable () -> [String]
    /// Signalled by the poll thread as its last act, so `stop` can wait.
    private let finished = DispatchSemaphore(value: 0)

    /// Binds `socketPath` (see `UnixSocketListener.open`: the parent
    /// directory is created if missing, a stale socket replaced, a live one
    /// refused) and starts the poll thread.
    ///
    /// - Parameters:
    ///   - socketPath: usually `socketPath(runtimeDirectory:)`.
    ///   - options: queue size, client limit, file mode and group.
    ///   - log: connection and drop notices (never audio).
    ///   - wakePhrases: the phrases to list in `info`; called on the poll
    ///     thread for each `describe`, so it must be cheap and thread-safe,
    ///     and must not call `stop()`.
    /// - Throws: `SocketError` naming the failed step and what to do.
    package init(socketPath: String, options: Options = Options(), log: EarsLog = .silent,
                wakePhrases: @escaping @Sendable () -> [String]) throws(SocketError) {
        let listener = try UnixSocketListener.open(path: socketPath, mode: options.mode, groupID: options.groupID)
        do {
            try listener.setNonBlocking()
            wake = try WakePipe(label: socketPath)
        } catch {
            listener.close()
            listener.removeSocketFile()
            throw error
        }
        self.listener = listener
        self.socketPath = socketPath
        self.options = options
        self.log = log
        self.wakePhrases = wakePhrases
        let thread = Thread { [self] in
            self.serve()
            self.finished.signal()
        }
        thread.name = "ears-wyoming"
        thread.start()
    }

    // MARK: Sending

    /// Queues `event` for every connected client and returns at once.
    ///
    /// Never blocks on a client: the cost is one encoding and, per client,
    /// an append under a lock (plus one non-blocking write to the wake pipe). With no
    /// client connected the event is not even encoded. After `stop()` it
    /// does nothing.
    package func send(_ event: WyomingEvent) {
        let type = event.type
        let anyone = shared.withLock { state -> Bool in
            if type == WyomingEvent.EventType.audioStart { state.captureOpen = true }
            if type == WyomingEvent.EventType.audioStop { state.captureOpen = false }
            return !state.stopping && !state.outboxes.isEmpty
        }
        guard anyone else { return }
        // Encoded outside the lock: the poll thread never waits on it.
        let bytes = event.encoded()
        shared.withLock { state in
            guard !state.stopping else { return }
            for index in state.outboxes.indices where state.outboxes.values[index].admits(eventType: type) {
                if state.outboxes.values[index].push(bytes) { state.droppedTotal += 1 }
            }
            // Signalled under the lock: `stop` sets `stopping` under it and
            // only then closes the pipe, so a send racing with `stop` can
            // never write to a closed (or reused) descriptor. The write is
            // one non-blocking syscall.
            wake.signal()
        }
    }

    // MARK: Counters

    /// Clients connected now.
    package var connectedClients: Int {
        shared.withLock { $0.outboxes.count }
    }

    /// Events discarded since start because a client's outbox was full,
    /// summed over all clients (including ones since disconnected).
    package var droppedEvents: Int {
        shared.withLock { $0.droppedTotal }
    }

    /// Per-client queue lengths and drop counts, in connection order.
    package func clientStatistics() -> [WyomingClientStatistics] {
        shared.withLock { state in
            state.outboxes.map { WyomingClientStatistics(id: $0.key, queuedEvents: $0.value.count, droppedEvents: $0.value.dropped) }
        }.sorted { $0.id < $1.id }
    }

    // MARK: Stopping

    /// Disconnects every client, closes the socket and removes its file.
    ///
    /// Idempotent: later calls return at once. Waits for the poll thread to
    /// finish, which takes at most one pass of its loop (it never blocks on
    /// a client). Queued events are discarded, not flushed.
    package func stop() {
        let first = shared.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        wake.signal()
        finished.wait()
        wake.close()
        listener.removeSocketFile()
    }
}
