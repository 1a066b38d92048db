import Glibc

/// A bound, listening Unix stream socket and the file it created.
///
/// `open` does the whole dance a daemon's socket needs: a safe parent
/// directory (`RuntimeDirectory.prepare`), removal of a socket file left behind by a
/// crashed predecessor (but never of a live one, nor of anything that is not
/// a socket), `bind` with the final mode already in place, the group, `listen`.
///
/// Nothing on the way follows a path an attacker could swap: the mode comes
/// from the umask at `bind` (no `chmod` afterwards) and the group is set with
/// `fchownat(AT_SYMLINK_NOFOLLOW)`. Combined with a directory only its owner
/// may write to, nobody else can put a symbolic link where the socket was
/// bound and have root change the link's target.
///
/// Ownership: the value does not close anything by itself. Whoever holds it
/// owns `descriptor` and must eventually call `close()` (or hand the
/// descriptor to something that closes it) exactly once, and calls
/// `removeSocketFile()` when the socket should disappear from the file system.
package struct UnixSocketListener: Sendable {
    /// The listening socket's file descriptor (close-on-exec).
    package let descriptor: Int32

    /// The socket's path in the file system, as given to `open`.
    package let path: String

    /// Device and inode of the socket file this value bound, so that
    /// `removeSocketFile` can tell its own file from a successor's.
    private let fileDevice: dev_t
    private let fileInode: ino_t

    /// Creates, binds and starts listening on a Unix stream socket at `path`.
    ///
    /// Sockets must be opened from one thread while no other thread creates
    /// files: `bind` takes the file's mode from the process-wide umask, which
    /// is set to `~mode` for the duration of the call. ears opens both its
    /// sockets on the main thread at startup, before the audio thread runs;
    /// the server threads already running create no files.
    ///
    /// - Parameters:
    ///   - path: socket path, at most `UnixSocketAddress.maximumPathLength`
    ///     bytes. Its parent directory goes through `RuntimeDirectory.prepare`.
    ///   - mode: permission bits for the socket file (default `0o660`: owner
    ///     and group may connect), in place from the moment it exists.
    ///   - groupID: if given, the socket file's group (and, if the parent
    ///     directory is created here, the directory's group too). Until it is
    ///     set, just after `bind`, the file has the process's own group.
    ///   - backlog: length of the kernel's queue of not-yet-accepted
    ///     connections (clamped by `net.core.somaxconn`).
    /// - Throws: `SocketError` naming the failed step and path. On failure
    ///   nothing is left open, and a socket file this call bound is removed.
    package static func open(
        path: String,
        mode: mode_t = 0o660,
        groupID: gid_t? = nil,
        backlog: Int32 = SOMAXCONN
    ) throws(SocketError) -> UnixSocketListener {
        let address = try UnixSocketAddress(path: path)
        try RuntimeDirectory.prepare(parentDirectory(of: path), groupID: groupID)
        try removeStaleSocket(at: path)

        let fd = try UnixSocketAddress.openStreamSocket(path: path)
        var bound = false
        do throws(SocketError) {
            try bindWithMode(fd, address: address, mode: mode)
            bound = true
            if let groupID {
                // Not chown: that follows a symbolic link put in the
                // socket's place. This changes only the entry at `path`.
                try SocketCall.run("fchownat", path: path) {
                    fchownat(AT_FDCWD, path, uid_t.max, groupID, AT_SYMLINK_NOFOLLOW)
                }
            }
            let status = try fileStatus(path)
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
            try SocketCall.run("listen", path: path) { listen(fd, backlog) }
            return UnixSocketListener(descriptor: fd, path: path, fileDevice: status.st_dev, fileInode: status.st_ino)
        } catch {
            SocketCall.close(fd, path: path)
            if bound { _ = unlink(path) }
            throw error
        }
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec
    /// stream; nil when none is pending (the listener must be non-blocking,
    /// see `setNonBlocking`). `ECONNABORTED` (the client gave up while
    /// queued) is thrown like any failure; callers usually just go on.
    package func accept() throws(SocketError) -> UnixStream? {
        try UnixStream.accept(on: descriptor, path: path)
    }

    /// Makes `accept` return at once when nothing is pending.
    package func setNonBlocking() throws(SocketError) {
        try SocketCall.setNonBlocking(descriptor, path: path)
    }

    /// Closes `descriptor`. Call at most once, and not at all if the
    /// descriptor was handed to an owner that closes it.
    package func close() {
        SocketCall.close(descriptor, path: path)
    }

    /// Unlinks the socket file, but only if `path` still names the file this
    /// value bound: if a later instance has replaced it, theirs stays.
    /// Failures are ignored (the file may already be gone).
    package func removeSocketFile() {
        guard let status = try? Self.fileStatus(path),
              status.st_dev == fileDevice, status.st_ino == fileInode
        else { return }
        _ = try? SocketCall.run("unlink", path: path) { unlink(path) }
    }

    // MARK: Binding

    /// `bind` with the umask set so the new file gets exactly `mode`.
    ///
    /// Why the umask and not `chmod` after `bind`: `chmod` goes by path and
    /// follows a symbolic link someone put there in between, and `fchmod` on
    /// a socket descriptor does not touch the bound file on Linux. The umask
    /// is process-wide; see `open` for why changing it briefly is safe here.
    private static func bindWithMode(_ fd: Int32, address: UnixSocketAddress, mode: mode_t) throws(SocketError) {
        let previous = umask(~mode & 0o777)
        defer { umask(previous) }
        try SocketCall.run("bind", path: address.path) {
            address.withSocketAddress { bind(fd, $0, $1) }
        }
    }

    // MARK: Helpers

    /// The parent directory of `path` ("." for a bare file name).
    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// `lstat` through the funnel. Never follows a final symbolic link, so a
    /// link planted at a socket or directory path is seen as a link.
    static func fileStatus(_ path: String) throws(SocketError) -> stat {
        var status = stat()
        try SocketCall.run("lstat", path: path) { lstat(path, &status) }
        return status
    }

    /// Removes a socket file left behind at `path` by a process that is gone.
    ///
    /// Nothing there: nothing to do. A non-socket: refused, since deleting an
    /// operator's file because a config pointed at it would be destructive.
    /// A socket: probed with a non-blocking `connect`; refused means nobody
    /// is listening (stale, so unlink it), accepted or queued means a live
    /// server owns it (so `socketInUse`, rather than stealing its address).
    private static func removeStaleSocket(at path: String) throws(SocketError) {
        let status: stat
        do {
            status = try fileStatus(path)
        } catch .system(_, _, ENOENT) {
            return
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }

        let address = try UnixSocketAddress(path: path)
        let probe = try UnixSocketAddress.openStreamSocket(nonBlocking: true, path: path)
        defer { SocketCall.close(probe, path: path) }
        do throws(SocketError) {
            try SocketCall.run("connect", path: path) { address.withSocketAddress { connect(probe, $0, $1) } }
            throw .socketInUse(path: path)
        } catch .system(_, _, ECONNREFUSED) {
            // Stale: fall through to unlink.
        } catch .system(_, _, EAGAIN) {
            throw .socketInUse(path: path) // live, its backlog is just full
        } catch .system(_, _, ENOENT) {
            return // removed by someone else meanwhile
        }
        do {
            try SocketCall.run("unlink", path: path) { unlink(path) }
        } catch .system(_, _, ENOENT) {
            return
        }
    }
}
