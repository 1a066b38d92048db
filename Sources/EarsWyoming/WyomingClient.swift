import EarsStatus
import Glibc

/// A blocking Wyoming client over a Unix socket, as `ears follow` uses it:
/// connect, optionally send requests, then read events one at a time.
///
/// Not thread-safe: use one instance from one thread. The socket is closed
/// by `close()` or when the instance is released.
public final class WyomingClient {
    /// Why the client could not connect, read or write.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A socket call failed (`connect` refused, server gone, ...).
        case socket(StatusServerError)
        /// The server sent something that is not Wyoming.
        case protocolViolation(WyomingProtocolError)
        /// No complete event arrived within the time allowed.
        case timedOut(seconds: Double)
        /// The stream ended in the middle of an event.
        case truncated

        /// One line for the terminal.
        public var description: String {
            switch self {
            case let .socket(error): return error.description
            case let .protocolViolation(error): return error.description
            case let .timedOut(seconds): return "no event within \(seconds) s"
            case .truncated: return "the connection ended in the middle of an event"
            }
        }
    }

    /// The socket path connected to.
    public let socketPath: String
    private let fd: Int32
    private var reader: WyomingEventReader
    private var isClosed = false
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to the Wyoming server at `socketPath`.
    ///
    /// - Parameter limits: the largest header, data and payload accepted
    ///   from the server.
    /// - Throws: `Failure.socket` if nobody listens there (or the path is
    ///   not reachable).
    public init(socketPath: String, limits: WyomingEventReader.Limits = .init()) throws(Failure) {
        self.socketPath = socketPath
        do {
            fd = try WyomingSocket.connect(path: socketPath)
        } catch {
            throw .socket(error)
        }
        reader = WyomingEventReader(limits: limits)
    }

    deinit { close() }

    /// Writes `event` completely (blocking until the server has taken it).
    public func send(_ event: WyomingEvent) throws(Failure) {
        do {
            try WyomingSocket.sendAll(fd, event.encoded(), path: socketPath)
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
    public func nextEvent(timeoutSeconds: Double? = nil) throws(Failure) -> WyomingEvent? {
        let deadline = timeoutSeconds.map { Self.now() + $0 }
        while true {
            do {
                if let event = try reader.nextEvent() { return event }
            } catch {
                throw .protocolViolation(error)
            }
            if let deadline, let timeoutSeconds {
                let remaining = deadline - Self.now()
                guard remaining > 0, try waitReadable(milliseconds: Int32(min(remaining * 1000, 1e9).rounded(.up))) else {
                    throw .timedOut(seconds: timeoutSeconds)
                }
            }
            let count: Int
            do {
                count = try WyomingSocket.receive(fd, into: &buffer, path: socketPath) ?? 0
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
    public func run(_ handler: (WyomingEvent) -> Bool) throws(Failure) {
        while let event = try nextEvent() {
            guard handler(event) else { return }
        }
    }

    /// Closes the connection. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        WyomingSyscall.close(fd)
    }

    /// Waits until `fd` is readable (or hung up); false on timeout.
    private func waitReadable(milliseconds: Int32) throws(Failure) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        do {
            return try WyomingSyscall.run("poll", path: socketPath) { poll(&descriptor, 1, milliseconds) } > 0
        } catch {
            throw .socket(error)
        }
    }

    /// Monotonic seconds, for deadlines.
    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
