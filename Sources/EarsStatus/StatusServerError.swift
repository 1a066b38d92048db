import Glibc

/// Why the status socket could not be set up.
///
/// Every case names the path it concerns so that a single log line is enough
/// to act on; system-call failures also carry the call's name and `errno`.
/// The `description` is meant for operators (it uses `strerror` text) and
/// never contains request data.
public enum StatusServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call returned -1. `call` is the C function's name
    /// (for example `"bind"`), `path` the file or socket path it acted on,
    /// and `errno` the raw error number it set.
    case system(call: String, path: String, errno: Int32)

    /// The socket path does not fit in `sockaddr_un.sun_path`.
    /// `limit` is the longest accepted path in bytes (UTF-8, without the NUL).
    case pathTooLong(path: String, limit: Int)

    /// Something other than a socket exists at the socket path. It is never
    /// removed: only a stale socket file is ours to replace.
    case notASocket(path: String)

    /// A live server already accepts connections on the socket path (another
    /// `ears` instance, most likely); its socket is left alone.
    case socketInUse(path: String)

    /// The directory meant to hold the socket is unsafe or unusable: not a
    /// directory, a symbolic link, owned by another user, or writable by
    /// everyone. `reason` says which.
    case unsafeDirectory(path: String, reason: String)

    /// One line for logs, for example
    /// `bind(/run/ears/status.sock): Permission denied (errno 13)`.
    public var description: String {
        switch self {
        case let .system(call, path, code):
            return "\(call)(\(path)): \(String(cString: strerror(code))) (errno \(code))"
        case let .pathTooLong(path, limit):
            return "socket path is longer than \(limit) bytes: \(path)"
        case let .notASocket(path):
            return "refusing to replace \(path): it exists and is not a socket"
        case let .socketInUse(path):
            return "another server is already listening on \(path)"
        case let .unsafeDirectory(path, reason):
            return "unsafe socket directory \(path): \(reason)"
        }
    }
}

/// The single funnel every system call in this module goes through.
///
/// Why one funnel: `EINTR` handling and errno capture are easy to get subtly
/// wrong when repeated at each call site (errno must be read before anything
/// else can clobber it), and a uniform error that names the call and the path
/// is what makes socket setup failures diagnosable from one log line.
enum Syscall {
    /// Runs `body` until it stops failing with `EINTR`, returning its
    /// non-negative result.
    ///
    /// - Parameters:
    ///   - call: the C function's name, used in the error.
    ///   - path: the path the call concerns, used in the error.
    ///   - retryOnEINTR: `true` (the default) repeats the call after
    ///     `EINTR`; `false` treats `EINTR` as done and returns 0 (only right
    ///     for `close`, see `closeDescriptor`).
    ///   - body: performs the call and returns its raw result; -1 means
    ///     failure with the reason in `errno`.
    /// - Throws: `StatusServerError.system` for any failure other than
    ///   `EINTR`.
    @discardableResult
    static func run(
        _ call: String,
        path: String,
        retryOnEINTR: Bool = true,
        _ body: () -> Int32
    ) throws(StatusServerError) -> Int32 {
        while true {
            let result = body()
            if result != -1 { return result }
            // Read errno first: nothing may run between the failing call and
            // this line, or it could be overwritten.
            let code = errno
            if code == EINTR {
                if retryOnEINTR { continue }
                return 0
            }
            throw .system(call: call, path: path, errno: code)
        }
    }

    /// Closes `fd` exactly once; `path` only labels a failure.
    ///
    /// `close` is the one call not retried on `EINTR`: Linux releases the
    /// descriptor even when it reports `EINTR`, so a retry could close an
    /// unrelated descriptor that another thread opened in the meantime.
    /// Failures are returned rather than thrown because callers are
    /// abandoning the descriptor anyway and can at most report them.
    @discardableResult
    static func closeDescriptor(_ fd: Int32, path: String) -> StatusServerError? {
        do {
            try run("close", path: path, retryOnEINTR: false) { Glibc.close(fd) }
            return nil
        } catch {
            return error
        }
    }
}
