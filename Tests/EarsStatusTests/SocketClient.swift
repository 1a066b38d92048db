import Foundation
import Glibc

/// A raw client of a Unix stream socket, for driving the status server the
/// way hostile or broken clients do: partial heads, trickled bytes, never
/// reading.
final class SocketClient {
    /// How a connection ended, as the client sees it.
    enum End: Equatable {
        /// The server closed it cleanly (end of stream).
        case closed
        /// The server reset it (`ECONNRESET`), or it failed otherwise.
        case reset
        /// Still open when the wait ran out.
        case open
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let fd: Int32

    /// Connects to `path` (blocking socket; reads below use poll).
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
            Glibc.close(fd)
            throw Failure(description: "connect(\(path)): errno \(code)")
        }
    }

    deinit {
        Glibc.close(fd)
    }

    /// Sends `text`; false if the server has closed its side for reading.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads until the server ends the connection or `seconds` pass.
    func readToEnd(within seconds: Double) -> (bytes: [UInt8], end: End) {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, waitReadable(milliseconds: Int32(left * 1000) + 1) else { return (received, .open) }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return (received, .reset) }
            if count == 0 { return (received, .closed) }
            received += buffer[0..<count]
        }
    }

    /// The response text read to the end, if the server closed cleanly
    /// within `seconds`.
    func response(within seconds: Double = 5) -> String? {
        let (bytes, end) = readToEnd(within: seconds)
        return end == .closed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether something (data or an end) is ready to read within the time.
    func waitReadable(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }
}

/// A fresh private directory for one test's socket; removed by the caller.
func socketDirectory(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "ears-status-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false,
                                            attributes: [.posixPermissions: 0o700])
    return path
}

/// The status line's code in a response text, or nil.
func statusCode(_ response: String?) -> Int? {
    response?.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
}
