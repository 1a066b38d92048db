import EarsCore
import EarsDaemon
import EarsWyoming
import Glibc
import EarsSystem
import EarsEngines

/// `ears follow [--wav]`: connects to the running daemon's Wyoming socket
/// (`<runtime dir>/listen.sock`) and shows what it hands to consumers.
///
/// Text mode prints one line per event, never audio content:
///
///     detection name="hey ears" timestamp=1732890000123
///     audio-start rate=16000 width=2 channels=1
///     audio-chunk samples=1600
///     audio-stop
///
/// `--wav` instead writes each capture to stdout as a complete WAV file, one
/// after another. A WAV header states the data length, which is only known at
/// `audio-stop`, so each capture is held in memory until then, at most
/// `maximumCaptureSeconds` (longer ones are cut, with a note on stderr).
///
/// Runs until the daemon closes the connection (exit 0) or cannot be reached
/// (exit 1). Ctrl-C ends it.
package enum FollowCommand {
    /// Longest capture `--wav` holds in memory; the daemon's own cap is 20 s
    /// of live audio plus 3 s of pre-roll, so this is never reached normally.
    package static let maximumCaptureSeconds = 60

    /// Follows the listen socket at `socketPath`.
    ///
    /// - Parameters:
    ///   - wav: write captures as WAV to `writeOutput` instead of text lines.
    ///   - output: receives each text line (text mode).
    ///   - writeOutput: receives WAV bytes (`--wav`); returns false when the
    ///     output is gone, which ends the command.
    ///   - errors: receives notices and failures, one line each.
    /// - Returns: the exit status.
    package static func run(socketPath: String, wav: Bool, output: (String) -> Void,
                           writeOutput: ([UInt8]) -> Bool = FollowCommand.writeStandardOutput,
                           errors: (String) -> Void) -> Int32 {
        let client: WyomingClient
        do {
            client = try WyomingClient(socketPath: socketPath)
        } catch {
            errors("ears follow: \(error)")
            return EarsProgram.ExitCode.failure
        }
        var recorder = CaptureRecorder(maximumSeconds: maximumCaptureSeconds)
        var outputGone = false
        do throws(WyomingClient.Failure) {
            try client.run { event in
                guard wav else {
                    output(line(for: event))
                    return true
                }
                switch recorder.take(event) {
                case .none: return true
                case let .note(message):
                    errors("ears follow: \(message)")
                    return true
                case let .finished(bytes):
                    outputGone = !writeOutput(bytes)
                    return !outputGone
                }
            }
        } catch {
            errors("ears follow: \(error.description)")
            return EarsProgram.ExitCode.failure
        }
        if outputGone { return EarsProgram.ExitCode.failure }
        if recorder.isRecording { errors("ears follow: the connection ended during a capture; it was not written") }
        errors("ears follow: the daemon closed the connection")
        return EarsProgram.ExitCode.success
    }

    /// The text line for `event`: its type and format fields, for audio only
    /// the sample count.
    package static func line(for event: WyomingEvent) -> String {
        switch event.type {
        case WyomingEvent.EventType.detection:
            var text = "detection name=\(JSONText.string(event.string("name") ?? ""))"
            if let timestamp = event.integer("timestamp") { text += " timestamp=\(timestamp)" }
            return text
        case WyomingEvent.EventType.audioStart:
            let rate = event.integer("rate").map(String.init) ?? "?"
            let width = event.integer("width").map(String.init) ?? "?"
            let channels = event.integer("channels").map(String.init) ?? "?"
            return "audio-start rate=\(rate) width=\(width) channels=\(channels)"
        case WyomingEvent.EventType.audioChunk:
            let frameBytes = max(1, (event.integer("width") ?? 2) * (event.integer("channels") ?? 1))
            return "audio-chunk samples=\(event.payload.count / frameBytes)"
        default:
            return event.payload.isEmpty ? event.type : "\(event.type) payload_bytes=\(event.payload.count)"
        }
    }

    /// Writes `bytes` to file descriptor 1 completely; false if it fails
    /// (a closed pipe, a full disk).
    package static func writeStandardOutput(_ bytes: [UInt8]) -> Bool {
        (try? SystemCall.writeAll(bytes, to: STDOUT_FILENO, path: "standard output")) != nil
    }
}

/// Collects one capture at a time from `audio-start` to `audio-stop` and
/// turns it into WAV bytes.
struct CaptureRecorder {
    /// What taking an event produced.
    enum Outcome: Equatable {
        /// Nothing to write yet.
        case none
        /// A notice for stderr.
        case note(String)
        /// A complete WAV file.
        case finished([UInt8])
    }

    /// Longest capture kept; later audio of the same capture is cut.
    let maximumSeconds: Int
    private var samples: [Int16]?
    private var rate = AudioFormat.sampleRate
    private var cutNoted = false

    /// Makes a recorder that keeps at most `maximumSeconds` per capture.
    init(maximumSeconds: Int) {
        self.maximumSeconds = maximumSeconds
    }

    /// True between an accepted `audio-start` and its `audio-stop`.
    var isRecording: Bool { samples != nil }

    /// Feeds one event.
    mutating func take(_ event: WyomingEvent) -> Outcome {
        switch event.type {
        case WyomingEvent.EventType.audioStart:
            let width = event.integer("width") ?? AudioFormat.bytesPerSample
            let channels = event.integer("channels") ?? AudioFormat.channels
            rate = event.integer("rate") ?? AudioFormat.sampleRate
            // WAVEncoder writes mono S16, ears' only format; anything else
            // would be a different daemon and is refused rather than garbled.
            guard width == 2, channels == 1, rate > 0 else {
                samples = nil
                return .note("skipping a capture in an unsupported format (width \(width), \(channels) channels)")
            }
            samples = []
            cutNoted = false
            return .none
        case WyomingEvent.EventType.audioChunk:
            guard samples != nil else { return .none }
            let room = maximumSeconds * rate - samples!.count
            let incoming = event.samples
            samples!.append(contentsOf: incoming.prefix(max(0, room)))
            if incoming.count > room && !cutNoted {
                cutNoted = true
                return .note("capture longer than \(maximumSeconds) s; the rest is cut")
            }
            return .none
        case WyomingEvent.EventType.audioStop:
            guard let captured = samples else { return .none }
            samples = nil
            return .finished(WAVEncoder.encode(captured, sampleRate: rate))
        default:
            return .none
        }
    }
}
