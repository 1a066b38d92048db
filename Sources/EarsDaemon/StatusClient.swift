import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The client side of `ears status`: one `GET` over the daemon's Unix socket.
public enum StatusClient {
    /// Why the daemon could not be asked.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Sends `method path` (GET by default) to the HTTP server on the Unix socket at `socketPath`
    /// and returns the status code and body. Waits at most `timeoutSeconds`.
    public static func get(_ path: String, socketPath: String, method: String = "GET",
                           timeoutSeconds: Int = 5) throws(Failure) -> (status: Int, body: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "the socket path \(socketPath) is too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            throw Failure(description: "cannot reach the daemon at \(socketPath) (\(String(cString: strerror(errno)))); is `ears listen` running?")
        }
        let request = Array("\(method) \(path) HTTP/1.0\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "no answer from \(socketPath) (\(String(cString: strerror(errno))))") }
            if n == 0 { break }
            response += buffer[0..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "malformed answer from \(socketPath)") }
        let statusLine = text[..<split.lowerBound].split(separator: "\r\n").first ?? ""
        let code = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (code, String(text[split.upperBound...]))
    }
}
