import Dispatch
import EarsSocket
import Glibc
import Synchronization

/// The status server's poll thread and what it owns: the listening socket,
/// the wake pipe's read end, and every connection.
///
/// One thread does everything, so connections need no locks: it accepts,
/// reads request heads through `HTTPRequestDecoder`, calls the handler,
/// writes the response without blocking, and closes. Each connection has a
/// total deadline from accept; poll sleeps until the nearest one, so an idle
/// server makes no wake-ups at all.
final class StatusServerLoop: Sendable {
    /// The socket path, for error labels only.
    let socketPath: String
    /// The listening socket (non-blocking); closed by the loop as it ends.
    let listener: UnixSocketListener
    /// Makes poll return when `stop` is requested.
    let wake: WakePipe
    /// Connection limit and deadline.
    let limits: StatusServer.Limits
    /// Maps a request to its response; runs on this thread.
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    /// Set once by `requestStop`.
    private let stopRequested = Atomic<Bool>(false)
    /// Signalled as the thread's last act, so `stop` can wait for it.
    let finished = DispatchSemaphore(value: 0)

    /// Bytes read from a socket per `recv`: a whole request head in one go.
    private static let readBytes = 16 * 1024
    /// Reads per connection per pass, so one fast sender cannot keep the
    /// loop from the others.
    private static let readsPerPass = 4
    /// How long the listener rests after `accept` failed for want of
    /// descriptors or memory (it would otherwise be reported ready at once).
    private static let acceptPause = Duration.milliseconds(100)

    init(socketPath: String, listener: UnixSocketListener, wake: WakePipe, limits: StatusServer.Limits,
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.socketPath = socketPath
        self.listener = listener
        self.wake = wake
        self.limits = limits
        self.handler = handler
    }

