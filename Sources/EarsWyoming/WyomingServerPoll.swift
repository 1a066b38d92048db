import EarsSocket
import Glibc

/// One accepted client, owned by the poll thread alone (so no locking): the
/// socket, the event being written, and the reader for what it sends.
private final class Connection {
    let id: UInt64
    /// The socket; closed by `disconnect` (or when the connection is released).
    let stream: UnixStream
    /// The peer's user id, as counted by the connection limiter.
    let userID: uid_t
    var reader = WyomingEventReader(limits: .init(headerBytes: 64 * 1024, dataBytes: 256 * 1024, payloadBytes: 1 << 20))
    /// The encoded event being written and how much of it has gone; an event
    /// is never abandoned half-written, or the stream would be corrupt.
    var writing: [UInt8] = []
    var written = 0
    /// The client closed its sending side; it may still read.
    var readClosed = false
    /// The last send hit a full socket: ask poll for POLLOUT.
    var wantsWrite = false
    /// Drops seen so far; the log says "not keeping up" once per client,
    /// and the total when it disconnects.
    var reportedDrops = 0

    init(id: UInt64, stream: UnixStream, userID: uid_t) {
        self.id = id
        self.stream = stream
        self.userID = userID
    }
}

extension WyomingServer {
    /// The poll thread's loop: runs until `stop()`, then closes every client
    /// and the listening socket.
    func serve() {
        var connections: [Connection] = []
        var nextID: UInt64 = 1
        var limiter = ConnectionLimiter(maximumConnections: options.maximumClients,
                                        maximumPerUser: options.maximumClientsPerUser)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var fds = [pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)]
            for connection in connections {
                var events: Int16 = 0
                if !connection.readClosed { events |= Int16(POLLIN) }
                if connection.wantsWrite { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: connection.stream.descriptor, events: events, revents: 0))
            }
            // Sleep for ever, or until refusals held back are due in the log.
            let timeout = limiter.secondsUntilNotice(nowSeconds: MonotonicClock.seconds())
                .map { Int32(min($0 * 1000, 1e9).rounded(.up)) } ?? -1
            do {
                try SocketCall.poll(&fds, timeoutMilliseconds: timeout, path: socketPath)
            } catch {
                // Only EINVAL or ENOMEM are possible; pause rather than spin.
                log.error("wyoming: \(error)")
                usleep(100_000)
                continue
            }
            if fds[0].revents != 0 { wake.drain() }
            if shared.withLock({ $0.stopping }) { break }

            var closed: [(Connection, String)] = []
            for (index, connection) in connections.enumerated() {
                let revents = Int32(fds[index + 2].revents)
                if revents & (POLLIN | POLLHUP | POLLERR) != 0 && !connection.readClosed {
                    if let problem = readRequests(connection, buffer: &buffer) {
                        closed.append((connection, problem))
                        continue
                    }
                }
                // Hang-up or error on the socket: nobody is reading any more.
                if revents & (POLLHUP | POLLERR | POLLNVAL) != 0 {
                    closed.append((connection, "hung up"))
                }
            }
            if fds[1].revents != 0 { acceptClients(&connections, nextID: &nextID, limiter: &limiter) }
            if let notice = limiter.pendingNotice(nowSeconds: MonotonicClock.seconds()) {
                log.warning("wyoming: \(notice)")
            }
            for connection in connections where !closed.contains(where: { $0.0 === connection }) {
                if let problem = flush(connection) { closed.append((connection, problem)) }
            }
            for (connection, reason) in closed {
                disconnect(connection, reason: reason)
                limiter.release(userID: connection.userID)
                connections.removeAll { $0 === connection }
            }
        }
        for connection in connections { disconnect(connection, reason: "server stopping") }
        listener.close()
    }

    /// Accepts every pending connection. One over a limit (see
    /// `ConnectionLimiter`) is closed straight away: it sees end of stream,
    /// not a hang, and the refusal is counted for the next notice.
    private func acceptClients(_ connections: inout [Connection], nextID: inout UInt64,
                               limiter: inout ConnectionLimiter) {
        AcceptLoop.acceptPending(accept: { () throws(SocketError) in try listener.accept() }, exhausted: { error in
            // The connection stays queued and poll would report it again at once: pause.
            log.warning("wyoming: \(error)")
            usleep(100_000)
            return false
        }, handle: { stream in
            let peer: PeerCredentials
            do {
                peer = try stream.peerCredentials()
            } catch {
                // Without a uid the per-user limit cannot be applied: refuse.
                log.warning("wyoming: refusing a client whose user is unknown: \(error)")
                stream.close()
                return
            }
            if case let .refused(notice) = limiter.admit(userID: peer.userID, nowSeconds: MonotonicClock.seconds()) {
                // Held-back refusals are reported later, from `serve`.
                if let notice { log.warning("wyoming: \(notice)") }
                stream.close()
                return
            }
            let id = nextID
            nextID += 1
            let capacity = options.queueCapacity
            let count = shared.withLock { state -> Int in
                state.outboxes[id] = WyomingOutbox(capacity: capacity, skippingCapture: state.captureOpen)
                return state.outboxes.count
            }
            connections.append(Connection(id: id, stream: stream, userID: peer.userID))
            log.info("wyoming: client \(id) connected (uid \(peer.userID); \(count) connected)")
        })
    }

    /// Reads what the client sent and answers requests. Returns why the
    /// client must be disconnected, or nil.
    private func readRequests(_ connection: Connection, buffer: inout [UInt8]) -> String? {
        // A bounded number of reads per pass, so one chatty client cannot
        // keep the loop from serving the others.
        for _ in 0..<8 {
            let count: Int
            do {
                guard let received = try connection.stream.receive(into: &buffer) else { return nil }
                count = received
            } catch {
                return "read failed: \(error)"
            }
            if count == 0 {
                connection.readClosed = true
                return nil
            }
            connection.reader.append(buffer[0..<count])
            do {
                while let event = try connection.reader.nextEvent() {
                    answer(event, from: connection)
                }
            } catch {
                return "\(error)"
            }
        }
        return nil
    }

    /// `describe` gets `info`, `ping` gets `pong`; anything else is ignored.
    private func answer(_ event: WyomingEvent, from connection: Connection) {
        let reply: WyomingEvent
        switch event.type {
        case WyomingEvent.EventType.describe:
            reply = .info(wakePhrases: wakePhrases(), version: options.version)
        case "ping":
            reply = WyomingEvent(type: "pong", data: ["text": event.data["text"] ?? .null])
        default:
            return
        }
        let bytes = reply.encoded()
        shared.withLock { state in
            if state.outboxes[connection.id]?.push(bytes) == true { state.droppedTotal += 1 }
        }
    }

    /// Writes queued events until the outbox is empty or the socket is full.
    /// Returns why the client must be disconnected, or nil.
    private func flush(_ connection: Connection) -> String? {
        let id = connection.id
        // Checked on every pass, not only when an event is taken: a client
        // that never reads keeps its socket full, so nothing is ever taken.
        let dropped = shared.withLock { $0.outboxes[id]?.dropped ?? 0 }
        if dropped > connection.reportedDrops {
            // Logged here, not in `send`: the audio thread writes no logs.
            if connection.reportedDrops == 0 {
                log.warning("wyoming: client \(id) is not keeping up; dropping its oldest events")
            }
            connection.reportedDrops = dropped
        }
        while true {
            if connection.written == connection.writing.count {
                let next = shared.withLock { $0.outboxes[id]?.popFirst() }
                guard let next else {
                    connection.writing = []
                    connection.written = 0
                    connection.wantsWrite = false
                    return nil
                }
                connection.writing = next
                connection.written = 0
            }
            let count: Int
            do {
                count = try connection.stream.sendSome(connection.writing, from: connection.written)
            } catch {
                return "write failed: \(error)"
            }
            if count == 0 {
                connection.wantsWrite = true
                return nil
            }
            connection.written += count
        }
    }

    /// Forgets the client's outbox and closes its socket.
    private func disconnect(_ connection: Connection, reason: String) {
        let (dropped, remaining) = shared.withLock { state in
            (state.outboxes.removeValue(forKey: connection.id)?.dropped ?? 0, state.outboxes.count)
        }
        connection.stream.close()
        let drops = dropped > 0 ? ", \(dropped) events dropped" : ""
        log.info("wyoming: client \(connection.id) disconnected (\(reason)\(drops); \(remaining) connected)")
    }
}
