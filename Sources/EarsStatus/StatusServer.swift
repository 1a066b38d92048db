import Foundation
import EarsSocket
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on a Unix stream socket, for the daemon's status.
///
/// One thread, "ears-status", polls the listening socket and every
/// connection (`StatusServerLoop`); accepting, reading and writing never
/// block. Each connection carries one request: its head is read through
/// `HTTPRequestDecoder` (at most `HTTPRequestDecoder.maximumHeadBytes`), the
/// handler answers, the response goes out with `Connection: close`, and the
/// connection ends. Bodies are never read.
///
/// Hostile or broken clients cannot lock the socket: every connection is
/// closed `Limits.requestDeadlineSeconds` after accept, whatever it sent or
/// failed to read, and at `Limits.connections` a newcomer evicts the oldest
/// connection that is only waiting for its client to close, else the oldest
/// still sending its request head. So a crowd of clients trickling bytes
/// slows nobody down, and `ears status` always gets a slot.
///
/// The handler runs on the server's thread, once per request, serially:
///
/// - it must be quick and must not block (a slow handler delays every other
///   status client, though never anything outside this server);
/// - it must not call `stop()` (that would wait for the thread from itself).
///
/// Nothing about a request is logged.
///
/// Lifetime: serving starts in `init` and ends at `stop()` or `deinit`,
/// whichever comes first; after that the socket file is gone.
package final class StatusServer: Sendable {
    /// How many clients are served at once, and for how long each.
    package struct Limits: Sendable, Equatable {
        /// Most connections held at once; see the type's notes for who makes
        /// room for a newcomer.
        package var connections: Int
        /// Seconds from accept after which a connection is closed, whatever
        /// it is doing: reading the head, writing the answer, or waiting for
        /// the client to close.
        package var requestDeadlineSeconds: Double

        /// Limits; the defaults are `StatusServer.connectionLimit` and
        /// `StatusServer.requestDeadlineSeconds`.
        package init(connections: Int = StatusServer.connectionLimit,
                    requestDeadlineSeconds: Double = StatusServer.requestDeadlineSeconds) {
            self.connections = max(1, connections)
            self.requestDeadlineSeconds = requestDeadlineSeconds
        }
    }

    /// The default for `Limits.connections`: room for far more status
    /// clients than a machine has, and at most 256 descriptors and 256 ×
    /// 8 KiB of request heads.
    package static let connectionLimit = 256

    /// The default for `Limits.requestDeadlineSeconds`: any real client
    /// sends its request and reads the answer in milliseconds; 5 s leaves a
    /// loaded machine plenty, and bounds how long a trickling client holds a
    /// slot.
    package static let requestDeadlineSeconds: Double = 5

    /// The socket path this server listens on.
    package let socketPath: String

    /// The limits it serves with.
    package let limits: Limits

    /// The poll thread's state; `nil` here once stopped.
    private let running: Mutex<StatusServerLoop?>

    /// Starts serving on a fresh Unix socket at `socketPath`.
    ///
    /// - Parameters:
    ///   - socketPath: where to create the socket; see
    ///     `UnixSocketListener.open` for the parent directory, stale-socket
    ///     and length rules.
    ///   - mode: the socket file's permission bits (default `0o660`).
    ///   - groupID: the socket file's group, if it should not be the
    ///     process's.
    ///   - limits: connections and deadline (the defaults suit the daemon;
    ///     tests shorten them).
    ///   - handler: maps each request to its response; runs on the server's
    ///     thread (see the type's notes).
    /// - Throws: `StatusServerError` if the socket or the wake pipe cannot
    ///   be set up. Nothing is left behind on failure.
    package init(
        socketPath: String,
        mode: mode_t = 0o660,
        groupID: gid_t? = nil,
        limits: Limits = Limits(),
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(StatusServerError) {
        let listener: UnixSocketListener
        do throws(SocketError) {
            listener = try UnixSocketListener.open(path: socketPath, mode: mode, groupID: groupID)
        } catch {
            throw .socket(error)
        }
        let wake: WakePipe
        do throws(SocketError) {
            try listener.setNonBlocking()
            wake = try WakePipe(label: socketPath)
        } catch {
            listener.close()
            listener.removeSocketFile()
            throw .socket(error)
        }
        let loop = StatusServerLoop(socketPath: socketPath, listener: listener, wake: wake,
                                    limits: limits, handler: handler)
        self.socketPath = socketPath
        self.limits = limits
        self.running = Mutex(loop)
        // The thread holds the loop, not the server, so dropping the last
        // reference to the server still reaches `deinit` and stops it.
        // Named from inside: Foundation passes a name to the kernel (what
        // top and ps show) only when the thread names itself.
        let thread = Thread {
            Thread.current.name = "ears-status"
            loop.run()
        }
        thread.start()
    }

    deinit {
        stop()
    }

    /// Whether the server is still serving (`stop()` not yet called).
    package var isRunning: Bool {
        running.withLock { $0 != nil }
    }

    /// Stops serving, closes the socket and removes its file. Idempotent and
    /// thread-safe; when it returns, the handler is no longer running and
    /// will not be called again. Must not be called from the handler.
    ///
    /// Connections in progress are cut off; clients still in the listen
    /// backlog see a reset, new ones find no socket file.
    package func stop() {
        running.withLock { state in
            guard let loop = state.take() else { return }
            // Unlink before waiting for the thread, so that new clients fail
            // fast with ENOENT instead of queueing on a socket that will
            // never accept again.
            loop.listener.removeSocketFile()
            loop.requestStop()
            loop.finished.wait()
            loop.wake.close()
        }
    }
}
