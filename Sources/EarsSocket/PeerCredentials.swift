import Glibc

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
