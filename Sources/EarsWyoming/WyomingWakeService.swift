import EarsCore
import EarsSocket
import Foundation
import Glibc
import Synchronization
import EarsConfig

/// ears as a Wyoming wake service: the role wyoming-openwakeword plays for
/// Home Assistant and wyoming-satellite, with the configured phrases as its
/// models (`[wyoming] uri`, `ears listen --uri`).
///
/// Threads: one accept thread, "ears-wyoming-wake", polls every listening
/// socket and starts one thread per admitted connection
/// ("ears-wyoming-remote"), which reads its events, runs its
/// `WyomingWakeSession` and feeds its own `RemoteWakeListener` (an ear and
/// detector of its own, built by `makeListener` when the first audio
/// arrives). A slow decode therefore delays only its own client; the
/// microphone's audio path shares nothing with these threads but the
/// read-only phrase list and the meters' lock.
///
/// Limits: at most `Options.maximumStreams` connections at once (each may
/// hold an engine); one more is sent an `error` event and closed. Event
/// sizes are bounded by `Options.readerLimits`; a bad event gets an `error`
/// event and the connection is closed; the daemon carries on.
///
/// Lifetime: `stop()` closes the listening sockets and asks every
/// connection to end; connections notice within `pollMilliseconds`.
package final class WyomingWakeService: Sendable {
    /// Limits and what `info` says.
    package struct Options: Sendable {
        /// Connections served at once; each may hold an engine (about 130 MB
        /// with PocketSphinx and its verifier).
        package var maximumStreams: Int
        /// Largest header, data and payload accepted from a client.
        package var readerLimits: WyomingEventReader.Limits
        /// Longest wait for a client to take what ears writes, in seconds;
        /// a client that reads nothing for this long is disconnected.
        package var writeTimeoutSeconds: Double
        /// Longest silence from a client, in seconds, before its connection
        /// is closed, so idle connections cannot hold every stream slot.
        /// Satellites send audio all the time; five minutes outlasts a
        /// satellite's pause while it streams a long answer to its server.
        package var idleTimeoutSeconds: Double
        /// Permission bits of a `unix://` socket file.
        package var socketMode: mode_t
        /// ears' version, shown in `info`.
        package var version: String?
        /// Language codes of the phrases, shown in `info` (unknown: empty).
        package var languages: [String]

        /// The default `maximumStreams`.
        package static let defaultMaximumStreams = 4

        /// Makes options; the defaults suit `ears listen`.
        package init(maximumStreams: Int = defaultMaximumStreams,
                    readerLimits: WyomingEventReader.Limits = .init(headerBytes: 64 * 1024, dataBytes: 64 * 1024, payloadBytes: 1 << 20),
                    writeTimeoutSeconds: Double = 5, idleTimeoutSeconds: Double = 300, socketMode: mode_t = 0o660,
                    version: String? = nil, languages: [String] = []) {
            self.maximumStreams = maximumStreams
            self.readerLimits = readerLimits
            self.writeTimeoutSeconds = writeTimeoutSeconds
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.socketMode = socketMode
            self.version = version
            self.languages = languages
        }
    }

    /// Builds one connection's listener; called on that connection's thread.
    package typealias ListenerFactory = @Sendable () throws(RemoteWakeError) -> any RemoteWakeListener
    /// Takes back a closed connection's listener (to keep for the next
    /// connection, or to drop); called on that connection's thread.
    package typealias ListenerRecycler = @Sendable (any RemoteWakeListener) -> Void

    /// How often (milliseconds) threads look at the stop flag while idle.
    static let pollMilliseconds: Int32 = 200

    /// The addresses served, with the port the kernel chose for port 0
    /// (e.g. `tcp://127.0.0.1:10400`, `unix:///run/ears/wake.sock`).
    package let addresses: [String]
    /// The listening sockets; closed by the accept thread when it ends.
    let endpoints: [Endpoint]
    /// As given to `init`.
    let options: Options
    /// Connection notices and refusals (never audio or words).
    let log: EarsLog
    /// The phrases in force, read when a connection starts.
    let phrases: @Sendable () -> [String]
    /// Builds a connection's listener (on its thread).
    let makeListener: ListenerFactory
    /// Takes a closed connection's listener back.
    let recycle: ListenerRecycler
    /// Receives the meters after each change.
    let publish: @Sendable (RemoteMeter) -> Void
    /// The meters; changed only through `updateMeter` or under the lock.
    let meter = Mutex(RemoteMeter())
    /// Set once by `stop()`; every thread of the service looks at it.
    let stopping = Atomic<Bool>(false)
    /// Wakes the accept thread on `stop()`.
    let wake: WakePipe
    private let finished = DispatchSemaphore(value: 0)

    /// Opens every address in `uris` and starts the accept thread.
    ///
    /// - Parameters:
    ///   - uris: where to listen; `unix://` parents go through
    ///     `RuntimeDirectory.prepare`, a stale socket file is replaced.
    ///   - options: limits and `info` details.
    ///   - log: connection notices (never audio or words).
    ///   - phrases: the phrases in force (models in `info`, names `detect`
    ///     may ask for); cheap and thread-safe.
    ///   - makeListener: one connection's own ear and detector.
    ///   - recycle: receives the listener of every connection that ends
    ///     (default: dropped); it is never used by that connection again.
    ///   - publish: receives the meters after every change (any thread).
    /// - Throws: `SocketError` for the first address that cannot be opened;
    ///   the ones opened before it are closed again.
    package init(uris: [ServiceURI], options: Options = Options(), log: EarsLog = .silent,
                phrases: @escaping @Sendable () -> [String], makeListener: @escaping ListenerFactory,
                recycle: @escaping ListenerRecycler = { _ in },
                publish: @escaping @Sendable (RemoteMeter) -> Void = { _ in }) throws(SocketError) {
        var opened: [Endpoint] = []
        do throws(SocketError) {
            for uri in uris {
                let endpoint = try Endpoint.open(uri, mode: options.socketMode)
                opened.append(endpoint)
                try endpoint.setNonBlocking()
            }
            wake = try WakePipe(label: "wyoming wake service")
        } catch {
            opened.forEach { $0.closeAndRemove() }
            throw error
        }
        endpoints = opened
        addresses = opened.map(\.address)
        self.options = options
        self.log = log
        self.phrases = phrases
        self.makeListener = makeListener
        self.recycle = recycle
        self.publish = publish
        publish(RemoteMeter())
        let thread = Thread { [self] in
            self.acceptLoop()
            self.finished.signal()
        }
        thread.name = "ears-wyoming-wake"
        thread.start()
    }

    /// The meters now.
    package var snapshot: RemoteMeter { meter.withLock { $0 } }

    /// Closes the listening sockets (removing `unix://` files) and asks every
    /// connection to end. Idempotent. Waits for the accept thread only (one
    /// poll pass); connection threads end on their own within
    /// `pollMilliseconds` or when their decode returns.
    package func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        wake.signal()
        finished.wait()
        wake.close()
    }

    /// Changes the meters and publishes the result.
    func updateMeter(_ change: (inout RemoteMeter) -> Void) {
        let now = meter.withLock { state -> RemoteMeter in
            change(&state)
            return state
        }
        publish(now)
    }

    // MARK: Accepting

    private func acceptLoop() {
        var nextID: UInt64 = 1
        while !stopping.load(ordering: .relaxed) {
            var fds = [pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
            fds += endpoints.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            do {
                try SocketCall.poll(&fds, timeoutMilliseconds: -1, path: "wyoming wake service")
            } catch {
                log.error("wyoming wake: \(error)")
                usleep(100_000)
                continue
            }
            if fds[0].revents != 0 { wake.drain() }
            if stopping.load(ordering: .relaxed) { break }
            for (index, endpoint) in endpoints.enumerated() where fds[index + 1].revents != 0 {
                acceptAll(on: endpoint, nextID: &nextID)
            }
        }
        endpoints.forEach { $0.closeAndRemove() }
    }

    /// Accepts every pending connection on `endpoint`; one over the limit
    /// gets an `error` event and is closed.
    private func acceptAll(on endpoint: Endpoint, nextID: inout UInt64) {
        AcceptLoop.acceptPending(accept: { () throws(SocketError) in try endpoint.accept() }, exhausted: { error in
            // The connection stays queued and poll would report it again at once: pause.
            log.warning("wyoming wake: \(error)")
            usleep(100_000)
            return false
        }, handle: { stream in
            let limit = options.maximumStreams
            let admitted = meter.withLock { state -> Bool in
                guard state.openConnections < limit else {
                    state.refusedConnections += 1
                    return false
                }
                state.openConnections += 1
                state.totalConnections += 1
                return true
            }
            publish(snapshot)
            guard admitted else {
                let busy = WyomingEvent(type: "error", data: [
                    "text": .string("ears is already serving \(limit) wake streams; try again when one ends"),
                    "code": "busy",
                ])
                _ = stream.sendSome(busy.encoded(), from: 0, ignoringErrors: true)
                stream.close()
                log.warning("wyoming wake: refused a client on \(endpoint.address): \(limit) streams open")
                return
            }
            let id = nextID
            nextID += 1
            log.info("wyoming wake: client \(id) connected on \(endpoint.address)")
            let connection = WyomingWakeConnection(id: id, stream: stream, service: self)
            let thread = Thread { connection.run() }
            thread.name = "ears-wyoming-remote"
            thread.start()
        })
    }
}

