import EarsSocket
import Foundation

/// The client side of `ears status` and `ears tap`: one HTTP request over the
/// daemon's Unix status socket, through EarsSocket (one funnel, one error).
package enum StatusClient {
    /// Why the daemon could not be asked; `description` says what to do.
    package struct Failure: Error, CustomStringConvertible {
        /// One line for the terminal.
        package var description: String
        /// The socket error underneath, when nobody could be asked (so a
        /// search can tell "no socket" from "permission denied"); nil for an
        /// answer that was not HTTP.
        package var socketError: SocketError?

        /// A failure said as `description`.
        package init(description: String, socketError: SocketError? = nil) {
            self.description = description
            self.socketError = socketError
        }
    }

    /// Longest answer read, in bytes; `/ears` and `/metrics` are a few kB.
    static let maximumResponseBytes = 1 << 20

    /// Sends `method path` (GET by default) to the HTTP server on the Unix
    /// socket at `socketPath` and returns the status code and body.
    ///
    /// - Parameter timeoutSeconds: longest wait for the whole answer, from
    ///   connecting to the end of the body.
    /// - Throws: `Failure` when nobody answers there (with the hint to start
    ///   `ears listen`), on a timeout, or on an answer that is not HTTP.
    package static func get(_ path: String, socketPath: String, method: String = "GET",
                           timeoutSeconds: Int = 5) throws(Failure) -> (status: Int, body: String) {
        let deadline = MonotonicClock.seconds() + Double(timeoutSeconds)
        var response: [UInt8] = []
        do throws(SocketError) {
            let stream = try UnixStream.connect(path: socketPath)
            defer { stream.close() }
            let request = "\(method) \(path) HTTP/1.0\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            try stream.sendAll(Array(request.utf8))
            var buffer = [UInt8](repeating: 0, count: 4096)
            while response.count < maximumResponseBytes {
                let count = try stream.receive(into: &buffer, deadlineSeconds: deadline, timeoutSeconds: Double(timeoutSeconds))
                if count == 0 { break }
                response += buffer[0..<count]
            }
        } catch {
            throw Failure(description: error.description, socketError: error)
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else {
            throw Failure(description: "the answer from \(socketPath) is not HTTP; is it the status socket of `ears listen`?")
        }
        let statusLine = text[..<split.lowerBound].split(separator: "\r\n").first ?? ""
        let code = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (code, String(text[split.upperBound...]))
    }
}
