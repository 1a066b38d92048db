import Glibc

/// The one accept loop under every server (the status socket, the listen
/// socket, the Wyoming wake service): takes every connection a
/// non-blocking listener has queued, hands each to the server, and deals
/// with the two failures every server must survive the same way (issue 22:
/// this was written three times).
///
/// - `ECONNABORTED`: a client gave up while queued; skipped, the next one taken.
/// - Out of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`):
///   the connection stays queued, so poll would report it again at once;
///   the server's `exhausted` decides: free a descriptor and go on (true),
///   or end the pass and rest before looking again (false).
package enum AcceptLoop {
    /// Accepts until the listener has nothing queued, `limit` connections were
    /// taken, or `exhausted` says to stop.
    ///
    /// - Parameters:
    ///   - limit: most connections taken in one pass.
    ///   - accept: the listener's non-blocking accept (nil: nothing queued).
    ///   - exhausted: called with the error when accept ran out of
    ///     descriptors or memory; true to try again (it freed one), false to
    ///     end the pass.
    ///   - handle: the server's admission of one connection (it owns it).
    package static func acceptPending(upTo limit: Int = .max,
                                      accept: () throws(SocketError) -> UnixStream?,
                                      exhausted: (SocketError) -> Bool,
                                      handle: (UnixStream) -> Void) {
        var taken = 0
        while taken < limit {
            let stream: UnixStream
            do {
                guard let accepted = try accept() else { return }
                stream = accepted
            } catch .system(_, _, ECONNABORTED) {
                continue
            } catch {
                if exhausted(error) { continue }
                return
            }
            taken += 1
            handle(stream)
        }
    }
}
