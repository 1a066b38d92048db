import Glibc

/// Why a socket operation failed, for every socket in ears (the status
/// socket, the listen socket, the clients of both, and the Wyoming wake
/// service's Unix and TCP listeners).
///
/// Every case names the path it concerns, so one log line is enough to act
/// on, and `description` ends with what to do about it. System-call failures
/// carry the call's name and `errno`. Nothing a peer sent ever appears here.
///
/// Public (the rest of EarsSocket is `package`) because the public servers
/// and clients in EarsStatus and EarsWyoming throw it.
package enum SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call returned -1. `call` is the C function's name (for
    /// example `"bind"`), `path` the socket or directory it acted on (or a
    /// label such as `"wake pipe"`), `errno` the raw error number.
    case system(call: String, path: String, errno: Int32)

    /// The socket path does not fit in `sockaddr_un.sun_path`; `limit` is the
    /// longest accepted path in UTF-8 bytes, without the NUL.
    case pathTooLong(path: String, limit: Int)

    /// Something other than a socket exists at the socket path. It is never
    /// removed: only a stale socket file is ours to replace.
    case notASocket(path: String)

    /// A live server already accepts connections on the socket path (another
    /// `ears listen`, most likely); its socket is left alone.
    case socketInUse(path: String)

    /// The directory meant to hold the socket is unsafe; `problem` says how.
    case unsafeDirectory(path: String, problem: DirectoryProblem)

    /// Nobody answers at the socket path (`connect` failed with `errno`).
    case unreachable(path: String, errno: Int32)

    /// The peer did not answer within `seconds`.
    case timedOut(path: String, seconds: Double)

    /// `getaddrinfo` could not turn `host` into an address (`detail` is
    /// `gai_strerror`'s text); `path` is the `tcp://` address asked for.
    case unresolvedHost(path: String, host: String, detail: String)

    /// What makes a runtime directory unsafe to hold a socket.
    package enum DirectoryProblem: Sendable, Equatable {
        /// It is a symbolic link (which could be re-pointed under us).
        case symbolicLink
        /// It exists but is not a directory.
        case notADirectory
        /// It belongs to `owner`, neither the effective user `expected` nor root.
        case foreignOwner(owner: uid_t, expected: uid_t)
        /// Users other than its owner may create, remove or rename entries in
        /// it (group or other write bit set; `mode` is the permission bits):
        /// they could swap a socket for a symbolic link between `bind` and
        /// the calls that set its owner.
        case writableByOthers(mode: mode_t)
    }

    /// One line for logs: what failed, then what to do, for example
    /// `bind(/run/ears/status.sock): Permission denied (errno 13); check that
    /// the user ears runs as may write to /run/ears`.
    package var description: String {
        switch self {
        case let .system(call, path, code):
            let what = "\(call)(\(path)): \(Self.text(code)) (errno \(code))"
            return Self.advice(code, path: path).map { "\(what); \($0)" } ?? what
        case let .pathTooLong(path, limit):
            return "the socket path \(path) is longer than \(limit) bytes, the most a Unix socket allows; "
                + "choose a shorter runtime_directory"
        case let .notASocket(path):
            return "refusing to replace \(path): it exists and is not a socket; "
                + "move it away or choose another runtime_directory"
        case let .socketInUse(path):
            return "another server is already listening on \(path); "
                + "stop it (another `ears listen`?) or choose another runtime_directory"
        case let .unsafeDirectory(path, problem):
            return "unsafe runtime directory \(path): " + Self.sentence(problem, path: path)
        case let .unreachable(path, code):
            return "nothing answers at \(path) (\(Self.text(code))); is `ears listen` running?"
        case let .unresolvedHost(path, host, detail):
            return "cannot listen on \(path): the host \(host) does not resolve (\(detail)); "
                + "write a numeric address: 127.0.0.1 for this machine only, 0.0.0.0 or [::] for every interface"
        case let .timedOut(path, seconds):
            return "no answer from \(path) within \(Self.seconds(seconds)) s; the daemon may be stuck: "
                + "check `systemctl status ears` or its log"
        }
    }

    /// What is wrong with a directory and how to fix it.
    private static func sentence(_ problem: DirectoryProblem, path: String) -> String {
        switch problem {
        case .symbolicLink:
            return "it is a symbolic link; point runtime_directory at the real directory"
        case .notADirectory:
            return "it exists and is not a directory; move it away or choose another runtime_directory"
        case let .foreignOwner(owner, expected):
            return "it belongs to uid \(owner), not to uid \(expected) (ears) or root; "
                + "remove it or run `chown \(expected) \(path)`"
        case let .writableByOthers(mode):
            return "mode 0\(String(mode & 0o7777, radix: 8)) lets users other than its owner replace the sockets in it; "
                + "run `chmod g-w,o-w \(path)`"
        }
    }

    /// A hint for the errno values an operator can do something about.
    private static func advice(_ code: Int32, path: String) -> String? {
        switch code {
        case EACCES, EPERM: return "check that the user ears runs as may use \(path) and its directory"
        case ENOENT: return "check that the directory holding \(path) exists"
        case EMFILE, ENFILE: return "too many open files: raise the limit (LimitNOFILE= in the service)"
        case EROFS: return "the file system is read-only: choose a runtime_directory on a writable one"
        case ENOSPC: return "the file system is full"
        case EADDRINUSE: return "another program already listens there (another ears, or wyoming-openwakeword?): stop it or choose another port"
        case EAFNOSUPPORT:
            return "this process may not open that kind of socket: the systemd unit allows Unix sockets only "
                + "until the drop-in in docs/operations.md (Home Assistant) opens TCP"
        case EADDRNOTAVAIL: return "no interface of this machine has that address: use 127.0.0.1, 0.0.0.0 or one of its own addresses"
        default: return nil
        }
    }

    /// `strerror` text for `code`.
    private static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// `seconds` without a trailing `.0`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
