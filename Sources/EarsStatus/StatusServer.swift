import CMicroHTTPD
import EarsSocket
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on a Unix stream socket, for read-only status.
///
/// libmicrohttpd does the HTTP work on one internal polling thread (`poll`,
/// with an inter-thread channel so it can be quiesced and stopped promptly).
/// That thread calls `handler` once per request, serially, so:
///
/// - the handler must be quick and must not block (a slow handler delays
///   every other status client, though never anything outside this server);
/// - the handler must not call `stop()` (that would join the thread from
///   itself, which libmicrohttpd treats as a fatal error).
///
/// Requests are answered as soon as their headers are in; bodies are never
/// read (libmicrohttpd discards one that follows, then closes the
/// connection). Nothing about a request is logged: libmicrohttpd's logging is
/// left disabled and its log sink points at a function that drops messages.
///
/// Lifetime: serving starts in `init` and ends at `stop()` or `deinit`,
/// whichever comes first; after that the socket file is gone.
public final class StatusServer: Sendable {
    /// The socket path this server listens on.
    public let socketPath: String

    /// Most connections served at once. Clients beyond it are not refused:
    /// libmicrohttpd stops accepting until a slot frees, and they wait in the
    /// kernel's listen backlog (`SOMAXCONN`).
    public static let connectionLimit: UInt32 = 64

    /// Seconds a connection may sit idle (for example a client that opens the
    /// socket and never sends a request) before it is dropped, so such
    /// clients cannot hold `connectionLimit` slots forever.
    public static let connectionTimeoutSeconds: UInt32 = 10

    /// Everything that exists only while serving. `nil` once stopped.
    private let running: Mutex<Running?>