    /// Asks the loop to end; it closes every connection and the listener.
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        wake.signal()
    }

    /// The thread's body: serves until `requestStop`, then cleans up and
    /// signals `finished`.
    func run() {
        let clock = ContinuousClock()
        var connections: [StatusConnection] = []
        var buffer = [UInt8](repeating: 0, count: Self.readBytes)
        var acceptPausedUntil: ContinuousClock.Instant?
        while !stopRequested.load(ordering: .acquiring) {
            let now = clock.now
            connections.removeAll { connection in
                guard connection.deadline <= now else { return false }
                close(connection)
                return true
            }
            if let pause = acceptPausedUntil, pause <= now { acceptPausedUntil = nil }

            var fds = [pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: acceptPausedUntil == nil ? listener.descriptor : -1, events: Int16(POLLIN), revents: 0)]
            for connection in connections {
                fds.append(pollfd(fd: connection.fd, events: connection.pollEvents, revents: 0))
            }
            let wakeAt = connections.map(\.deadline).min().map { min($0, acceptPausedUntil ?? $0) } ?? acceptPausedUntil
            do {
                _ = try SocketCall.poll(&fds, timeoutMilliseconds: Self.milliseconds(until: wakeAt, now: now), path: socketPath)
            } catch {
                // Only EINVAL or ENOMEM are possible; rest rather than spin.
                usleep(100_000)
                continue
            }
            if fds[0].revents != 0 { continue } // stop requested: the loop condition ends it

            var done: [ObjectIdentifier] = []
            for (index, connection) in connections.enumerated() where fds[index + 2].revents != 0 {
                if !serve(connection, events: Int32(fds[index + 2].revents), buffer: &buffer) {
                    close(connection)
                    done.append(ObjectIdentifier(connection))
                }
            }
            if !done.isEmpty { connections.removeAll { done.contains(ObjectIdentifier($0)) } }
            if fds[1].revents != 0 {
                acceptPausedUntil = acceptClients(&connections, clock: clock)
            }
        }
        for connection in connections { close(connection) }
        listener.close()
        finished.signal()
    }

    // MARK: One connection

    /// Moves `connection` on after poll reported `events`; false when it
    /// is finished and must be closed.
    private func serve(_ connection: StatusConnection, events: Int32, buffer: inout [UInt8]) -> Bool {
        if events & (POLLERR | POLLNVAL) != 0 { return false }
        switch connection.stage {
        case .readingHead:
            return readHead(connection, buffer: &buffer)
        case .writing:
            // POLLHUP while writing: the client has gone, nobody will read.
            return events & POLLHUP == 0 && flush(connection)
        case .draining:
            return discardInput(connection, buffer: &buffer)
        }
    }

    /// Reads what has arrived into the decoder; answers once the head is
    /// complete or wrong. False when the client closed or the read failed.
    private func readHead(_ connection: StatusConnection, buffer: inout [UInt8]) -> Bool {
        for _ in 0..<Self.readsPerPass {
            guard case .readingHead(var decoder) = connection.stage else { return true }
            let received: Int?
            do {
                received = try connection.stream.receive(into: &buffer)
            } catch {
                return false // reset by the client
            }
            guard let count = received else { return true } // nothing more for now
            if count == 0 { return false } // the client gave up before a whole head
            // Drop the stage's copy so feeding does not copy the decoder's buffer.
            connection.stage = .draining
            let response: HTTPResponse
            let headOnly: Bool
            do {
                guard case .request(let request) = try decoder.feed(buffer[0..<count]) else {
                    connection.stage = .readingHead(decoder)
                    continue
                }
                response = handler(request)
                headOnly = request.method == "HEAD"
            } catch {
                response = error.response
                headOnly = false
            }
            let bytes = response.encoded(headOnly: headOnly)
                ?? HTTPResponse.internalServerError.encoded(headOnly: headOnly) ?? []
            connection.stage = .writing(bytes, sent: 0)
            return flush(connection)
        }
        return true
    }

    /// Writes as much of the response as the socket takes; once all of it
    /// has gone, ends the sending side and waits for the client to close.
    /// False when the write failed (the client went away).
    private func flush(_ connection: StatusConnection) -> Bool {
        guard case .writing(let bytes, var sent) = connection.stage else { return true }
        while sent < bytes.count {
            guard let count = try? connection.stream.sendSome(bytes, from: sent) else {
                return false
            }
            if count == 0 { break } // full: poll says when there is room
            sent += count
        }
        guard sent == bytes.count else {
            connection.stage = .writing(bytes, sent: sent)
            return true
        }
        // Lingering close: ending only our side lets the client read the
        // whole answer and its end; closing while unread bytes (a body, a
        // second request) sit in our receive queue would instead reset the
        // connection on the client.
        connection.stream.shutdownWrite()
        connection.stage = .draining
        return true
    }

    /// Reads and drops whatever the client still sends, until it closes.
    private func discardInput(_ connection: StatusConnection, buffer: inout [UInt8]) -> Bool {
        for _ in 0..<Self.readsPerPass {
            let received: Int?
            do {
                received = try connection.stream.receive(into: &buffer)
            } catch {
                return false
            }
            guard let count = received else { return true }
            if count == 0 { return false }
        }
        return true
    }

    /// Closes the connection's socket.
    private func close(_ connection: StatusConnection) {
        connection.stream.close()
    }

    // MARK: Accepting

    /// Accepts every pending client (at most the limit per pass). At the
    /// limit, a connection is evicted to make room (see `evictionVictim`).
    ///
    /// - Returns: when to look at the listener again if `accept` ran out of
    ///   descriptors or memory with nothing left to evict; else nil.
    private func acceptClients(_ connections: inout [StatusConnection],
                               clock: ContinuousClock) -> ContinuousClock.Instant? {
        var restUntil: ContinuousClock.Instant?
        AcceptLoop.acceptPending(upTo: limits.connections, accept: { () throws(SocketError) in try listener.accept() },
                                 exhausted: { _ in
            // The client stays queued: free a descriptor if any connection can go, else rest.
            guard let victim = Self.evictionVictim(connections) else {
                restUntil = clock.now + Self.acceptPause
                return false
            }
            close(connections.remove(at: victim))
            return true
        }, handle: { stream in
            if connections.count >= limits.connections, let victim = Self.evictionVictim(connections) {
                close(connections.remove(at: victim))
            }
            connections.append(StatusConnection(stream: stream, deadline: clock.now + .seconds(limits.requestDeadlineSeconds)))
        })
        return restUntil
    }

    /// Which connection to drop for a newcomer, by index: the oldest one
    /// already answered (only waiting for the client to close), else the
    /// oldest still reading its request head, else the oldest of all (its
    /// answer is being written to a client that does not read). A client
    /// that holds a connection without finishing its request can so never
    /// keep out a new one, however many such clients there are.
    static func evictionVictim(_ connections: [StatusConnection]) -> Int? {
        connections.firstIndex { $0.stage.isDraining }
            ?? connections.firstIndex { $0.stage.isReadingHead }
            ?? (connections.isEmpty ? nil : 0)
    }

    /// Poll's timeout: milliseconds until `instant`, rounded up (so the
    /// loop never wakes just before a deadline and spins), or -1 for none.
    private static func milliseconds(until instant: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> Int32 {
        guard let instant else { return -1 }
        let (seconds, attoseconds) = now.duration(to: instant).components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
