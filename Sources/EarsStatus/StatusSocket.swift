import EarsSocket
import Glibc

/// The socket calls the status server's poll thread makes on raw
/// descriptors, all through EarsSocket's `SocketCall` funnel (EINTR retried,
/// errno captured at once, failures as `SocketError.system` naming the call).
///
/// The loop keeps its connections as plain descriptors in a `pollfd` array,
/// so these take an `Int32`; the listener, the wake pipe and every error
/// type are EarsSocket's.
enum StatusSocket {
    /// One pending connection on the non-blocking `listener`, itself made
    /// non-blocking and close-on-exec; nil when none is pending.
    static func accept(_ listener: Int32, path: String) throws(SocketError) -> Int32? {
        // Plain accept then fcntl: Glibc's module map hides accept4
        // (_GNU_SOURCE). The close-on-exec gap is two calls wide; at worst a
        // hook started in that instant inherits one status connection.
        guard let fd = try SocketCall.runNonBlocking("accept", path: path, { Glibc.accept(listener, nil, nil) }) else {
            return nil
        }
        do {
            try SocketCall.setCloseOnExec(fd, path: path)
            try SocketCall.setNonBlocking(fd, path: path)
        } catch {
            close(fd, path: path)
            throw error
        }
        return fd
    }

    /// Receives up to `buffer.count` bytes from the non-blocking `fd`:
    /// the count (0 at end of stream), or nil when nothing is there yet.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], path: String) throws(SocketError) -> Int? {
        try SocketCall.runNonBlocking("recv", path: path) {
            buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        }
    }

    /// Sends as much of `bytes[offset...]` as the socket takes now; returns
    /// how many went (0 when the socket is full). `MSG_NOSIGNAL`: a client
    /// that has gone is an `EPIPE` error, not a process-killing `SIGPIPE`.
    static func sendSome(_ fd: Int32, _ bytes: [UInt8], from offset: Int, path: String) throws(SocketError) -> Int {
        let sent = try SocketCall.runNonBlocking("send", path: path) {
            bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        return sent ?? 0
    }

    /// Ends the sending direction: the client reads end of stream after the
    /// response, while the server can still read (and discard) what it sends.
    static func shutdownWrite(_ fd: Int32, path: String) {
        _ = try? SocketCall.run("shutdown", path: path) { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Closes `fd` once (never retried, see `SocketCall.close`).
    static func close(_ fd: Int32, path: String) {
        SocketCall.close(fd, path: path)
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for events on `fds`.
    static func poll(_ fds: inout [pollfd], timeoutMilliseconds: Int32, path: String) throws(SocketError) {
        _ = try SocketCall.poll(&fds, timeoutMilliseconds: timeoutMilliseconds, path: path)
    }
}
