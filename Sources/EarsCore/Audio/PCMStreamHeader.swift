/// What a stream of audio on standard input or a FIFO holds, decided from its
/// first bytes: a WAV stream (what `arecord` writes to a pipe) or raw samples.
///
/// Pure: it only looks at the bytes it is given, so it is unit-tested and
/// fuzzed without I/O (`fuzz/PCMStreamHeaderFuzz.swift`). The reader
/// (`PCMStreamSource` in EarsFiles) feeds it the stream's prefix until it
/// decides, then skips `headerBytes` and reads samples in `format`.
///
/// Streams cannot seek, so a WAV stream's sizes are not trusted: `arecord`
/// writes a placeholder data size, and the samples simply run to the end of
/// the stream. Only 16-bit integer PCM is accepted (what `arecord -f S16_LE`
/// and most tools write); anything else is refused with a sentence naming
/// the conversion to make.
package enum PCMStreamHeader {
    /// The sample layout of the stream after its header.
    package struct Format: Sendable, Equatable {
        /// Samples per second per channel, in Hz.
        package var sampleRate: Int
        /// Interleaved channels (downmixed to one when read).
        package var channels: Int

        /// Makes a format of signed 16-bit little-endian samples.
        package init(sampleRate: Int, channels: Int) {
            self.sampleRate = sampleRate
            self.channels = channels
        }

        /// What a raw stream is taken to be: ears' own format, S16_LE 16 kHz mono.
        package static let raw = Format(sampleRate: AudioFormat.sampleRate, channels: AudioFormat.channels)
    }

    /// The parser's answer for a prefix of the stream.
    package enum Decision: Sendable, Equatable {
        /// Not enough bytes yet to decide; feed a longer prefix (or say the stream ended).
        case needMore
        /// Samples in `format` start `headerBytes` bytes into the stream.
        case samples(Format, headerBytes: Int)
        /// The stream is a WAV file ears cannot read, with a clause saying why and what to do (no final period: it is quoted inside a sentence).
        case refused(String)
    }

    /// Longest WAV header ears reads before the `data` chunk (chunks such as
    /// `LIST` come first in some writers); past it the stream is refused.
    package static let maximumHeaderBytes = 64 * 1024

    /// Decides what `prefix` (the first bytes of the stream) holds.
    ///
    /// - Parameters:
    ///   - prefix: the stream's first bytes, as many as have arrived.
    ///   - ended: true when the stream has no more bytes than `prefix`.
    /// - Returns: `.needMore` only while `ended` is false; a stream that does
    ///   not start with `RIFF` is raw S16_LE 16 kHz mono from byte 0.
    package static func decide(_ prefix: [UInt8], ended: Bool) -> Decision {
        let riff: [UInt8] = Array("RIFF".utf8)
        if prefix.count < 4 {
            if ended || !riff.starts(with: prefix) { return .samples(.raw, headerBytes: 0) }
            return .needMore
        }
        guard Array(prefix[0..<4]) == riff else { return .samples(.raw, headerBytes: 0) }
        if prefix.count < 12 { return ended ? .refused(truncated) : .needMore }
        guard Array(prefix[8..<12]) == Array("WAVE".utf8) else {
            return .refused("The stream starts with RIFF but is not WAVE audio; send a WAV stream or raw S16_LE 16 kHz mono samples")
        }
        var offset = 12
        var format: Format?
        while true {
            guard offset + 8 <= prefix.count else {
                if offset + 8 > maximumHeaderBytes { return .refused(tooLong) }
                return ended ? .refused(truncated) : .needMore
            }
            let id = String(decoding: prefix[offset..<offset + 4], as: UTF8.self)
            let size = Int(littleEndian32(prefix, at: offset + 4))
            let body = offset + 8
            if id == "data" {
                guard let format else {
                    return .refused("The WAV stream has its samples before its format (no fmt chunk); send a well-formed WAV stream")
                }
                return .samples(format, headerBytes: body)
            }
            // Chunks are padded to an even size.
            let next = body + size + (size & 1)
            if next > maximumHeaderBytes { return .refused(tooLong) }
            if id == "fmt " {
                guard size >= 16 else { return .refused("The WAV stream's fmt chunk is \(size) bytes, shorter than the 16 every WAV has") }
                guard body + 16 <= prefix.count else { return ended ? .refused(truncated) : .needMore }
                switch parseFormat(prefix, at: body) {
                case let .success(parsed): format = parsed
                case let .failure(refusal): return .refused(refusal.sentence)
                }
            }
            guard next <= prefix.count else { return ended ? .refused(truncated) : .needMore }
            offset = next
        }
    }

    /// A `fmt ` chunk that ears cannot read, with its sentence.
    private struct Refusal: Error {
        let sentence: String
    }

    /// Reads the 16 bytes every `fmt ` chunk starts with.
    private static func parseFormat(_ bytes: [UInt8], at offset: Int) -> Result<Format, Refusal> {
        let formatTag = littleEndian16(bytes, at: offset)
        let channels = Int(littleEndian16(bytes, at: offset + 2))
        let sampleRate = Int(littleEndian32(bytes, at: offset + 4))
        let bitsPerSample = littleEndian16(bytes, at: offset + 14)
        // 1 is PCM; 0xFFFE (WAVE_FORMAT_EXTENSIBLE) is what some tools write for PCM too.
        guard formatTag == 1 || formatTag == 0xFFFE, bitsPerSample == 16 else {
            return .failure(Refusal(sentence: "The WAV stream is not 16-bit integer PCM (format \(formatTag), \(bitsPerSample) bits); convert it, e.g. `sox IN -t wav -e signed -b 16 - | ears scan -`, or record with `arecord -f S16_LE`"))
        }
        guard (1...maximumChannels).contains(channels) else {
            return .failure(Refusal(sentence: "The WAV stream says it has \(channels) channels; ears reads 1 to \(maximumChannels)"))
        }
        guard (minimumSampleRate...maximumSampleRate).contains(sampleRate) else {
            return .failure(Refusal(sentence: "The WAV stream says \(sampleRate) Hz; ears reads \(minimumSampleRate) to \(maximumSampleRate) Hz (16000 needs no resampling)"))
        }
        return .success(Format(sampleRate: sampleRate, channels: channels))
    }

    /// Most channels a stream may have (downmixed to one).
    package static let maximumChannels = 32
    /// Lowest sample rate accepted, in Hz (below it speech is not intelligible to the engines).
    package static let minimumSampleRate = 8_000
    /// Highest sample rate accepted, in Hz.
    package static let maximumSampleRate = 384_000

    private static let truncated = "The WAV stream ended inside its header; send a complete WAV stream or raw S16_LE 16 kHz mono samples"
    private static let tooLong = "The WAV stream's header runs past \(maximumHeaderBytes / 1024) KiB without reaching its samples; send a plain WAV stream or raw S16_LE 16 kHz mono samples"

    private static func littleEndian16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
