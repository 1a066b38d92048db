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
