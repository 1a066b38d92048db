import Foundation
import Glibc
import Synchronization
import Testing

/// The status socket of a real `ears listen` under clients that trickle or
/// never read: the daemon's own clients (`ears status`, `GET /ears`,
/// `POST /tap`) are still answered every time, and every hostile connection
/// is closed by the server at its deadline.
@Suite(.serialized) struct HostileStatusClientTests {
    /// The daemon's total deadline per connection (`StatusServer.requestDeadlineSeconds`).
    private static let deadlineSeconds = 5.0
    /// Allowance on top of the deadline for a loaded test machine. The
    /// assertions are about whether connections get closed, not how fast.
    private static let slackSeconds = 3.0
    /// More than libmicrohttpd's old limit of 64, below the new 256.
    private static let slowClients = 200
    /// More than the new limit of 256, so eviction has to happen.
    private static let neverReadingClients = 300

    @Test("200 clients trickling one header byte a second lock out neither ears status, GET /ears nor POST /tap, and each is cut off at the deadline")
    func tricklingClients() throws {
        try raiseDescriptorLimit(to: 4 * Self.slowClients)
        let dir = try scratchDirectory("hostile-trickle")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, _) = try EarsDaemon.closed(in: dir)
        defer { _ = daemon.terminate() }
        let socket = dir + "/status.sock"

        let clients = try (0..<Self.slowClients).map { _ in try RawStatusClient(socket) }
        for client in clients { client.send("GET /ears HTTP/1.1\r\nX-Slow: ") }
        let lastConnect = Date()
        // One more header byte per client per second, never the line end,
        // until past the deadline and its slack. (The thread holds the
        // clients, so none is closed under it.)
        let trickleSeconds = Int(Self.deadlineSeconds + Self.slackSeconds) + 1
        let trickler = Thread {
            for _ in 0..<trickleSeconds {
                for client in clients { client.send("a") }
                usleep(1_000_000)
            }
        }
        trickler.start()

        // A series of the daemon's own requests while they trickle.
        var rounds = 0
        while Date().timeIntervalSince(lastConnect) < Self.deadlineSeconds + 1 {
            let status = try runCommand(earsBinary, ["status", "--runtime-dir", dir])
            #expect(status.status == 0 && status.stdout.contains("\"phase\""), "ears status: \(status.stderr)")
            #expect(try curlUnix(socket, "/ears").code == 200)
            #expect(try curlUnix(socket, "/tap", method: "POST").code == 202)
            rounds += 1
        }
        #expect(rounds >= 3)

        // Every trickler is closed by the server, none got an answer.
        waitUntil(lastConnect.addingTimeInterval(Self.deadlineSeconds + Self.slackSeconds))
        let stillOpen = clients.filter { !$0.isClosedByServer() }
        #expect(stillOpen.isEmpty, "\(stillOpen.count) of \(clients.count) trickling clients still connected after the deadline")
        #expect(clients.allSatisfy { $0.received.isEmpty }, "an unfinished request got an answer")
        #expect(daemon.process.isRunning)
    }

    @Test("300 clients that send a request and never read block no one, and are closed at the deadline")
    func neverReadingClients() throws {
        try raiseDescriptorLimit(to: 4 * Self.neverReadingClients)
        let dir = try scratchDirectory("hostile-noread")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, _) = try EarsDaemon.closed(in: dir)
        defer { _ = daemon.terminate() }
        let socket = dir + "/status.sock"

        var clients: [RawStatusClient] = []
        for _ in 0..<Self.neverReadingClients {
            let client = try RawStatusClient(socket)
            client.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n")
            clients.append(client)
        }
        let lastConnect = Date()
        for _ in 0..<5 {
            let status = try runCommand(earsBinary, ["status", "--runtime-dir", dir])
            #expect(status.status == 0, "ears status: \(status.stderr)")
            #expect(try curlUnix(socket, "/ears").code == 200)
        }
        waitUntil(lastConnect.addingTimeInterval(Self.deadlineSeconds + Self.slackSeconds))
        let stillOpen = clients.filter { !$0.isClosedByServer() }
        #expect(stillOpen.isEmpty, "\(stillOpen.count) of \(clients.count) never-reading clients still connected after the deadline")
        #expect(daemon.process.isRunning)
    }

    /// Sleeps until `date`.
    private func waitUntil(_ date: Date) {
        let left = date.timeIntervalSinceNow
        if left > 0 { usleep(UInt32(left * 1_000_000)) }
    }

    /// Raises this process's soft descriptor limit to at least `count` (up
    /// to the hard limit); each raw client holds one descriptor.
    private func raiseDescriptorLimit(to count: Int) throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        guard limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        try #require(limit.rlim_cur >= rlim_t(count), "the descriptor limit (\(limit.rlim_max)) is too low for this test")
    }
}

/// One raw connection to the status socket, written to by hand and read
/// only to see whether the server has ended it.
private final class RawStatusClient: @unchecked Sendable {
    // @unchecked: `send` runs on the trickler thread, `isClosedByServer`
    // on the test's; both only touch the descriptor (thread-safe) and the
    // bytes under `state`.
    private let fd: Int32
    private let state = Mutex<[UInt8]>([])

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect(\(path)): errno \(code)")
        }
    }

    deinit { close(fd) }

    /// What the server sent (read by `isClosedByServer`).
    var received: [UInt8] { state.withLock { $0 } }

    /// Sends without blocking; a connection the server has closed just fails.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Whether the server has closed the connection, not merely ended its
    /// sending side: reads what is waiting, then a one-byte send must fail
    /// with `EPIPE` (or `ECONNRESET`).
    func isClosedByServer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            state.withLock { $0 += buffer[0..<count] }
        }
        var byte: UInt8 = 0x61
        let sent = Glibc.send(fd, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        return sent < 0 && (errno == EPIPE || errno == ECONNRESET)
    }
}
