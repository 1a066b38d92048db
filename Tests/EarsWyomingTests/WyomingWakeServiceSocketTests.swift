import EarsCore
import EarsWyoming
import Foundation
import Glibc
import Synchronization
import Testing

/// A listener that hears "computer" once 3200 bytes (0.1 s) have come, and
/// whose `feed` can be held until a gate opens (a decode stuck in an engine).
final class FakeListener: RemoteWakeListener {
    let gate: DispatchSemaphore?
    var bytes = 0
    var woke = false
    init(gate: DispatchSemaphore?) { self.gate = gate }
    func begin(_ format: RemoteAudioFormat) throws(RemoteWakeError) { bytes = 0; woke = false }
    func feed(_ payload: [UInt8], format: RemoteAudioFormat) throws(RemoteWakeError) -> [RemoteWake] {
        gate?.wait()
        bytes += payload.count
        guard !woke, bytes >= 3200 else { return [] }
        woke = true
        return [RemoteWake(phrase: "computer", audioSeconds: Double(bytes) / 32_000)]
    }
    func finish() throws(RemoteWakeError) -> [RemoteWake] { [] }
}

/// The wake service on a real Unix socket with fake listeners: the stream
/// limit, one slow decode not holding up another client, and the meters.
@Suite(.serialized) struct WyomingWakeServiceSocketTests {
    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "ears-wake-service-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Every meter the service published, in order.
    final class Published: Sendable {
        let meters = Mutex<[RemoteMeter]>([])
        var last: RemoteMeter? { meters.withLock { $0.last } }
    }

    func service(at path: String, maximumStreams: Int, gate: DispatchSemaphore? = nil, idleTimeoutSeconds: Double = 300,
                 published: Published = Published()) throws -> WyomingWakeService {
        try WyomingWakeService(uris: [.unix(path: path)],
                               options: .init(maximumStreams: maximumStreams, idleTimeoutSeconds: idleTimeoutSeconds),
                               phrases: { ["computer"] },
                               makeListener: { () throws(RemoteWakeError) -> any RemoteWakeListener in FakeListener(gate: gate) },
                               publish: { meter in published.meters.withLock { $0.append(meter) } })
    }

    static let chunk = WyomingEvent.audioChunk(samples: [Int16](repeating: 0, count: 1600))