extension UnixStream {
    /// `sendSome` for a best-effort farewell: failures count as nothing sent.
    fileprivate func sendSome(_ bytes: [UInt8], from offset: Int, ignoringErrors: Bool) -> Int {
        (try? sendSome(bytes, from: offset)) ?? 0
    }
}

/// One listening socket of the service, TCP or Unix.
enum Endpoint: Sendable {
    /// A `tcp://` address.
    case tcp(TCPSocketListener)
    /// A `unix://` socket file.
    case unix(UnixSocketListener)

    /// Binds `uri`.
    static func open(_ uri: ServiceURI, mode: mode_t) throws(SocketError) -> Endpoint {
        switch uri {
        case let .tcp(host, port): return .tcp(try TCPSocketListener.open(host: host, port: port))
        case let .unix(path): return .unix(try UnixSocketListener.open(path: path, mode: mode))
        }
    }

    /// The address as served (the bound port for TCP).
    var address: String {
        switch self {
        case let .tcp(listener): return Self.replacingPort(of: listener.label, with: listener.port)
        case let .unix(listener): return "unix://" + listener.path
        }
    }

    /// The listening descriptor, for poll.
    var descriptor: Int32 {
        switch self {
        case let .tcp(listener): return listener.descriptor
        case let .unix(listener): return listener.descriptor
        }
    }

    /// Makes `accept` return at once when nothing is pending.
    func setNonBlocking() throws(SocketError) {
        switch self {
        case let .tcp(listener): try listener.setNonBlocking()
        case let .unix(listener): try listener.setNonBlocking()
        }
    }

    /// One pending connection as a non-blocking stream, or nil.
    func accept() throws(SocketError) -> UnixStream? {
        switch self {
        case let .tcp(listener): return try listener.accept()
        case let .unix(listener): return try listener.accept()
        }
    }

    /// Closes the socket and removes a Unix socket's file.
    func closeAndRemove() {
        switch self {
        case let .tcp(listener): listener.close()
        case let .unix(listener):
            listener.close()
            listener.removeSocketFile()
        }
    }

    /// `tcp://host:PORT` with the port the kernel bound (differs for port 0).
    private static func replacingPort(of label: String, with port: Int) -> String {
        guard let colon = label.lastIndex(of: ":") else { return label }
        return label[..<colon] + ":\(port)"
    }
}
