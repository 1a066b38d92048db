import EarsSocket
import Glibc

/// One accepted client: its socket, its deadline, and where it stands.
/// Touched only by the poll thread.
final class StatusConnection {
    /// Where a connection is in its one request.
    enum Stage {
        /// Waiting for the request head; the decoder holds what came so far.
        case readingHead(HTTPRequestDecoder)
        /// Writing the encoded response; `sent` bytes have gone.
        case writing([UInt8], sent: Int)
        /// Answered and shut for writing; discarding input until the client
        /// closes (or the deadline).
        case draining

        /// Whether the request head is still being read.
        var isReadingHead: Bool {
            if case .readingHead = self { return true }
            return false
        }

        /// Whether the answer has gone out in full.
        var isDraining: Bool {
            if case .draining = self { return true }
            return false
        }
    }

    /// The connected socket (non-blocking, close-on-exec), owned here.
    let stream: UnixStream
    /// When the connection is closed, whatever stage it is in.
    let deadline: ContinuousClock.Instant
    /// Where it stands.
    var stage: Stage = .readingHead(HTTPRequestDecoder())

    init(stream: UnixStream, deadline: ContinuousClock.Instant) {
        self.stream = stream
        self.deadline = deadline
    }

    /// A connection owning the raw descriptor `fd` (tests build these).
    convenience init(fd: Int32, deadline: ContinuousClock.Instant) {
        self.init(stream: UnixStream(adopting: fd, path: "status connection"), deadline: deadline)
    }

    /// The socket's descriptor, for `poll`.
    var fd: Int32 { stream.descriptor }

    /// The poll events this stage waits for.
    var pollEvents: Int16 {
        switch stage {
        case .readingHead, .draining: Int16(POLLIN)
        case .writing: Int16(POLLOUT)
        }
    }
}
