import EarsSocket
import Glibc
import Testing

/// The one accept loop every server uses, over a scripted listener: what
/// each failure does, and the per-pass limit.
@Suite struct AcceptLoopTests {
    /// A scripted `accept`: each step a connection, nothing queued, or an errno.
    private final class Script {
        enum Step { case connection, empty, failure(Int32) }
        var steps: [Step]
        var calls = 0
        init(_ steps: [Step]) { self.steps = steps }

        func accept() throws(SocketError) -> UnixStream? {
            calls += 1
            guard !steps.isEmpty else { return nil }
            switch steps.removeFirst() {
            case .connection:
                var pair: [Int32] = [0, 0]
                precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
                Glibc.close(pair[1])
                return UnixStream(adopting: pair[0], path: "scripted")
            case .empty: return nil
            case let .failure(code): throw .system(call: "accept4", path: "scripted", errno: code)
            }
        }
    }

    @Test("every queued connection is handed over, a client that gave up while queued is skipped, and nothing queued ends the pass")
    func takesEveryConnection() {
        let script = Script([.connection, .failure(ECONNABORTED), .connection, .empty, .connection])
        var handled: [UnixStream] = []
        AcceptLoop.acceptPending(accept: { () throws(SocketError) in try script.accept() },
                                 exhausted: { _ in Issue.record("not exhausted"); return false },
                                 handle: { handled.append($0) })
        #expect(handled.count == 2, "the pass ends at the first empty accept")
        #expect(script.steps.count == 1)
        handled.forEach { $0.close() }
    }

    @Test("out of descriptors: the server decides; true tries again, false ends the pass")
    func exhaustionIsTheServersCall() {
        let script = Script([.failure(EMFILE), .connection, .failure(ENFILE), .connection])
        var seen: [Int32] = []
        var handled = 0
        AcceptLoop.acceptPending(accept: { () throws(SocketError) in try script.accept() }, exhausted: { error in
            if case let .system(_, _, code) = error { seen.append(code) }
            return seen.count < 2 // freed a descriptor the first time, rests the second
        }, handle: { stream in
            handled += 1
            stream.close()
        })
        #expect(seen == [EMFILE, ENFILE])
        #expect(handled == 1)
        #expect(script.steps.count == 1, "the pass ended at the second exhaustion")
    }

    @Test("at most the limit is taken in one pass")
    func limitPerPass() {
        let script = Script([.connection, .connection, .connection])
        var handled = 0
        AcceptLoop.acceptPending(upTo: 2, accept: { () throws(SocketError) in try script.accept() },
                                 exhausted: { _ in false }, handle: { stream in
            handled += 1
            stream.close()
        })
        #expect(handled == 2 && script.steps.count == 1)
    }
}
