import EarsSocket

/// A blocking Wyoming client over a Unix socket, as `ears follow` uses it:
/// connect, optionally send requests, then read events one at a time.
///
/// Not thread-safe: use one instance from one thread. The socket is closed
/// by `close()` or when the instance is released.
package final class WyomingClient {
    /// Why the client could not connect, read or write.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A socket call failed (`connect` refused, server gone, ...).
        case socket(SocketError)
        /// The server sent something that is not Wyoming.
        case protocolViolation(WyomingProtocolError)
        /// No complete event arrived within the time allowed.
        case timedOut(seconds: Double)
        /// The stream ended in the middle of an event.
        case truncated

        /// One line for the terminal.
        package var description: String {
            switch self {
            case let .socket(error): return error.description
            case let .protocolViolation(error): return error.description
            case let .timedOut(seconds): return "no event within \(seconds) s"
            case .truncated: return "the connection ended in the middle of an event"
            }
        }
    }

    /// The socket path connected to.
    package let socketPath: String
    private let stream: UnixStream
    private var reader: WyomingEventReader
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to the Wyoming server at `socketPath`.
    ///
    /// - Parameter limits: the largest header, data and payload accepted
    ///   from the server.
    /// - Throws: `Failure.socket` if nobody listens there (or the path is
    ///   not reachable).
    package init(socketPath: String, limits: WyomingEventReader.Limits = .init()) throws(Failure) {
        self.socketPath = socketPath
        do {
            stream = try UnixStream.connect(path: socketPath)
        } catch {
            throw .socket(error)
        }
        reader = WyomingEventReader(limits: limits)
    }

    /// Writes `event` completely (blocking until the server has taken it).
    package func send(_ event: WyomingEvent) throws(Failure) {
        do {
            try stream.sendAll(event.encoded())
        } catch {
            throw .socket(error)
        }
    }

    /// The next event, or nil when the server closed the connection cleanly
    /// (between events).
    ///
    /// - Parameter timeoutSeconds: longest wait for the event to be
    ///   complete; nil waits as long as it takes.
    /// - Throws: `Failure.timedOut`, `.truncated`, `.socket`, or
    ///   `.protocolViolation`.
    package func nextEvent(timeoutSeconds: Double? = nil) throws(Failure) -> WyomingEvent? {
        let deadline = timeoutSeconds.map { MonotonicClock.seconds() + $0 }
        while true {
            do {
                if let event = try reader.nextEvent() { return event }
            } catch {
                throw .protocolViolation(error)
            }
            let count: Int
            do {
                if let deadline, let timeoutSeconds {
                    count = try stream.receive(into: &buffer, deadlineSeconds: deadline, timeoutSeconds: timeoutSeconds)
                } else {
                    count = try stream.receive(into: &buffer) ?? 0
                }
            } catch .timedOut {
                throw .timedOut(seconds: timeoutSeconds ?? 0)
            } catch {
                throw .socket(error)
            }
            if count == 0 {
                if reader.bufferedByteCount > 0 { throw .truncated }
                return nil
            }
            reader.append(buffer[0..<count])
        }
    }

    /// Reads events and hands each to `handler` until the server closes the
    /// connection or `handler` returns false.
    package func run(_ handler: (WyomingEvent) -> Bool) throws(Failure) {
        while let event = try nextEvent() {
            guard handler(event) else { return }
        }
    }

    /// Closes the connection (also done when the instance is released).
    /// Idempotent.
    package func close() {
        stream.close()
    }
}
