import Foundation
import Glibc
import Synchronization
import Testing
@testable import EarsStatus

/// `StatusServer` on a real Unix socket, with short limits so the deadline
/// and the eviction show in a second or two.
@Suite(.serialized) struct StatusServerTests {
    /// Bytes in `/big`'s body: far more than a socket buffer holds, so a
    /// client that does not read leaves the server with a write pending.
    private static let bigBodyBytes = 4 << 20

    /// A server in a fresh directory answering `/big` with `bigBodyBytes`,
    /// `/bad` with an unsendable response, anything else with
    /// `method path`. Calls `body`, then stops it and removes the directory.
    private func withServer(_ limits: StatusServer.Limits, calls: CallCounter = CallCounter(),
                            _ body: (StatusServer) throws -> Void) throws {
        let dir = try socketDirectory("server")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try StatusServer(socketPath: dir + "/status.sock", limits: limits) { request in
            calls.count.withLock { $0 += 1 }
            switch request.path {
            case "/big": return HTTPResponse(status: 200, contentType: "application/octet-stream",
                                             body: [UInt8](repeating: 0x61, count: Self.bigBodyBytes))
            case "/bad": return HTTPResponse(status: 200, contentType: "a\r\nb", body: "")
            default: return .text("\(request.method) \(request.path)\n")
            }
        }
        defer { server.stop() }
        try body(server)
    }

