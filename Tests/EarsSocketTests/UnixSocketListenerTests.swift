import EarsSocket
import Foundation
import Glibc
import Testing

/// The listener, the client stream and peer credentials, on real sockets.
@Suite(.serialized) struct UnixSocketListenerTests {
    @Test("the socket file has its mode from bind on, and the umask is given back")
    func modeComesFromBind() throws {
        let dir = try scratch("mode")
        defer { remove(dir) }
        let before = umask(0o022)
        defer { umask(before) }
        let listener = try UnixSocketListener.open(path: dir + "/a.sock", mode: 0o640)
        defer { listener.close(); listener.removeSocketFile() }
        #expect(try mode(dir + "/a.sock") == 0o640)
        #expect(try status(dir + "/a.sock").st_mode & S_IFMT == S_IFSOCK)
        let now = umask(0o022)
        #expect(now == 0o022, "the umask was not restored: \(String(now, radix: 8))")
    }

    @Test("the group is set on the socket file itself")
    func groupIsSet() throws {
        let dir = try scratch("group")
        defer { remove(dir) }
        let group = getuid() == 0 ? gid_t(65534) : getegid()
        let listener = try UnixSocketListener.open(path: dir + "/g.sock", mode: 0o660, groupID: group)
        defer { listener.close(); listener.removeSocketFile() }
        #expect(try status(dir + "/g.sock").st_gid == group)
        #expect(try mode(dir + "/g.sock") == 0o660)
    }

    @Test("a client connects, both sides see each other's credentials, bytes go both ways")
    func connectAcceptAndCredentials() throws {
        let dir = try scratch("connect")
        defer { remove(dir) }
        let path = dir + "/c.sock"
        let listener = try UnixSocketListener.open(path: path)
        defer { listener.close(); listener.removeSocketFile() }
        try listener.setNonBlocking()
        #expect(try listener.accept() == nil, "accept waited or invented a client")

        let client = try UnixStream.connect(path: path)
        let server = try #require(try listener.accept())
        let peer = try server.peerCredentials()
        #expect(peer == PeerCredentials(processID: getpid(), userID: geteuid(), groupID: getegid()))
        #expect(try client.peerCredentials().processID == getpid())

        try client.sendAll(Array("ping".utf8))
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try server.waitReadable(timeoutMilliseconds: 2000))
        let count = try #require(try server.receive(into: &buffer))
        #expect(Array(buffer[0..<count]) == Array("ping".utf8))
        // Non-blocking and empty: nil, not a hang or an error.
        #expect(try server.receive(into: &buffer) == nil)
        client.close()
        #expect(try server.receive(into: &buffer) == 0)
    }

    @Test("a receive with a deadline times out with a sentence")
    func receiveTimesOut() throws {
        let dir = try scratch("timeout")
        defer { remove(dir) }
        let path = dir + "/t.sock"
        let listener = try UnixSocketListener.open(path: path)
        defer { listener.close(); listener.removeSocketFile() }
        let client = try UnixStream.connect(path: path)
        var buffer = [UInt8](repeating: 0, count: 16)
        let error = try #require(throws: SocketError.self) {
            _ = try client.receive(into: &buffer, deadlineSeconds: MonotonicClock.seconds() + 0.2, timeoutSeconds: 0.2)
        }
        #expect(error == .timedOut(path: path, seconds: 0.2))
        #expect(error.description.contains("no answer from \(path) within 0.2 s"))
    }

    @Test("connecting where nobody listens says to start ears listen")
    func unreachable() throws {
        let dir = try scratch("unreachable")
        defer { remove(dir) }
        let error = try #require(throws: SocketError.self) { _ = try UnixStream.connect(path: dir + "/none.sock") }
        #expect(error == .unreachable(path: dir + "/none.sock", errno: ENOENT))
        #expect(error.description.contains("is `ears listen` running"))
    }

    @Test("a stale socket is replaced, a live one and a plain file are refused")
    func staleLiveAndForeignFiles() throws {
        let dir = try scratch("stale")
        defer { remove(dir) }
        let path = dir + "/s.sock"
        let first = try UnixSocketListener.open(path: path)
        #expect(throws: SocketError.socketInUse(path: path)) { _ = try UnixSocketListener.open(path: path) }
        first.close() // the file stays behind, as after a crash
        let second = try UnixSocketListener.open(path: path)
        second.close()
        second.removeSocketFile()
        #expect(!FileManager.default.fileExists(atPath: path))

        FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
        #expect(throws: SocketError.notASocket(path: path)) { _ = try UnixSocketListener.open(path: path) }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    @Test("a path too long for sun_path is refused before anything is created")
    func pathTooLong() throws {
        let path = "/tmp/" + String(repeating: "x", count: UnixSocketAddress.maximumPathLength)
        let error = try #require(throws: SocketError.self) { _ = try UnixSocketListener.open(path: path) }
        #expect(error == .pathTooLong(path: path, limit: UnixSocketAddress.maximumPathLength))
        #expect(error.description.contains("choose a shorter runtime_directory"))
    }

    @Test("the wake pipe makes its descriptor readable until drained")
    func wakePipe() throws {
        let pipe = try WakePipe(label: "test")
        defer { pipe.close() }
        #expect(try !SocketCall.waitReadable(pipe.descriptor, timeoutMilliseconds: 0, path: "test"))
        for _ in 0..<100_000 { pipe.signal() } // far past the pipe's size: never blocks
        #expect(try SocketCall.waitReadable(pipe.descriptor, timeoutMilliseconds: 0, path: "test"))
        pipe.drain()
        #expect(try !SocketCall.waitReadable(pipe.descriptor, timeoutMilliseconds: 0, path: "test"))
    }

    @Test("the funnel names the call and errno, and says what to do")
    func funnelErrors() throws {
        let error = try #require(throws: SocketError.self) {
            try SocketCall.run("open", path: "/nonexistent/x") { Glibc.open("/nonexistent/x", O_RDONLY) }
        }
        #expect(error == .system(call: "open", path: "/nonexistent/x", errno: ENOENT))
        #expect(error.description.hasPrefix("open(/nonexistent/x): No such file or directory (errno 2); check that"))
        #expect(SocketCall.close(-1, path: "bad") == .system(call: "close", path: "bad", errno: EBADF))
    }
}
