import EarsSocket

/// Why the status server could not start.
///
/// Socket failures (directory, bind, permissions) are `SocketError`s from
/// EarsSocket, wrapped; only what is specific to serving HTTP is its own case.
/// The `description` is meant for operators and never contains request data.
package enum StatusServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Setting up the Unix socket failed; the wrapped error names the step,
    /// the path and what to do.
    case socket(SocketError)

    /// One line for logs, for example
    /// `bind(/run/ears/status.sock): Permission denied (errno 13); check …`.
    package var description: String {
        switch self {
        case let .socket(error):
            return error.description
        }
    }
}
