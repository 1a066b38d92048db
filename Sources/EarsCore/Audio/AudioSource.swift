/// Where chunks come from: a microphone (ALSA) or a sound file. The audio owner
/// is the only code that calls a source; sources are used from one thread.
package protocol AudioSource: AnyObject {
    /// A short name for logs and the status socket, e.g. `alsa:default` or a file name.
    var sourceName: String { get }

    /// Opens the device or file. Throws `AudioSourceError` with a sentence for a person.
    func open() throws(AudioSourceError)

    /// Blocks until the next chunk (about 100 ms) is available and returns it;
    /// returns nil at the end of a finite source (a file). Recoverable trouble
    /// (an overrun, a suspend) is handled inside and counted in `recoveries`.
    func read() throws(AudioSourceError) -> AudioChunk?

    /// Closes the device or file; safe to call twice.
    func close()

    /// How many overruns/suspends the source recovered from since it was made.
    var recoveries: Int { get }
}

/// Why a source could not open or went away, with a sentence a person can act on.
package enum AudioSourceError: Error, Equatable, Sendable {
    /// The device is not there (missing card, unknown name): retry later.
    case deviceMissing(device: String, detail: String)
    /// The device exists but refused us (busy, permissions, format): retry later.
    case deviceRefused(device: String, detail: String)
    /// The device was open and vanished (unplugged, driver gone): retry later.
    case deviceGone(device: String, detail: String)
    /// A file could not be read or decoded; it fails alone.
    case unreadableFile(path: String, detail: String)

    /// One sentence for `closed_why` and logs. Never carries audio.
    package var sentence: String {
        switch self {
        case let .deviceMissing(device, detail):
            return "The microphone '\(device)' is not there (\(detail)); ears keeps retrying and opens it when it appears."
        case let .deviceRefused(device, detail):
            return "The microphone '\(device)' refused to open (\(detail)); check that the user is in the 'audio' group and no other program holds it."
        case let .deviceGone(device, detail):
            return "The microphone '\(device)' went away while listening (\(detail)); ears keeps retrying and resumes when it returns."
        case let .unreadableFile(path, detail):
            return "The audio file '\(path)' could not be read (\(detail))."
        }
    }
}
