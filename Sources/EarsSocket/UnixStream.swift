import Glibc

/// One connected Unix stream socket and its sole owner: the descriptor is
/// closed by `close()` or when the instance is released, exactly once.
///
/// Used on both sides: `connect(path:)` for clients (`ears status`,
/// `ears follow`), `UnixSocketListener.accept()` for servers. Every call
/// goes through `SocketCall`, so failures are `SocketError`s naming `path`.
///
/// Not thread-safe: use an instance from one thread at a time.
package final class UnixStream {
    /// The socket's descriptor (close-on-exec); valid until `close()`.
    package let descriptor: Int32
    /// The socket path, for error messages.
    package let path: String
    private var isClosed = false

    /// Accepts one pending connection on the listening socket `listener`
    /// as a non-blocking, close-on-exec stream labelled `path`; nil when
    /// none is pending (the listener must be non-blocking). Both listeners,
    /// Unix and TCP, accept through here.
    package static func accept(on listener: Int32, path: String) throws(SocketError) -> UnixStream? {
        // Plain accept: Glibc's module map hides accept4 (_GNU_SOURCE), so
        // the flags are set right after.
        guard let fd = try SocketCall.runNonBlocking("accept", path: path, { Glibc.accept(listener, nil, nil) }) else {
            return nil
        }
        let stream = UnixStream(adopting: fd, path: path)
        try SocketCall.setCloseOnExec(fd, path: path)
        try stream.setNonBlocking()
        return stream
    }

    /// Takes ownership of the connected socket `descriptor`.
    package init(adopting descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close() }

    /// Connects a new blocking, close-on-exec stream socket to the server
    /// listening at `path`.
    ///
    /// A Unix-socket `connect` only ever waits for room in the server's
    /// backlog; interrupted, it leaves the socket unconnected, so retrying
    /// after `EINTR` (as the funnel does) is correct here.
    ///
    /// - Throws: `SocketError.unreachable` when no server listens there
    ///   (no file, or a stale one), else `.system` / `.pathTooLong`.
    package static func connect(path: String) throws(SocketError) -> UnixStream {
        let address = try UnixSocketAddress(path: path)
        let stream = UnixStream(adopting: try UnixSocketAddress.openStreamSocket(path: path), path: path)
        do {
            try SocketCall.run("connect", path: path) {
                address.withSocketAddress { Glibc.connect(stream.descriptor, $0, $1) }
            }
        } catch .system(_, _, let code) where code == ENOENT || code == ECONNREFUSED {
            throw .unreachable(path: path, errno: code)
        }
        return stream
    }

    /// Sets `O_NONBLOCK`: from then on `sendSome` and `receive` never wait.
    package func setNonBlocking() throws(SocketError) {
        try SocketCall.setNonBlocking(descriptor, path: path)
    }

    /// Writes all of `bytes`, waiting for room as needed (blocking socket).
    /// `MSG_NOSIGNAL`: a peer that went away is an `EPIPE` error here, not a
    /// process-killing `SIGPIPE`.
    package func sendAll(_ bytes: [UInt8]) throws(SocketError) {
        var sent = 0
        while sent < bytes.count {
            sent += try SocketCall.run("send", path: path) {
                bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Sends as much of `bytes[offset...]` as the socket takes now, without
    /// waiting; returns how many bytes went (0 when the socket is full).
    package func sendSome(_ bytes: [UInt8], from offset: Int) throws(SocketError) -> Int {
        let count = try SocketCall.runNonBlocking("send", path: path) {
            bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
        }
        return count ?? 0
    }

    /// Receives up to `buffer.count` bytes into `buffer`. Returns the count
    /// (0 at end of stream), or nil when a non-blocking socket has nothing.
    package func receive(into buffer: inout [UInt8]) throws(SocketError) -> Int? {
        try SocketCall.runNonBlocking("recv", path: path) {
            buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    /// Receives like `receive`, waiting at most until `deadlineSeconds` on
    /// `MonotonicClock` for something to arrive.
    ///
    /// - Throws: `SocketError.timedOut` (reporting `timeoutSeconds`) when the
    ///   deadline passes first.
    package func receive(into buffer: inout [UInt8], deadlineSeconds: Double, timeoutSeconds: Double) throws(SocketError) -> Int {
        while true {
            let remaining = deadlineSeconds - MonotonicClock.seconds()
            let milliseconds = Int32(min(max(remaining, 0) * 1000, 1e9).rounded(.up))
            guard remaining > 0, try SocketCall.waitReadable(descriptor, timeoutMilliseconds: milliseconds, path: path) else {
                throw .timedOut(path: path, seconds: timeoutSeconds)
            }
            // Readable yet nothing (a spurious wake-up): wait again.
            let count = try SocketCall.runNonBlocking("recv", path: path) {
                buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
            if let count { return count }
        }
    }

    /// Ends the sending direction: the peer reads end of stream after what
    /// was sent, while this side can still read. Failures are ignored (the
    /// peer may already be gone).
    package func shutdownWrite() {
        _ = try? SocketCall.run("shutdown", path: path) { shutdown(descriptor, Int32(SHUT_WR)) }
    }

    /// Waits until the socket is readable (or hung up); false on timeout.
    package func waitReadable(timeoutMilliseconds: Int32) throws(SocketError) -> Bool {
        try SocketCall.waitReadable(descriptor, timeoutMilliseconds: timeoutMilliseconds, path: path)
    }

    /// Who connected (for an accepted socket) or who listens (for a client's).
    package func peerCredentials() throws(SocketError) -> PeerCredentials {
        try PeerCredentials.of(descriptor, path: path)
    }

    /// Closes the socket. Idempotent.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        SocketCall.close(descriptor, path: path)
    }
}

/// Monotonic time for deadlines and rate limits (never jumps with the wall
/// clock).
package enum MonotonicClock {
    /// Seconds since an arbitrary fixed point (boot, on Linux).
    package static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
