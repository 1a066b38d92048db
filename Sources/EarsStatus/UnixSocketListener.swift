import Glibc

/// A bound, listening Unix stream socket and the file it created.
///
/// `open` does the whole dance a daemon's control socket needs: a private
/// parent directory, removal of a socket file left behind by a crashed
/// predecessor (but never of a live one, nor of anything that is not a
/// socket), `bind`, permissions, optional group, `listen`.
///
/// Ownership: the value does not close anything by itself. Whoever holds it
/// owns `descriptor` and must eventually call `close()` (or hand the
/// descriptor to something that closes it) exactly once, and calls
/// `removeSocketFile()` when the socket should disappear from the file system.
public struct UnixSocketListener: Sendable {
    /// The listening socket's file descriptor (close-on-exec).
    public let descriptor: Int32

    /// The socket's path in the file system, as given to `open`.
    public let path: String

    /// Device and inode of the socket file this value bound, so that
    /// `removeSocketFile` can tell its own file from a successor's.
    private let fileDevice: dev_t
    private let fileInode: ino_t

    /// The kernel's limit on `sockaddr_un.sun_path`, minus the trailing NUL:
    /// the longest socket path, in UTF-8 bytes, that `open` accepts.
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Creates, binds and starts listening on a Unix stream socket at `path`.
    ///
    /// - Parameters:
    ///   - path: absolute or relative socket path, at most
    ///     `maximumPathLength` bytes. Its parent directory is created with
    ///     `prepareDirectory` if missing.
    ///   - mode: permission bits for the socket file (default `0o660`:
    ///     owner and group may connect). Applied with `chmod` after `bind`.
    ///   - groupID: if given, the socket file's group (and, if the parent
    ///     directory is created here, the directory's group too).
    ///   - backlog: length of the kernel's queue of not-yet-accepted
    ///     connections (clamped by `net.core.somaxconn`).
    /// - Throws: `StatusServerError` naming the failed step and path. On
    ///   failure nothing is left open, and a socket file this call bound is
    ///   removed again.
    public static func open(
        path: String,
        mode: mode_t = 0o660,
        groupID: gid_t? = nil,
        backlog: Int32 = SOMAXCONN
    ) throws(StatusServerError) -> UnixSocketListener {
        var address = try socketAddress(for: path)
        try prepareDirectory(parentDirectory(of: path), groupID: groupID)
        try removeStaleSocket(at: path)

        let fd = try Syscall.run("socket", path: path) {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        var bound = false
        do {
            let length = socklen_t(MemoryLayout<sockaddr_un>.size)
            try Syscall.run("bind", path: path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
                }
            }
            bound = true
            // bind creates the file as 0777 & ~umask; the window before chmod
            // is harmless because the parent directory is private (0700/0710).
            // fchmod on the socket fd would not help: on Linux it does not
            // touch the bound file.
            if let groupID {
                try Syscall.run("chown", path: path) { chown(path, uid_t.max, groupID) }
            }
            try Syscall.run("chmod", path: path) { chmod(path, mode) }
            let status = try fileStatus(path)
            try Syscall.run("listen", path: path) { listen(fd, backlog) }
            return UnixSocketListener(
                descriptor: fd, path: path,
                fileDevice: status.st_dev, fileInode: status.st_ino)
        } catch {
            Syscall.closeDescriptor(fd, path: path)
            if bound { _ = unlink(path) }
            throw error
        }
    }

    /// Closes `descriptor`. Call at most once, and not at all if the
    /// descriptor was handed to an owner that closes it.
    public func close() {
        Syscall.closeDescriptor(descriptor, path: path)
    }

    /// Unlinks the socket file, but only if `path` still names the file this
    /// value bound: if a later instance has replaced it, theirs stays.
    /// Failures are ignored (the file may already be gone).
    public func removeSocketFile() {
        guard let status = try? Self.fileStatus(path),
              status.st_dev == fileDevice, status.st_ino == fileInode
        else { return }
        _ = try? Syscall.run("unlink", path: path) { unlink(path) }
    }

    // MARK: Runtime directory

