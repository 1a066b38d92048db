import Glibc

/// What a path given as audio input is, by `stat` (following links, as
/// opening it would): scan reads a FIFO as a stream, `listen --input` takes
/// only regular files (a FIFO would leave it waiting in `opening` for a
/// writer, with nothing saying so).
package enum InputKind: Equatable {
    /// A regular file (or a link to one).
    case regular
    /// A named pipe: reading it waits for a writer.
    case fifo
    /// Nothing there (opening it will say so with the file's own words).
    case missing
    /// A directory, device or socket.
    case other(String)

    /// Classifies `path` with `stat`.
    package init(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            self = .missing
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFIFO: self = .fifo
        case S_IFDIR: self = .other("a directory")
        case S_IFCHR, S_IFBLK: self = .other("a device")
        case S_IFSOCK: self = .other("a socket")
        default: self = .other("not a regular file")
        }
    }

    /// Why `ears listen --input` refuses this kind, or nil if it takes it.
    package func listenRefusal(path: String) -> String? {
        switch self {
        case .regular, .missing: return nil
        case .fifo:
            return "ears listen: --input \(path) is a FIFO; --input plays a sound file at real time. For a live stream use `ears scan -` (e.g. `arecord -f S16_LE -r 16000 -c 1 | ears scan -`) or an ALSA device (docs/operations.md)."
        case let .other(what):
            return "ears listen: --input \(path) is \(what); give a sound file (WAV, FLAC, Ogg…)."
        }
    }
}