    @Test("one over the stream limit gets a busy error and is closed; the others are served")
    func streamLimit() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try service(at: dir + "/wake.sock", maximumStreams: 2)
        defer { server.stop() }
        let first = try WyomingClient(socketPath: dir + "/wake.sock")
        let second = try WyomingClient(socketPath: dir + "/wake.sock")
        // Both admitted (a describe answered) before the third comes.
        for client in [first, second] {
            try client.send(.describe)
            #expect(try client.nextEvent(timeoutSeconds: 5)?.type == "info")
        }
        let third = try WyomingClient(socketPath: dir + "/wake.sock")
        let refusal = try third.nextEvent(timeoutSeconds: 5)
        #expect(refusal?.type == "error")
        #expect(refusal?.string("code") == "busy")
        #expect(try third.nextEvent(timeoutSeconds: 5) == nil, "the refused client was not closed")
        #expect(server.snapshot.refusedConnections == 1)
        #expect(server.snapshot.openConnections == 2)
        first.close()
        second.close()
    }

    @Test("a client that sends nothing is closed after the idle timeout, freeing its slot")
    func idleClientsAreClosed() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try service(at: dir + "/wake.sock", maximumStreams: 1, idleTimeoutSeconds: 0.5)
        defer { server.stop() }
        let idle = try WyomingClient(socketPath: dir + "/wake.sock")
        #expect(try idle.nextEvent(timeoutSeconds: 10) == nil, "the idle client was not closed")
        idle.close()
        for _ in 0..<50 where server.snapshot.openConnections != 0 { usleep(20_000) }
        let next = try WyomingClient(socketPath: dir + "/wake.sock")
        try next.send(.describe)
        #expect(try next.nextEvent(timeoutSeconds: 5)?.type == "info", "the slot was not freed")
        next.close()
    }

    /// How many listeners finished connections handed back and not yet
    /// taken again, and how many engines were ever loaded (made).
    final class Pool: Sendable {
        let kept = Mutex<Int>(0)
        let made = Atomic<Int>(0)
    }

    @Test("a client that reconnects as soon as its stream ends is admitted and reuses the engine, though the old socket still lingers")
    func reconnectAtOnce() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pool = Pool()
        let server = try WyomingWakeService(
            uris: [.unix(path: dir + "/wake.sock")], options: .init(maximumStreams: 1),
            phrases: { ["computer"] },
            makeListener: { () throws(RemoteWakeError) -> any RemoteWakeListener in
                let reused = pool.kept.withLock { kept -> Bool in
                    guard kept > 0 else { return false }
                    kept -= 1
                    return true
                }
                if !reused { pool.made.add(1, ordering: .relaxed) }
                return FakeListener(gate: nil)
            },
            recycle: { _ in pool.kept.withLock { $0 += 1 } })
        defer { server.stop() }
        var finished: [WyomingClient] = []
        defer { finished.forEach { $0.close() } }
        for round in 0..<6 {
            let client = try WyomingClient(socketPath: dir + "/wake.sock")
            finished.append(client)
            try client.send(.audioStart())
            if round.isMultiple(of: 2) {
                try client.send(Self.chunk)
                try client.send(Self.chunk)
                #expect(try client.nextEvent(timeoutSeconds: 5)?.type == "detection", "round \(round) was not served")
                try client.send(.audioStop())
                #expect(try client.nextEvent(timeoutSeconds: 5) == nil, "round \(round): the stream did not end")
            } else {
                // A stream with nothing in it: the client reconnects as soon
                // as it reads `not-detected`, before the server's close.
                try client.send(.audioStop())
                #expect(try client.nextEvent(timeoutSeconds: 5)?.type == "not-detected", "round \(round) was not served")
            }
            // The old connection stays open on this side: the server
            // lingers on it for a second, as it does for a slow peer, and
            // the next round connects during that linger.
        }
        #expect(server.snapshot.refusedConnections == 0, "a reconnect was refused as busy")
        #expect(pool.made.load(ordering: .relaxed) == 1, "a reconnect loaded a second engine")
    }

    @Test("a decode stuck on one connection does not hold up another's describe")
    func connectionsDoNotWaitForEachOther() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let gate = DispatchSemaphore(value: 0)
        let server = try service(at: dir + "/wake.sock", maximumStreams: 8, gate: gate)
        defer { server.stop() }
        let stuck = try WyomingClient(socketPath: dir + "/wake.sock")
        try stuck.send(.audioStart())
        try stuck.send(Self.chunk) // its feed now waits for the gate
        let quick = try WyomingClient(socketPath: dir + "/wake.sock")
        try quick.send(.describe)
        // Answered while the other connection's decode is still stuck.
        #expect(try quick.nextEvent(timeoutSeconds: 10)?.type == "info")
        for _ in 0..<4 { gate.signal() }
        stuck.close()
        quick.close()
    }

    @Test("detection then close; the meters count the connection, the audio and the phrase")
    func meters() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let published = Published()
        let server = try service(at: dir + "/wake.sock", maximumStreams: 8, published: published)
        defer { server.stop() }
        let client = try WyomingClient(socketPath: dir + "/wake.sock")
        try client.send(.audioStart())
        try client.send(Self.chunk)
        try client.send(Self.chunk)
        let detection = try client.nextEvent(timeoutSeconds: 5)
        #expect(detection?.type == "detection")
        #expect(detection?.string("name") == "computer")
        #expect(detection?.integer("timestamp") == 100)
        try client.send(.audioStop())
        #expect(try client.nextEvent(timeoutSeconds: 5) == nil, "no not-detected after a detection, then the close")
        client.close()
        // The connection's thread publishes its close just after closing.
        for _ in 0..<50 where server.snapshot.openConnections != 0 { usleep(20_000) }
        let meter = server.snapshot
        #expect(meter.totalConnections == 1 && meter.openConnections == 0)
        #expect(meter.detections == ["computer": 1])
        #expect(abs(meter.audioSeconds - 0.2) < 1e-9)
        #expect(published.last == meter, "the last change was not published")
    }
}
