import Foundation

/// A bare Unix stream connection for hostile-client tests: it connects,
/// optionally sends bytes, and reads only when told (or never). Closed on
/// release. Test code, so failures throw a plain `SpeechError`.
final class RawUnixClient {
    let descriptor: Int32

    /// Connects to `path` (blocking); throws if nobody listens there.
    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SpeechError(detail: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw SpeechError(detail: "connect \(path): errno \(code)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `text` whole.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw SpeechError(detail: "send: errno \(errno)") }
            sent += count
        }
    }

    /// What a read sees within `seconds`: bytes, end of stream, or nothing yet.
    enum ReadOutcome: Equatable {
        case bytes(Int)
        case endOfStream
        case nothing
    }

    /// Waits up to `seconds` for the connection to become readable and reads once.
    func readOnce(within seconds: Double) -> ReadOutcome {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 1, Int32(seconds * 1000)) > 0 else { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? .bytes(count) : .endOfStream
    }
}
