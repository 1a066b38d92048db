import EarsSocket
import Glibc
import Testing

/// The TCP listener on real loopback sockets.
@Suite(.serialized) struct TCPSocketListenerTests {
    /// A blocking TCP client connected to 127.0.0.1 or ::1 at `port`.
    static func connect(port: Int, ipv6: Bool = false) throws -> Int32 {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        var result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        #expect(result == 0, "connect failed: errno \(errno)")
        return fd
    }

    /// Accepts within a second (the listener is non-blocking).
    static func accept(_ listener: TCPSocketListener) throws -> UnixStream? {
        for _ in 0..<100 {
            if let stream = try listener.accept() { return stream }
            usleep(10_000)
        }
        return nil
    }

    @Test("port 0 binds a free port on 127.0.0.1; a client connects and bytes go both ways")
    func ipv4RoundTrip() throws {
        let listener = try TCPSocketListener.open(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        try listener.setNonBlocking()
        #expect(listener.port > 0)
        let client = try Self.connect(port: listener.port)
        defer { close(client) }
        let stream = try #require(try Self.accept(listener))
        #expect(stream.path == "tcp://127.0.0.1:0")
        #expect(send(client, "hi", 2, 0) == 2)
        var buffer = [UInt8](repeating: 0, count: 8)
        let count = try stream.receive(into: &buffer, deadlineSeconds: MonotonicClock.seconds() + 2, timeoutSeconds: 2)
        #expect(Array(buffer[0..<count]) == Array("hi".utf8))
        #expect(try stream.sendSome(Array("yo".utf8), from: 0) == 2)
        var reply = [UInt8](repeating: 0, count: 2)
        #expect(recv(client, &reply, 2, Int32(MSG_WAITALL)) == 2)
        #expect(reply == Array("yo".utf8))
    }

    @Test("an IPv6 loopback address binds and accepts")
    func ipv6() throws {
        // No IPv6 on this machine (EADDRNOTAVAIL, EAFNOSUPPORT): nothing to test.
        guard let listener = try? TCPSocketListener.open(host: "::1", port: 0) else { return }
        defer { listener.close() }
        try listener.setNonBlocking()
        let client = try Self.connect(port: listener.port, ipv6: true)
        defer { close(client) }
        #expect(try Self.accept(listener) != nil)
    }

    @Test("SO_REUSEADDR: the port can be bound again at once after a connection was served")
    func reuseAddress() throws {
        let first = try TCPSocketListener.open(host: "127.0.0.1", port: 0)
        try first.setNonBlocking()
        let port = first.port
        let client = try Self.connect(port: port)
        let served = try #require(try Self.accept(first))
        // The server side closes first, leaving its end in TIME_WAIT.
        served.close()
        close(client)
        first.close()
        let second = try TCPSocketListener.open(host: "127.0.0.1", port: port)
        second.close()
    }

    @Test("a port in use and an unknown host are errors naming the address")
    func errors() throws {
        let first = try TCPSocketListener.open(host: "127.0.0.1", port: 0)
        defer { first.close() }
        #expect {
            try TCPSocketListener.open(host: "127.0.0.1", port: first.port).close()
        } throws: { error in
            "\(error)".contains("bind(tcp://127.0.0.1:\(first.port))") && "\(error)".contains("in use")
        }
        #expect {
            try TCPSocketListener.open(host: "no-such-host.invalid", port: 10400).close()
        } throws: { error in
            "\(error)".contains("the host no-such-host.invalid does not resolve") && "\(error)".contains("numeric address")
        }
    }
}