    /// Starts serving on a fresh Unix socket at `socketPath`.
    ///
    /// - Parameters:
    ///   - socketPath: where to create the socket; see
    ///     `UnixSocketListener.open` for the parent directory, stale-socket
    ///     and length rules.
    ///   - mode: the socket file's permission bits (default `0o660`).
    ///   - groupID: the socket file's group, if it should not be the
    ///     process's.
    ///   - handler: maps each request to its response; runs on
    ///     libmicrohttpd's thread (see the type's notes).
    /// - Throws: `StatusServerError` if the socket cannot be set up or
    ///   libmicrohttpd does not start. Nothing is left behind on failure.
    public init(
        socketPath: String,
        mode: mode_t = 0o660,
        groupID: gid_t? = nil,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(StatusServerError) {
        let listener: UnixSocketListener
        do {
            listener = try UnixSocketListener.open(path: socketPath, mode: mode, groupID: groupID)
        } catch {
            throw .socket(error)
        }
        // libmicrohttpd gets a raw pointer as its closure; the +1 retain keeps
        // the box alive for as long as the daemon can call back, and stop()
        // gives it back once the polling thread has been joined.
        let box = Unmanaged.passRetained(HandlerBox(handler))
        let inode = Self.socketInode(listener.descriptor, path: socketPath)
        let flags = MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue

        let daemon = ears_mhd_start_on_socket(
            flags, listener.descriptor,
            { cls, connection, url, method, _, _, uploadDataSize, _ in
                StatusServer.respond(
                    cls: cls, connection: connection, url: url, method: method,
                    uploadDataSize: uploadDataSize)
            },
            box.toOpaque(), Self.connectionLimit, Self.connectionTimeoutSeconds)

        guard let daemon else {
            box.release()
            // libmicrohttpd 0.9.75 closes the listening socket on some of its
            // failure paths and not on others. Close it only if the number
            // still refers to the very same socket (same sockfs inode), so a
            // descriptor another thread has just opened is never closed.
            if let inode, Self.socketInode(listener.descriptor, path: socketPath) == inode {
                listener.close()
            }
            listener.removeSocketFile()
            throw .daemonStartFailed(path: socketPath)
        }
        self.socketPath = socketPath
        self.running = Mutex(Running(daemon: daemon, listener: listener, handlerBox: box))
    }

    deinit {
        stop()
    }

    /// Whether the server is still serving (`stop()` not yet called).
    public var isRunning: Bool {
        running.withLock { $0 != nil }
    }

    /// Stops serving, closes the socket and removes its file. Idempotent and
    /// thread-safe; when it returns, the handler is no longer running and
    /// will not be called again. Must not be called from the handler.
    ///
    /// Connections in progress are cut off; clients still in the listen
    /// backlog see a reset, new ones find no socket file.
    public func stop() {
        running.withLock { state in
            guard let current = state.take() else { return }
            // Quiesce first: libmicrohttpd stops accepting and hands the
            // listening descriptor back, so closing it is unambiguously ours
            // (MHD_stop_daemon would otherwise close it itself).
            let returned = MHD_quiesce_daemon(current.daemon)
            // Unlink before the (possibly slower) thread join so that new
            // clients fail fast with ENOENT instead of queueing on a socket
            // that will never accept again.
            current.listener.removeSocketFile()
            MHD_stop_daemon(current.daemon)
            if returned == current.listener.descriptor {
                current.listener.close()
            }
            current.handlerBox.release()
        }
    }

    // MARK: Request handling (libmicrohttpd's thread)

    /// The access handler's body: answers every request on its first call.
    ///
    /// libmicrohttpd calls the handler once when the headers are complete
    /// (`*upload_data_size == 0`), then, only if no response was queued, once
    /// per body chunk and once more at the end. Queuing a response on the
    /// first call, for any method, means no body is ever read: libmicrohttpd
    /// discards it and closes the connection. The chunk case is still handled
    /// (mark the data consumed, answer later) so that a future change which
    /// declines to answer early cannot stall a connection.
    private static func respond(
        cls: UnsafeMutableRawPointer?,
        connection: OpaquePointer?,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>?
    ) -> MHD_Result {
        guard let cls, let connection else { return .NO }
        if let uploadDataSize, uploadDataSize.pointee != 0 {
            uploadDataSize.pointee = 0
            return .YES
        }
        let box = Unmanaged<HandlerBox>.fromOpaque(cls).takeUnretainedValue()
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/")
        if queue(box.handler(request), on: connection) || queue(.internalServerError, on: connection) {
            return .YES
        }
        return .NO // libmicrohttpd closes the connection
    }

    /// Hands `response` to libmicrohttpd for `connection`.
    ///
    /// - Returns: `false` if libmicrohttpd rejected any part (status outside
    ///   100...999, a header value with CR/LF, out of memory); nothing is
    ///   queued then and the caller may try another response.
    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> Bool {
        guard (100...999).contains(response.status) else { return false }
        // MUST_COPY: libmicrohttpd copies the bytes now, so the Swift array
        // only has to live for this call.
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return false }
        // Queuing takes its own reference; ours is dropped either way.
        defer { MHD_destroy_response(mhdResponse) }
        guard MHD_add_response_header(mhdResponse, "Content-Type", response.contentType) == .YES else {
            return false
        }
        for name in response.headers.keys.sorted() {
            guard MHD_add_response_header(mhdResponse, name, response.headers[name]) == .YES else {
                return false
            }
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse) == .YES
    }

    // MARK: Helpers

    /// The inode of the socket behind `fd` (sockfs numbers are unique among
    /// live sockets), or `nil` if `fd` is not open.
    private static func socketInode(_ fd: Int32, path: String) -> ino_t? {
        var status = stat()
        guard (try? SocketCall.run("fstat", path: path, { fstat(fd, &status) })) != nil else { return nil }
        return status.st_ino
    }
}

/// What a running server owns; moved out under the lock by `stop()`.
private struct Running {
    /// The `struct MHD_Daemon *`.
    var daemon: OpaquePointer
    /// The listening socket and its file.
    var listener: UnixSocketListener
    /// The handler as libmicrohttpd's closure, retained once.
    var handlerBox: Unmanaged<HandlerBox>
}

/// Boxes the Swift handler so it can travel through libmicrohttpd's
/// `void *cls` as a single pointer.
private final class HandlerBox: Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse

    init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
    }
}
