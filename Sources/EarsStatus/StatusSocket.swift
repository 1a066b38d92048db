import Glibc

/// Every socket call the status server's poll thread makes, in one place and
/// all through the module's `Syscall` funnel (EINTR retried, errno captured
/// at once, failures as `StatusServerError.system` naming the call).
///
/// Kept together on purpose: when the socket code moves into one module,
/// this is the only file of the server that has to follow it.
enum StatusSocket {
    /// Sets `O_NONBLOCK` on `fd`.
    static func setNonBlocking(_ fd: Int32, path: String) throws(StatusServerError) {
        let flags = try Syscall.run("fcntl(F_GETFL)", path: path) { fcntl(fd, F_GETFL) }
        try Syscall.run("fcntl(F_SETFL)", path: path) { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// One pending connection on the non-blocking `listener`, itself made
    /// non-blocking and close-on-exec; nil when none is pending.
    static func accept(_ listener: Int32, path: String) throws(StatusServerError) -> Int32? {
        // Plain accept then fcntl: Glibc's module map hides accept4
        // (_GNU_SOURCE). The close-on-exec gap is two calls wide; at worst a
        // hook started in that instant inherits one status connection.
        guard let fd = try nonBlocking("accept", path: path, { Glibc.accept(listener, nil, nil) }) else { return nil }
        do {
            try Syscall.run("fcntl(F_SETFD)", path: path) { fcntl(fd, F_SETFD, FD_CLOEXEC) }
            try setNonBlocking(fd, path: path)
        } catch {
            close(fd, path: path)
            throw error
        }
        return fd
    }

    /// Receives up to `buffer.count` bytes from the non-blocking `fd`:
    /// the count (0 at end of stream), or nil when nothing is there yet.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], path: String) throws(StatusServerError) -> Int? {
        try nonBlocking("recv", path: path) {
            Int32(buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) })
        }.map(Int.init)
    }

    /// Sends as much of `bytes[offset...]` as the socket takes now; returns
    /// how many went (0 when the socket is full). `MSG_NOSIGNAL`: a client
    /// that has gone is an `EPIPE` error, not a process-killing `SIGPIPE`.
    static func sendSome(_ fd: Int32, _ bytes: [UInt8], from offset: Int, path: String) throws(StatusServerError) -> Int {
        // A send on a stream socket moves at most the socket buffer (a few
        // hundred KiB), so the count always fits in Int32.
        let sent = try nonBlocking("send", path: path) {
            Int32(bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) })
        }
        return Int(sent ?? 0)
    }

    /// Ends the sending direction: the client reads end of stream after the
    /// response, while the server can still read (and discard) what it sends.
    static func shutdownWrite(_ fd: Int32, path: String) {
        _ = try? Syscall.run("shutdown", path: path) { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Closes `fd` once (never retried, see `Syscall.closeDescriptor`).
    static func close(_ fd: Int32, path: String) {
        Syscall.closeDescriptor(fd, path: path)
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for events on `fds`.
    static func poll(_ fds: inout [pollfd], timeoutMilliseconds: Int32, path: String) throws(StatusServerError) {
        try Syscall.run("poll", path: path) { Glibc.poll(&fds, nfds_t(fds.count), timeoutMilliseconds) }
    }

    /// `Syscall.run`, but `EAGAIN`/`EWOULDBLOCK` (nothing to do on a
    /// non-blocking descriptor) is nil rather than an error.
    private static func nonBlocking(
        _ call: String, path: String, _ body: () -> Int32
    ) throws(StatusServerError) -> Int32? {
        do {
            return try Syscall.run(call, path: path, body)
        } catch .system(_, _, EAGAIN) {
            return nil
        } catch .system(_, _, EWOULDBLOCK) {
            return nil
        }
    }
}

/// A self-pipe that wakes the poll thread from `stop()` without ever
/// blocking the caller. Both ends are non-blocking and close-on-exec.
struct StatusWakePipe: Sendable {
    /// The read end: readable while a wake-up is pending.
    let descriptor: Int32
    /// The write end.
    private let writeEnd: Int32
    /// Labels failures.
    private let path: String

    /// Creates the pipe.
    init(path: String) throws(StatusServerError) {
        var ends: [Int32] = [-1, -1]
        try Syscall.run("pipe", path: path) { pipe(&ends) }
        do {
            for end in ends {
                try Syscall.run("fcntl(F_SETFD)", path: path) { fcntl(end, F_SETFD, FD_CLOEXEC) }
                try StatusSocket.setNonBlocking(end, path: path)
            }
        } catch {
            for end in ends { StatusSocket.close(end, path: path) }
            throw error
        }
        descriptor = ends[0]
        writeEnd = ends[1]
        self.path = path
    }

    /// Makes `descriptor` readable. A full pipe (EAGAIN) already means a
    /// wake-up is pending, so the failure is ignored.
    func signal() {
        var byte: UInt8 = 1
        _ = try? Syscall.run("write", path: path) { Int32(write(writeEnd, &byte, 1)) }
    }

    /// Closes both ends.
    func close() {
        StatusSocket.close(descriptor, path: path)
        StatusSocket.close(writeEnd, path: path)
    }
}
