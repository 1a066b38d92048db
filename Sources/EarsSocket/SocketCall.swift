import EarsSystem
import Glibc

/// The socket layer's face of the one system-call funnel (`SystemCall`):
/// every socket-related call goes through it, its failures thrown as the
/// socket layer's `SocketError`.
///
/// Why one funnel: `EINTR` handling and errno capture are easy to get subtly
/// wrong when repeated at each call site (errno must be read before anything
/// else can overwrite it), and a uniform error naming the call and the path
/// is what makes a socket failure diagnosable from one log line.
package enum SocketCall {
    /// Runs `body` until it stops failing with `EINTR` and returns its
    /// result, which is never -1.
    ///
    /// - Parameters:
    ///   - call: the C function's name, used in the error.
    ///   - path: the socket or directory path the call concerns (or a label).
    ///   - body: performs the call and returns its raw result; -1 means
    ///     failure with the reason in `errno`.
    /// - Throws: `SocketError.system` for any failure other than `EINTR`.
    @discardableResult
    package static func run<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, path: String, _ body: () -> Result
    ) throws(SocketError) -> Result {
        do {
            return try SystemCall.run(call, path: path, body)
        } catch {
            throw .system(call: error.call, path: error.path, errno: error.code)
        }
    }

    /// Like `run`, for a non-blocking descriptor: `EAGAIN`/`EWOULDBLOCK`
    /// (nothing to do right now) returns nil instead of throwing.
    package static func runNonBlocking<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, path: String, _ body: () -> Result
    ) throws(SocketError) -> Result? {
        do {
            return try run(call, path: path, body)
        } catch .system(_, _, EAGAIN) {
            return nil
        } catch .system(_, _, EWOULDBLOCK) {
            return nil
        }
    }

    /// Closes `fd`; `path` only labels a failure.
    ///
    /// The one call not retried on `EINTR`: Linux releases the descriptor
    /// even when it reports `EINTR`, so a retry could close an unrelated
    /// descriptor another thread opened meanwhile. Failures are returned,
    /// not thrown: the caller is abandoning `fd` anyway and can at most
    /// report them.
    @discardableResult
    package static func close(_ fd: Int32, path: String) -> SocketError? {
        guard Glibc.close(fd) == -1 else { return nil }
        let code = errno
        return code == EINTR ? nil : .system(call: "close", path: path, errno: code)
    }

    /// Sets `O_NONBLOCK` on `fd`.
    package static func setNonBlocking(_ fd: Int32, path: String) throws(SocketError) {
        let flags = try run("fcntl(F_GETFL)", path: path) { fcntl(fd, F_GETFL) }
        try run("fcntl(F_SETFL)", path: path) { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Sets `FD_CLOEXEC` on `fd`, so programs ears starts (the `on_wake`
    /// hook) do not inherit it.
    package static func setCloseOnExec(_ fd: Int32, path: String) throws(SocketError) {
        try run("fcntl(F_SETFD)", path: path) { fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Waits in `poll` for events on `descriptors`, retrying `EINTR` (with
    /// the full timeout again: callers that keep deadlines recompute it).
    ///
    /// - Parameters:
    ///   - descriptors: the poll set; `revents` are filled in.
    ///   - timeoutMilliseconds: longest wait; -1 waits for ever, 0 only looks.
    ///   - path: labels a failure.
    /// - Returns: how many descriptors have events (0 on timeout).
    @discardableResult
    package static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32, path: String) throws(SocketError) -> Int {
        let count = nfds_t(descriptors.count)
        return Int(try run("poll", path: path) { Glibc.poll(&descriptors, count, timeoutMilliseconds) })
    }

    /// Waits until `fd` is readable, hung up or in error; false on timeout.
    package static func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32, path: String) throws(SocketError) -> Bool {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return try poll(&descriptors, timeoutMilliseconds: timeoutMilliseconds, path: path) > 0
    }
}
