import Glibc

/// A Unix-domain socket address (`sockaddr_un`) for a file-system path,
/// checked so the kernel can neither truncate nor misread it.
package struct UnixSocketAddress: Sendable {
    /// The kernel's limit on `sockaddr_un.sun_path`, minus the trailing NUL:
    /// the longest socket path, in UTF-8 bytes, that can be bound or reached.
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The path, as given.
    package let path: String
    private let storage: sockaddr_un

    /// Builds the address for `path`.
    ///
    /// - Throws: `SocketError.pathTooLong` past `maximumPathLength` bytes,
    ///   `.system(call: "socket path", errno: EINVAL)` for an empty path or
    ///   one containing NUL.
    package init(path: String) throws(SocketError) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else {
            throw .system(call: "socket path", path: path, errno: EINVAL)
        }
        guard bytes.count <= Self.maximumPathLength else {
            throw .pathTooLong(path: path, limit: Self.maximumPathLength)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        self.path = path
        storage = address
    }

    /// Calls `body` with the address as the generic `sockaddr` pointer and
    /// its length, as `bind` and `connect` take it. The pointer is valid only
    /// inside `body`.
    package func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// Opens a new, unconnected Unix stream socket (close-on-exec, and
    /// non-blocking if asked); `path` labels a failure.
    package static func openStreamSocket(nonBlocking: Bool = false, path: String) throws(SocketError) -> Int32 {
        var type = SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue
        if nonBlocking { type |= SOCK_NONBLOCK.rawValue }
        return try SocketCall.run("socket", path: path) { socket(AF_UNIX, Int32(type), 0) }
    }
}

/// Who is at the other end of a connected Unix socket, as the kernel recorded
/// it at `connect` (`SO_PEERCRED`): not something the peer can claim.
package struct PeerCredentials: Sendable, Equatable {
    /// The connecting process's id (it may have exited since).
    package var processID: pid_t
    /// Its effective user id at `connect`.
    package var userID: uid_t
    /// Its effective group id at `connect`.
    package var groupID: gid_t

    /// Makes credentials (tests; real ones come from `of(_:path:)`).
    package init(processID: pid_t, userID: uid_t, groupID: gid_t) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
    }

    /// The peer of the connected socket `fd`; `path` labels a failure.
    package static func of(_ fd: Int32, path: String) throws(SocketError) -> PeerCredentials {
        // `struct ucred` is hidden behind _GNU_SOURCE in Glibc's module map;
        // its layout is the kernel ABI: three 32-bit words pid, uid, gid.
        var words: [UInt32] = [0, 0, 0]
        var length = socklen_t(words.count * MemoryLayout<UInt32>.size)
        try SocketCall.run("getsockopt(SO_PEERCRED)", path: path) {
            words.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        }
        return PeerCredentials(processID: pid_t(bitPattern: words[0]), userID: words[1], groupID: words[2])
    }
}
