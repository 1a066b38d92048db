import EarsCore

/// The audio format a Wyoming client streams in (`audio-start`/`audio-chunk`
/// data): any rate, sample width and channel count within `supported`.
package struct RemoteAudioFormat: Sendable, Equatable {
    /// Frames per second, in hertz.
    package var sampleRate: Int
    /// Bytes per sample: 1 (signed 8-bit), 2 (S16LE) or 4 (S32LE), as
    /// Wyoming's `AudioChunkConverter` reads them.
    package var sampleWidth: Int
    /// Interleaved channels; the listener mixes them down to mono.
    package var channels: Int

    /// Rates accepted, in hertz: telephone-grade to studio.
    package static let sampleRates = 4_000...192_000
    /// Sample widths accepted, in bytes.
    package static let sampleWidths: Set<Int> = [1, 2, 4]
    /// Channel counts accepted.
    package static let channelCounts = 1...8

    /// Makes a format.
    package init(sampleRate: Int, sampleWidth: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.sampleWidth = sampleWidth
        self.channels = channels
    }

    /// Bytes in one frame (one sample of every channel).
    package var bytesPerFrame: Int { sampleWidth * channels }

    /// Seconds of audio in `byteCount` bytes of this format.
    package func seconds(ofBytes byteCount: Int) -> Double {
        Double(byteCount) / Double(bytesPerFrame * sampleRate)
    }

    /// The format an event's data states (`rate`, `width`, `channels`), or a
    /// sentence saying what is missing or out of range.
    package static func of(_ event: WyomingEvent) -> Result<RemoteAudioFormat, RemoteWakeError> {
        guard let rate = event.integer("rate"), let width = event.integer("width"), let channels = event.integer("channels") else {
            return .failure(RemoteWakeError(sentence: "\(event.type) needs integer rate, width and channels"))
        }
        guard sampleRates.contains(rate) else {
            return .failure(RemoteWakeError(sentence: "rate \(rate) Hz is outside \(sampleRates.lowerBound) to \(sampleRates.upperBound)"))
        }
        guard sampleWidths.contains(width) else {
            return .failure(RemoteWakeError(sentence: "width \(width) is not 1, 2 or 4 bytes"))
        }
        guard channelCounts.contains(channels) else {
            return .failure(RemoteWakeError(sentence: "\(channels) channels is outside \(channelCounts.lowerBound) to \(channelCounts.upperBound)"))
        }
        return .success(RemoteAudioFormat(sampleRate: rate, sampleWidth: width, channels: channels))
    }
}

/// A wake phrase heard in a remote stream: the phrase (its configured text)
/// and how far into the stream, in seconds of audio since `begin`.
package struct RemoteWake: Sendable, Equatable {
    /// The phrase as configured (the model's `name` in `info`).
    package var phrase: String
    /// Seconds of the stream's audio before the detection.
    package var audioSeconds: Double

    /// Makes a wake.
    package init(phrase: String, audioSeconds: Double) {
        self.phrase = phrase
        self.audioSeconds = audioSeconds
    }
}

/// Why a remote stream could not be listened to: a sentence for the client's
/// `error` event and the log. Never holds audio or words heard.
package struct RemoteWakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, and what to do when the reader can do something.
    package var sentence: String
    /// Makes an error.
    package init(sentence: String) { self.sentence = sentence }
    /// The sentence.
    package var description: String { sentence }
}

/// One connection's own ear and detector over remote audio, built by the
/// daemon (`WyomingWakeService.Options.makeListener`) so the service needs
/// no engine, converter or configuration of its own.
///
/// Used from one thread (the connection's): not `Sendable`. Everything it
/// hears stays in memory and is forgotten with it.
package protocol RemoteWakeListener: AnyObject {
    /// Starts a fresh stream in `format`: a new ear, the judge forgotten,
    /// audio time back to 0.
    func begin(_ format: RemoteAudioFormat) throws(RemoteWakeError)
    /// Converts `payload` (whole frames of `format`) to 16 kHz S16 mono,
    /// hears it, and returns the wakes it completed. A `format` other than
    /// the stream's so far changes the conversion, not the ear.
    func feed(_ payload: [UInt8], format: RemoteAudioFormat) throws(RemoteWakeError) -> [RemoteWake]
    /// Flushes the conversion and the engine at the end of the stream and
    /// returns the last wakes.
    func finish() throws(RemoteWakeError) -> [RemoteWake]
}