    /// The directory ears keeps its runtime files (the status socket) in.
    ///
    /// Order: `$RUNTIME_DIRECTORY` (set by systemd's `RuntimeDirectory=`; the
    /// first entry if it lists several, colon-separated), then
    /// `$XDG_RUNTIME_DIR/ears`, then `/tmp/ears-<uid>` (real uid). Empty
    /// variables count as unset. The directory is not created here; `open`
    /// creates the socket's parent when needed.
    public static func runtimeDirectory(environment: [String: String]) -> String {
        if let systemd = environment["RUNTIME_DIRECTORY"],
           let first = systemd.split(separator: ":", omittingEmptySubsequences: true).first {
            return String(first)
        }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
            return xdg.hasSuffix("/") ? xdg + "ears" : xdg + "/ears"
        }
        return "/tmp/ears-\(getuid())"
    }

    /// Makes sure `directory` exists and is safe to hold the socket.
    ///
    /// A missing directory (only the last path component; its parent must
    /// exist) is created with mode `0o700`, or `0o710` with group `groupID`
    /// when one is given: the group needs search permission on the directory
    /// to reach a `0o660` socket inside it, and nothing more. An existing
    /// directory's mode is left as its owner set it.
    ///
    /// Either way the directory must then be a real directory (not a
    /// symbolic link), owned by the effective user or root, and not writable
    /// by others. That matters most for the `/tmp/ears-<uid>` fallback, which
    /// another local user could otherwise create first.
    ///
    /// - Throws: `StatusServerError.system` for failed calls,
    ///   `.unsafeDirectory` if the checks fail.
    public static func prepareDirectory(_ directory: String, groupID: gid_t? = nil) throws(StatusServerError) {
        var status: stat
        do {
            status = try fileStatus(directory)
        } catch .system(_, _, ENOENT) {
            do {
                try Syscall.run("mkdir", path: directory) { mkdir(directory, 0o700) }
                // Group first, then the group's search bit: if chown fails,
                // the directory stays 0700 rather than opening to the
                // process's own group. chmod also undoes the umask filtering
                // of mkdir's mode.
                if let groupID {
                    try Syscall.run("chown", path: directory) { chown(directory, uid_t.max, groupID) }
                }
                let mode: mode_t = groupID == nil ? 0o700 : 0o710
                try Syscall.run("chmod", path: directory) { chmod(directory, mode) }
            } catch .system(_, _, EEXIST) {
                // Lost a race with another creator; the checks below decide.
            }
            status = try fileStatus(directory)
        }

        let type = status.st_mode & S_IFMT
        if type == S_IFLNK {
            throw .unsafeDirectory(path: directory, reason: "is a symbolic link")
        }
        guard type == S_IFDIR else {
            throw .unsafeDirectory(path: directory, reason: "is not a directory")
        }
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            throw .unsafeDirectory(path: directory, reason: "owned by uid \(status.st_uid), not \(geteuid())")
        }
        guard status.st_mode & S_IWOTH == 0 else {
            throw .unsafeDirectory(path: directory, reason: "writable by other users")
        }
    }

    // MARK: Helpers

    /// The parent directory of `path` ("." for a bare file name).
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Builds the `sockaddr_un` for `path`, rejecting paths the kernel would
    /// truncate or misread (too long, empty, or containing NUL).
    private static func socketAddress(for path: String) throws(StatusServerError) -> sockaddr_un {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else {
            throw .system(call: "socket path", path: path, errno: EINVAL)
        }
        guard bytes.count <= maximumPathLength else {
            throw .pathTooLong(path: path, limit: maximumPathLength)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// `lstat` through the funnel. Never follows a final symbolic link, so a
    /// link planted at a socket or directory path is seen as a link.
    private static func fileStatus(_ path: String) throws(StatusServerError) -> stat {
        var status = stat()
        try Syscall.run("lstat", path: path) { lstat(path, &status) }
        return status
    }

    /// Removes a socket file left behind at `path` by a process that is gone.
    ///
    /// Nothing there: nothing to do. A non-socket: refused, since deleting an
    /// operator's file because a config pointed at it would be destructive.
    /// A socket: probed with a non-blocking `connect`; refused means nobody
    /// is listening (stale, so unlink it), accepted or queued means a live
    /// server owns it (so `socketInUse`, rather than stealing its address).
    private static func removeStaleSocket(at path: String) throws(StatusServerError) {
        let status: stat
        do {
            status = try fileStatus(path)
        } catch .system(_, _, ENOENT) {
            return
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }

        var address = try socketAddress(for: path)
        let probe = try Syscall.run("socket", path: path) {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        }
        defer { Syscall.closeDescriptor(probe, path: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        do throws(StatusServerError) {
            try Syscall.run("connect", path: path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, length) }
                }
            }
            throw .socketInUse(path: path)
        } catch .system(_, _, ECONNREFUSED) {
            // Stale: fall through to unlink.
        } catch .system(_, _, EAGAIN) {
            throw .socketInUse(path: path) // live, its backlog is just full
        } catch .system(_, _, ENOENT) {
            return // removed by someone else meanwhile
        }
        do {
            try Syscall.run("unlink", path: path) { unlink(path) }
        } catch .system(_, _, ENOENT) {
            return
        }
    }
}
