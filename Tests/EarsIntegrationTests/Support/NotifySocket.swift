import Foundation
import Synchronization

/// The service manager's side of sd_notify(3), standing in for systemd: a
/// datagram Unix socket the test owns, whose path goes into `$NOTIFY_SOCKET`.
/// Every datagram received is kept with the time it arrived. Call
/// `shutdown()` when done.
final class NotifySocket: Sendable {
    /// The socket's path (what `NOTIFY_SOCKET` is set to).
    let path: String
    private let fd: Int32
    private let received = Mutex<[(at: Date, text: String)]>([])
    private let closing = Atomic<Bool>(false)

    /// Binds a datagram socket at `path` and starts receiving.
    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { close(fd); throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !closing.load(ordering: .relaxed) {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { continue }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                received.withLock { $0.append((Date(), text)) }
            }
        }
        thread.start()
    }

    /// Every message so far, oldest first.
    var messages: [(at: Date, text: String)] { received.withLock { $0 } }

    /// Messages with an assignment `line` (e.g. `WATCHDOG=1`) among their lines.
    func messages(with line: String) -> [(at: Date, text: String)] {
        messages.filter { $0.text.split(separator: "\n").contains { $0 == line } }
    }

    /// Waits up to `seconds` for a message satisfying `match`.
    func waitFor(within seconds: Double, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let found = messages.first(where: { match($0.text) }) { return found.text }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    /// Stops receiving and removes the socket (the receiving thread holds
    /// the object, so this is not left to deinit).
    func shutdown() {
        guard !closing.exchange(true, ordering: .relaxed) else { return }
        usleep(150_000) // the receiver notices within its 100 ms timeout
        close(fd)
        unlink(path)
    }
}
