import Glibc

/// A system call that failed: which call, on what, and errno.
package struct SystemCallError: Error, Equatable, Sendable {
    /// The C function's name, e.g. `write` or `fcntl(F_SETFL)`.
    package var call: String
    /// The path or label the call concerned.
    package var path: String
    /// errno as the call left it.
    package var code: Int32

    package init(call: String, path: String, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// errno's sentence, e.g. "Permission denied".
    package var reason: String { String(cString: strerror(code)) }

    /// "write on /run/ears/status.sock: Broken pipe".
    package var sentence: String { "\(call) on \(path): \(reason)" }
}

/// The one funnel every system call in ears goes through (issue 22): EINTR
/// retried, errno read at once (nothing may run between the failing call and
/// the read, or it could be overwritten), a failure thrown as a
/// `SystemCallError` naming the call and what it was on. The socket layer,
/// the model writer, the hook and subprocess pipes and the stream readers
/// use it, each turning the error into its own typed error.
package enum SystemCall {
    /// Runs `body` until it stops failing with `EINTR` and returns its
    /// result, which is never -1.
    ///
    /// - Parameters:
    ///   - call: the C function's name, used in the error.
    ///   - path: the path or label the call concerns.
    ///   - body: performs the call and returns its raw result; -1 means
    ///     failure with the reason in `errno`.
    @discardableResult
    package static func run<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, path: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, path: path, code: code)
        }
    }

    /// Writes all of `bytes` to `descriptor`: partial writes continued,
    /// `EINTR` retried. Throws the failing `write` (`EPIPE` when the reader
    /// has gone; the caller decides whether that matters).
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(SystemCallError) {
        // The buffer closures are not typed-throwing: the failure comes out as a value.
        let failure = bytes.withUnsafeBytes { buffer -> SystemCallError? in
            var offset = 0
            while offset < buffer.count {
                do throws(SystemCallError) {
                    let written = try run("write", path: path) {
                        Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    }
                    // write(2) returns 0 only for a zero-length request.
                    offset += max(written, 1)
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Reads at most `count` bytes from `descriptor` into a new array, `EINTR`
    /// retried; empty at end of file.
    package static func read(upTo count: Int, from descriptor: Int32, path: String) throws(SystemCallError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { raw -> Result<Int, SystemCallError> in
            Result { () throws(SystemCallError) -> Int in try run("read", path: path) { Glibc.read(descriptor, raw.baseAddress, raw.count) } }
        }
        buffer.removeSubrange(try got.get()...)
        return buffer
    }

    /// Sleeps `seconds` in full: a signal wakes `nanosleep` early with the
    /// time left, which is slept again. Zero or less returns at once.
    package static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
