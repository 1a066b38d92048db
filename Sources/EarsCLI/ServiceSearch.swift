import EarsSocket
import Glibc

/// Where `ears status`, `tap` and `follow` look for a running `ears listen`,
/// and what they found at each place.
///
/// A daemon may run as the system service (sockets in `/run/ears`, which
/// systemd hands it as `$RUNTIME_DIRECTORY`), as a user's own process
/// (`$XDG_RUNTIME_DIR/ears`) or anywhere without either (`/tmp/ears-<uid>`).
/// The client cannot know which, so it asks each place in turn and takes the
/// first status socket that answers.
package enum ServiceSearch {
    /// One directory to try, and why it is on the list (for the error that
    /// lists every place).
    package struct Place: Equatable, Sendable {
        /// The runtime directory holding `status.sock` and `listen.sock`.
        package var directory: String
        /// Where the directory came from: `--runtime-dir`, `$RUNTIME_DIRECTORY`, …
        package var origin: String

        /// A place found through `origin`.
        package init(_ directory: String, _ origin: String) {
            self.directory = directory
            self.origin = origin
        }

        /// `<directory>/status.sock`.
        package var statusSocket: String { directory + "/status.sock" }
    }

    /// The system service's runtime directory (`RuntimeDirectory=ears`).
    package static let systemDirectory = "/run/ears"

    /// An environment variable that replaces `systemDirectory`, for tests and
    /// packaging (a test cannot own /run/ears; a package may use another path).
    package static let systemDirectoryVariable = "EARS_SYSTEM_RUNTIME_DIR"

    /// The places to try, in order, without repeats.
    ///
    /// `--runtime-dir` alone when given: a directory named on the command line
    /// means that daemon, and answering from another one would mislead.
    /// Otherwise: `[status] runtime_directory` when the configuration sets it,
    /// `$RUNTIME_DIRECTORY` (the client runs inside the service's own
    /// environment), the system service's directory, `$XDG_RUNTIME_DIR/ears`,
    /// then `/tmp/ears-<uid>` (the daemon's own fallbacks, in its order).
    ///
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - userID: the real user id (`/tmp/ears-<uid>`).
    ///   - runtimeDirectoryFlag: `--runtime-dir`, or nil.
    ///   - configuredDirectory: `runtime_directory` from the configuration file, or nil.
    package static func places(environment: [String: String], userID: UInt32,
                               runtimeDirectoryFlag: String?, configuredDirectory: String?) -> [Place] {
        if let flag = runtimeDirectoryFlag { return [Place(flag, "--runtime-dir")] }
        var candidates: [Place] = []
        if let configured = configuredDirectory { candidates.append(Place(configured, "runtime_directory in the configuration")) }
        if let systemd = environment["RUNTIME_DIRECTORY"], !systemd.isEmpty {
            // systemd may list several directories separated by colons; ours is the first.
            candidates.append(Place(String(systemd.split(separator: ":").first ?? Substring(systemd)), "$RUNTIME_DIRECTORY"))
        }
        if let system = environment[systemDirectoryVariable], !system.isEmpty {
            candidates.append(Place(system, "the system service ($\(systemDirectoryVariable))"))
        } else {
            candidates.append(Place(systemDirectory, "the system service"))
        }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
            candidates.append(Place(xdg + "/ears", "$XDG_RUNTIME_DIR/ears"))
        }
        candidates.append(Place("/tmp/ears-\(userID)", "/tmp/ears-<uid>"))
        var seen: Set<String> = []
        return candidates.filter { seen.insert($0.directory).inserted }
    }

    /// How a reason for a socket the user may not open begins.
    static let permissionDenied = "permission denied"

    /// Why one place did not answer, in words.
    ///
    /// - Parameters:
    ///   - error: what connecting or asking threw.
    ///   - socketGroup: the name of the socket file's group, when known
    ///     (for the permission advice).
    package static func reason(_ error: SocketError, socketGroup: String?) -> String {
        switch error {
        case let .unreachable(_, code) where code == ECONNREFUSED:
            return "a socket is there but nothing answers (connection refused): left behind by a daemon that stopped?"
        case .unreachable:
            return "no socket"
        case let .system(_, _, code) where code == EACCES || code == EPERM:
            let join = socketGroup.map { "add yourself to its group \($0) (sudo usermod -aG \($0) $USER, then log in again)" }
                ?? "add yourself to the socket's group"
            return "\(permissionDenied): \(join), or use sudo"
        case let .system(_, _, code) where code == ENOTDIR:
            return "not a directory"
        case let .timedOut(_, seconds):
            return "no answer within \(Int(seconds)) s (the daemon may be stuck)"
        default:
            return error.description
        }
    }

    /// The error when no place answered: every place tried and why it did not.
    package static func notFound(_ tried: [(place: Place, reason: String)]) -> String {
        var lines = ["no running ears answered; looked in:"]
        for (place, reason) in tried {
            lines.append("  \(place.directory) (\(place.origin)): \(reason)")
        }
        if tried.contains(where: { $0.reason.hasPrefix(permissionDenied) }) {
            // Someone is likely there: the advice is about access, not starting it.
            lines.append("a daemon may be running where permission was denied; ask as a member of its socket's group, or with sudo")
        } else {
            lines.append("is `ears listen` running? Start it (systemctl start ears, or ears listen), or pass --runtime-dir DIR")
        }
        return lines.joined(separator: "\n")
    }

    /// Sends `method path` to each place's status socket in turn and returns
    /// the first answer, with the place that gave it; or the `notFound` text.
    ///
    /// An answer that is not HTTP is taken as an answer (the error it carries
    /// is about that place), so only "nobody there" moves on to the next place.
    package static func ask(_ places: [Place], path: String, method: String = "GET")
        -> Result<(place: Place, status: Int, body: String), StatusClient.Failure> {
        var tried: [(Place, String)] = []
        for place in places {
            do throws(StatusClient.Failure) {
                let answer = try StatusClient.get(path, socketPath: place.statusSocket, method: method)
                return .success((place, answer.status, answer.body))
            } catch {
                guard let socketError = error.socketError else { return .failure(error) }
                tried.append((place, reason(socketError, socketGroup: groupName(of: place.statusSocket))))
            }
        }
        return .failure(StatusClient.Failure(description: notFound(tried)))
    }

    /// The name of the group owning `path`, or nil when it cannot be read.
    static func groupName(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, let group = getgrgid(status.st_gid), let name = group.pointee.gr_name else { return nil }
        return String(cString: name)
    }
}
