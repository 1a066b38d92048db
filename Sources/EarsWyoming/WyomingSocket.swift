import EarsStatus
import Glibc

/// The funnel every system call in this module goes through, in the style of
/// EarsStatus's: `EINTR` is retried, `errno` is captured before anything can
/// overwrite it, and a failure becomes `StatusServerError.system` naming the
/// call and the socket path, so one log line says what broke.
///
/// (EarsStatus's own funnel is internal to that module, hence this copy of
/// the pattern; the error type is shared so callers see one kind of socket
/// error from `UnixSocketListener.open` and from here.)
enum WyomingSyscall {
    /// Runs `body` until it stops failing with `EINTR` and returns its
    /// non-negative result; -1 with any other `errno` throws.
    @discardableResult
    static func run<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, path: String, _ body: () -> Result
    ) throws(StatusServerError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw .system(call: call, path: path, errno: code)
        }
    }

    /// Like `run`, but `EAGAIN`/`EWOULDBLOCK` (a non-blocking descriptor
    /// with nothing to do) returns nil instead of throwing.
    static func runNonBlocking<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, path: String, _ body: () -> Result
    ) throws(StatusServerError) -> Result? {
        do {
            return try run(call, path: path, body)
        } catch .system(_, _, EAGAIN) {
            return nil
        } catch .system(_, _, EWOULDBLOCK) {
            return nil
        }
    }

    /// Closes `fd` once. Not retried on `EINTR`: Linux has released the
    /// descriptor by then, and a retry could close one another thread just
    /// opened. Errors are ignored; the caller is abandoning `fd` anyway.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}

/// Small socket operations shared by the server and the client.
enum WyomingSocket {
    /// Connects a new blocking, close-on-exec Unix stream socket to `path`.
    static func connect(path: String) throws(StatusServerError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else { throw .system(call: "socket path", path: path, errno: EINVAL) }
        guard bytes.count <= UnixSocketListener.maximumPathLength else {
            throw .pathTooLong(path: path, limit: UnixSocketListener.maximumPathLength)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = try WyomingSyscall.run("socket", path: path) {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            let length = socklen_t(MemoryLayout<sockaddr_un>.size)
            // A Unix-socket connect only ever waits for room in the server's
            // backlog; interrupted, it leaves the socket unconnected, so the
            // funnel's retry after EINTR is correct here.
            try WyomingSyscall.run("connect", path: path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
                }
            }
        } catch {
            WyomingSyscall.close(fd)
            throw error
        }
        return fd
    }

    /// Sets `O_NONBLOCK` on `fd`.
    static func setNonBlocking(_ fd: Int32, path: String) throws(StatusServerError) {
        let flags = try WyomingSyscall.run("fcntl(F_GETFL)", path: path) { fcntl(fd, F_GETFL) }
        try WyomingSyscall.run("fcntl(F_SETFL)", path: path) { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Writes all of `bytes` to the blocking socket `fd`. `MSG_NOSIGNAL`: a
    /// peer that went away is an `EPIPE` error here, not a process-killing
    /// `SIGPIPE`.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(StatusServerError) {
        var sent = 0
        while sent < bytes.count {
            let count = try WyomingSyscall.run("send", path: path) {
                bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            sent += count
        }
    }

    /// Sends as much of `bytes[offset...]` as the non-blocking socket `fd`
    /// takes now; returns how many bytes went (0 when the socket is full).
    static func sendSome(_ fd: Int32, _ bytes: [UInt8], from offset: Int, path: String) throws(StatusServerError) -> Int {
        let count = try WyomingSyscall.runNonBlocking("send", path: path) {
            bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        return count ?? 0
    }

    /// Receives up to `buffer.count` bytes. Returns the count (0 at end of
    /// stream), or nil when a non-blocking socket has nothing yet.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], path: String) throws(StatusServerError) -> Int? {
        try WyomingSyscall.runNonBlocking("recv", path: path) {
            buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        }
    }
}

/// A self-pipe used to wake a thread blocked in `poll` from another thread
/// without ever blocking the waker. (An eventfd would do, but Glibc's module
/// map does not export it.) Both ends are non-blocking: when the pipe is
/// full, wake-ups are already pending and the extra one is not needed.
struct WakeSignal: Sendable {
    /// The read end; readable while a wake-up is pending.
    let descriptor: Int32
    /// The write end.
    private let writeEnd: Int32

    /// Creates the pipe (both ends non-blocking and close-on-exec).
    init(label: String) throws(StatusServerError) {
        var ends: [Int32] = [-1, -1]
        try WyomingSyscall.run("pipe", path: label) { pipe(&ends) }
        do {
            for end in ends {
                try WyomingSyscall.run("fcntl(F_SETFD)", path: label) { fcntl(end, F_SETFD, FD_CLOEXEC) }
                try WyomingSocket.setNonBlocking(end, path: label)
            }
        } catch {
            ends.forEach(WyomingSyscall.close)
            throw error
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    /// Makes `descriptor` readable. Never blocks; a full pipe (EAGAIN)
    /// already means "wake up".
    func signal() {
        var byte: UInt8 = 1
        _ = try? WyomingSyscall.runNonBlocking("write", path: "wake pipe") { write(writeEnd, &byte, 1) }
    }

    /// Clears pending wake-ups.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while let count = try? WyomingSyscall.runNonBlocking("read", path: "wake pipe", {
            bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        }), count == bytes.count {}
    }

    /// Closes both ends.
    func close() {
        WyomingSyscall.close(descriptor)
        WyomingSyscall.close(writeEnd)
    }
}
