/// The `[capture] awake_sound` cue, decoded from its WAV bytes: what is
/// played at the moment of a detection, so a person hears at once that ears
/// is listening.
///
/// Pure: the bytes are read by the caller (at configuration load, so a bad
/// file is a `file:line` error in `check-config`, not a silent failure at the
/// first wake). The header is read by `PCMStreamHeader`; only 16-bit integer
/// PCM is accepted, at its own rate and channel count (the player asks ALSA
/// for exactly that, and the `plug` layer converts for the card).
package struct AwakeSound: Sendable, Equatable {
    /// Samples per second per channel, in Hz.
    package var sampleRate: Int
    /// Interleaved channels.
    package var channels: Int
    /// Interleaved signed 16-bit samples (`frames * channels` of them).
    package var samples: [Int16]

    /// Frames (samples per channel).
    package var frames: Int { samples.count / channels }
    /// Length, in seconds.
    package var seconds: Double { Double(frames) / Double(sampleRate) }

    /// The longest cue accepted, in seconds: a cue longer than this would
    /// still be playing over the person's request.
    package static let maximumSeconds = 10.0
    /// The largest file read, in bytes (10 s of 48 kHz stereo is 1.9 MB;
    /// this leaves room for high rates and channel counts).
    package static let maximumFileBytes = 16 * 1024 * 1024

    /// Why bytes are not a cue ears can play: a clause, no final period
    /// (it is quoted after the file's name).
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to do.
        package var description: String

        /// A problem saying `description`.
        package init(description: String) {
            self.description = description
        }
    }

    /// A cue of `samples` (interleaved) at `sampleRate` Hz with `channels`.
    package init(sampleRate: Int, channels: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// Decodes a whole WAV file's bytes.
    ///
    /// The `data` chunk's own size is honoured (a file is not a stream: a
    /// chunk after the samples, such as `LIST`, must not be played as noise),
    /// and a size running past the end of the file is cut to what is there.
    /// - Throws: `Problem` when the bytes are not RIFF/WAVE, not 16-bit
    ///   PCM, hold no samples, or last longer than `maximumSeconds`.
    package static func decode(_ bytes: [UInt8]) throws(Problem) -> AwakeSound {
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WAVE".utf8) else {
            throw Problem(description: "is not a WAV file (no RIFF/WAVE header); convert it, e.g. `sox IN -b 16 cue.wav`")
        }
        switch PCMStreamHeader.decide(bytes, ended: true) {
        case .needMore:
            throw Problem(description: "ends inside its WAV header; use a complete WAV file")
        case let .refused(sentence):
            throw Problem(description: "is not a WAV ears can play: \(sentence)")
        case let .samples(format, headerBytes):
            let declared = Int(littleEndian32(bytes, at: headerBytes - 4))
            let frameBytes = 2 * format.channels
            let available = min(declared, bytes.count - headerBytes)
            let usable = available - available % frameBytes
            guard usable > 0 else { throw Problem(description: "holds no samples; use a WAV with a short sound in it") }
            let seconds = Double(usable / frameBytes) / Double(format.sampleRate)
            guard seconds <= maximumSeconds else {
                throw Problem(description: "lasts \(JSONText.number(seconds, places: 1)) s; a cue may last at most \(JSONText.number(maximumSeconds, places: 0)) s, cut it (e.g. `sox IN cue.wav trim 0 1`)")
            }
            var samples = [Int16](repeating: 0, count: usable / 2)
            for index in samples.indices {
                let offset = headerBytes + 2 * index
                samples[index] = Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
            }
            return AwakeSound(sampleRate: format.sampleRate, channels: format.channels, samples: samples)
        }
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
