import Glibc

/// A self-pipe that wakes a thread blocked in `poll` from another thread
/// without ever blocking the waker. (An eventfd would do, but Glibc's module
/// map does not export it.) Both ends are non-blocking: when the pipe is
/// full, wake-ups are already pending and one more is not needed.
///
/// Ownership: the value closes nothing by itself; its owner calls `close()`
/// once, after the last `signal()` (the Wyoming server guarantees that with
/// a lock: see `WyomingServer.stop`).
package struct WakePipe: Sendable {
    /// The read end, to put in the poll set; readable while a wake-up is pending.
    package let descriptor: Int32
    /// The write end.
    private let writeEnd: Int32
    /// Names the pipe in errors.
    private let label: String

    /// Creates the pipe, both ends non-blocking and close-on-exec.
    ///
    /// - Parameter label: names the pipe in errors (usually the socket path
    ///   of the server it wakes).
    package init(label: String) throws(SocketError) {
        var ends: [Int32] = [-1, -1]
        try SocketCall.run("pipe", path: label) { pipe(&ends) }
        do {
            for end in ends {
                try SocketCall.setCloseOnExec(end, path: label)
                try SocketCall.setNonBlocking(end, path: label)
            }
        } catch {
            for end in ends { SocketCall.close(end, path: label) }
            throw error
        }
        descriptor = ends[0]
        writeEnd = ends[1]
        self.label = label
    }

    /// Makes `descriptor` readable. Never blocks; a full pipe (`EAGAIN`)
    /// already means "wake up", so that failure is not one.
    package func signal() {
        var byte: UInt8 = 1
        _ = try? SocketCall.runNonBlocking("write", path: label) { write(writeEnd, &byte, 1) }
    }

    /// Clears pending wake-ups (reads until the pipe is empty).
    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while let count = try? SocketCall.runNonBlocking("read", path: label, {
            bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        }), count == bytes.count {}
    }

    /// Closes both ends. Call once, after the last `signal()`.
    package func close() {
        SocketCall.close(descriptor, path: label)
        SocketCall.close(writeEnd, path: label)
    }
}