    @Test("a request is answered with Connection: close and the connection ends cleanly")
    func answersAndCloses() throws {
        try withServer(.init(connections: 4, requestDeadlineSeconds: 5)) { server in
            let client = try SocketClient(server.socketPath)
            client.send("GET /ears?x HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try #require(client.response())
            #expect(statusCode(response) == 200)
            #expect(response.contains("\r\nConnection: close\r\n"))
            #expect(response.hasSuffix("\r\n\r\nGET /ears\n"))
        }
    }

    @Test("HEAD is answered without a body")
    func head() throws {
        try withServer(.init()) { server in
            let client = try SocketClient(server.socketPath)
            client.send("HEAD /x HTTP/1.0\r\n\r\n")
            let response = try #require(client.response())
            #expect(response.hasSuffix("Content-Length: 8\r\nConnection: close\r\n\r\n"))
        }
    }

    @Test("a malformed head is answered with its 4xx and the handler is not called")
    func malformed() throws {
        let calls = CallCounter()
        try withServer(.init(), calls: calls) { server in
            let client = try SocketClient(server.socketPath)
            client.send("GET /ears HTTP/1.1\r\n\r\n")
            #expect(statusCode(client.response()) == 400)
            let long = try SocketClient(server.socketPath)
            long.send("GET /" + String(repeating: "a", count: HTTPRequestDecoder.maximumHeadBytes))
            #expect(statusCode(long.response()) == 414)
        }
        #expect(calls.count.withLock { $0 } == 0)
    }

    @Test("a response the handler got wrong goes out as a 500")
    func unsendable() throws {
        try withServer(.init()) { server in
            let client = try SocketClient(server.socketPath)
            client.send("GET /bad HTTP/1.0\r\n\r\n")
            #expect(statusCode(client.response()) == 500)
        }
    }

    @Test("a request with a body is answered, and the client reads the whole answer and a clean end")
    func bodyIsDiscarded() throws {
        try withServer(.init()) { server in
            let client = try SocketClient(server.socketPath)
            client.send("POST /tap HTTP/1.1\r\nHost: a\r\nContent-Length: 65536\r\n\r\n" + String(repeating: "b", count: 65536))
            let (bytes, end) = client.readToEnd(within: 5)
            // Closing with the body unread would reset the connection here.
            #expect(end == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\r\n\r\nPOST /tap\n"))
        }
    }

    @Test("a client trickling its head is closed at the deadline even though it never goes idle")
    func trickleIsCutOff() throws {
        try withServer(.init(connections: 4, requestDeadlineSeconds: 1)) { server in
            let client = try SocketClient(server.socketPath)
            client.send("GET /ears HTTP/1.1\r\n")
            let started = Date()
            var end = SocketClient.End.open
            // One header byte every 100 ms, for up to 4 s (deadline + slack).
            while end == .open && Date().timeIntervalSince(started) < 4 {
                client.send("X")
                let (bytes, seen) = client.readToEnd(within: 0.1)
                #expect(bytes.isEmpty, "an unfinished head got an answer")
                end = seen
            }
            #expect(end != .open, "still connected after 4 s with a 1 s deadline")
        }
    }

    @Test("at the connection limit a newcomer evicts the oldest client still sending its head")
    func evictsOldestUnfinishedHead() throws {
        try withServer(.init(connections: 3, requestDeadlineSeconds: 60)) { server in
            var slow: [SocketClient] = []
            for _ in 0..<3 {
                let client = try SocketClient(server.socketPath)
                client.send("GET /ears HTTP/1.1\r\n")
                slow.append(client)
                usleep(50_000) // accepted in this order
            }
            let newcomer = try SocketClient(server.socketPath)
            newcomer.send("GET /ears HTTP/1.0\r\n\r\n")
            #expect(statusCode(newcomer.response()) == 200)
            #expect(slow[0].readToEnd(within: 2).end == .closed, "the oldest was not evicted")
            #expect(slow[1].readToEnd(within: 0.2).end == .open)
            #expect(slow[2].readToEnd(within: 0.2).end == .open)
        }
    }

    @Test("a client that never reads a large answer neither stalls others nor outlives the deadline")
    func neverReadingClient() throws {
        try withServer(.init(connections: 4, requestDeadlineSeconds: 2)) { server in
            let stuck = try SocketClient(server.socketPath)
            stuck.send("GET /big HTTP/1.0\r\n\r\n")
            usleep(200_000) // the server is now blocked on a full socket buffer
            for _ in 0..<5 {
                let other = try SocketClient(server.socketPath)
                other.send("GET /ears HTTP/1.0\r\n\r\n")
                #expect(statusCode(other.response(within: 1)) == 200)
            }
            usleep(2_500_000) // past the deadline
            let (bytes, end) = stuck.readToEnd(within: 2)
            #expect(end != .open)
            #expect(bytes.count < Self.bigBodyBytes, "the whole answer went out; the test proves nothing")
        }
    }

    @Test("stop closes open connections, removes the socket file and ends serving")
    func stopping() throws {
        let dir = try socketDirectory("stop")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/status.sock"
        let server = try StatusServer(socketPath: path) { _ in .text("x") }
        #expect(server.isRunning)
        let open = try SocketClient(path)
        open.send("GET / HTTP/1.1\r\n")
        server.stop()
        #expect(!server.isRunning)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(open.readToEnd(within: 2).end != .open)
        #expect(throws: SocketClient.Failure.self) { try SocketClient(path) }
        server.stop() // idempotent
    }

    @Test("the eviction order is: answered, then oldest unfinished head, then oldest of all")
    func evictionOrder() {
        let clock = ContinuousClock()
        func connection(_ stage: StatusConnection.Stage) -> StatusConnection {
            let made = StatusConnection(fd: -1, deadline: clock.now)
            made.stage = stage
            return made
        }
        let writing = connection(.writing([], sent: 0)), reading = connection(.readingHead(HTTPRequestDecoder()))
        #expect(StatusServerLoop.evictionVictim([writing, reading, connection(.draining)]) == 2)
        #expect(StatusServerLoop.evictionVictim([writing, reading, reading]) == 1)
        #expect(StatusServerLoop.evictionVictim([writing, writing]) == 0)
        #expect(StatusServerLoop.evictionVictim([]) == nil)
    }
}

/// How many times a test server's handler ran.
final class CallCounter: Sendable {
    let count = Mutex(0)
}
