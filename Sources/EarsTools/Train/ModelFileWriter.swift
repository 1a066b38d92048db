#if canImport(Glibc)
import Glibc
#endif
import EarsSystem

/// Writes a trained model into the models directory so that a reader sees
/// either the old file or the whole new one, never part of one: the bytes go
/// to a hidden `.NAME.partial` file beside it (mode 0644, created
/// exclusively), are synced, and are renamed over `NAME`. A failure or an
/// interruption before the rename removes the partial file, so nothing
/// half-written is left behind (`ears train` interrupted by Ctrl-C writes
/// nothing at all: the write is its last step).
///
/// Every system call goes through `call` (the `SystemCall` funnel: `EINTR`
/// retried), a failure turned into a `ModelFileError` naming the call and the path.
enum ModelFileWriter {
    /// Why the model could not be written, in a sentence with what to do.
    struct ModelFileError: Error, Equatable {
        /// The system call that failed.
        var call: String
        /// The path it concerned.
        var path: String
        /// errno.
        var code: Int32

        /// One sentence for the command's stderr.
        var sentence: String {
            let reason = String(cString: strerror(code))
            let advice = code == EACCES || code == EPERM || code == EROFS
                ? "; run ears train as a user who may write there (sudo for the service's /var/lib/ears) or pass --models-dir"
                : ""
            return "could not write the model at \(path) (\(call): \(reason))\(advice)"
        }
    }

    /// Creates `directory` (and its parents, mode 0755) when missing, then
    /// writes `bytes` as `directory/name`; returns the final path.
    static func write(_ bytes: [UInt8], directory: String, name: String) throws(ModelFileError) -> String {
        try makeDirectories(directory)
        let path = directory + "/" + name
        let partial = directory + "/." + name + ".partial"
        // A partial file left by a crash (the process was killed, not
        // interrupted) is stale by definition: only one writer finishes a name.
        _ = unlink(partial)
        let descriptor = try call("open", partial) { open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        do throws(ModelFileError) {
            var offset = 0
            while offset < bytes.count {
                let start = offset
                let written = try call("write", partial) {
                    bytes.withUnsafeBytes { Int32(Glibc.write(descriptor, $0.baseAddress! + start, $0.count - start)) }
                }
                offset += Int(written)
            }
            try call("fsync", partial) { fsync(descriptor) }
            _ = close(descriptor)
            try call("rename", path) { rename(partial, path) }
        } catch {
            _ = close(descriptor)
            _ = unlink(partial)
            throw error
        }
        return path
    }

    /// `mkdir -p` with mode 0755.
    private static func makeDirectories(_ directory: String) throws(ModelFileError) {
        var prefix = ""
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            if code == EEXIST { continue }
            throw ModelFileError(call: "mkdir", path: prefix, code: code)
        }
    }

    /// Runs `body` until it stops failing with `EINTR`; -1 is a failure with
    /// the reason in errno (read at once, before anything can clobber it).
    @discardableResult
    private static func call(_ name: String, _ path: String, _ body: () -> Int32) throws(ModelFileError) -> Int32 {
        do {
            return try SystemCall.run(name, path: path, body)
        } catch {
            throw ModelFileError(call: error.call, path: error.path, code: error.code)
        }
    }
}
