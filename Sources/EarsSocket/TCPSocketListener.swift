import Glibc

/// A bound, listening TCP socket (IPv4 or IPv6), beside `UnixSocketListener`.
///
/// `open` resolves the host with `getaddrinfo` (numeric addresses and names
/// such as `localhost`), takes the first address that binds, sets
/// `SO_REUSEADDR` (so a restart does not wait out `TIME_WAIT`) and listens.
/// Accepted connections are `UnixStream`s: the stream type is the same for
/// any connected stream socket, only its label says `tcp://…`.
///
/// Ownership: as for `UnixSocketListener`, whoever holds the value owns
/// `descriptor` and calls `close()` exactly once. There is no file to remove.
package struct TCPSocketListener: Sendable {
    /// The listening socket's descriptor (close-on-exec).
    package let descriptor: Int32
    /// `tcp://host:port`, as asked for, for errors and logs.
    package let label: String
    /// The port actually bound (differs from the one asked for only when that was 0).
    package let port: Int

    /// Resolves `host`, binds `port` and listens.
    ///
    /// - Parameters:
    ///   - host: an IPv4 address, an IPv6 address without brackets, or a
    ///     name resolved by `getaddrinfo` (the first address that binds wins).
    ///   - port: 0 to 65535; 0 lets the kernel choose (see `port`).
    ///   - backlog: the kernel's queue of not-yet-accepted connections.
    /// - Throws: `SocketError.unresolvedHost` when `host` has no address,
    ///   else `.system` naming the call (`socket`, `bind`, `listen`) and
    ///   `tcp://host:port`; nothing is left open.
    package static func open(host: String, port: Int, backlog: Int32 = SOMAXCONN) throws(SocketError) -> TCPSocketListener {
        let label = host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            // getaddrinfo reports through its return value (an EAI_ code), not errno.
            throw .unresolvedHost(path: label, host: host, detail: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = SocketError.system(call: "bind", path: label, errno: EADDRNOTAVAIL)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            do throws(SocketError) {
                return try bindAndListen(info.pointee, label: label, backlog: backlog)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// One candidate address: socket, `SO_REUSEADDR`, bind, listen.
    private static func bindAndListen(_ info: addrinfo, label: String, backlog: Int32) throws(SocketError) -> TCPSocketListener {
        let type = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue)
        let fd = try SocketCall.run("socket", path: label) { socket(info.ai_family, type, info.ai_protocol) }
        do throws(SocketError) {
            var on: Int32 = 1
            let size = socklen_t(MemoryLayout<Int32>.size)
            try SocketCall.run("setsockopt(SO_REUSEADDR)", path: label) { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, size) }
            try SocketCall.run("bind", path: label) { bind(fd, info.ai_addr, info.ai_addrlen) }
            try SocketCall.run("listen", path: label) { listen(fd, backlog) }
            return TCPSocketListener(descriptor: fd, label: label, port: try boundPort(fd, label: label))
        } catch {
            SocketCall.close(fd, path: label)
            throw error
        }
    }

    /// The local port of the bound socket `fd`.
    private static func boundPort(_ fd: Int32, label: String) throws(SocketError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try SocketCall.run("getsockname", path: label) {
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        // sin_port and sin6_port sit at the same offset, in network order.
        let networkPort = withUnsafeBytes(of: &storage) { $0.load(fromByteOffset: 2, as: UInt16.self) }
        return Int(UInt16(bigEndian: networkPort))
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec
    /// stream labelled with `label`; nil when none is pending (the listener
    /// must be non-blocking, see `setNonBlocking`).
    package func accept() throws(SocketError) -> UnixStream? {
        guard let stream = try UnixStream.accept(on: descriptor, path: label) else { return nil }
        // Small events (detection, pong) go out at once rather than waiting
        // for Nagle's timer; without it they still go, only later.
        var on: Int32 = 1
        _ = try? SocketCall.run("setsockopt(TCP_NODELAY)", path: label) {
            setsockopt(stream.descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        return stream
    }

    /// Makes `accept` return at once when nothing is pending.
    package func setNonBlocking() throws(SocketError) {
        try SocketCall.setNonBlocking(descriptor, path: label)
    }

    /// Closes `descriptor`. Call exactly once.
    package func close() {
        SocketCall.close(descriptor, path: label)
    }
}
