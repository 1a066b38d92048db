// A stream of audio as a source: `ears scan -` (standard input) and
// `ears scan FIFO`, so `arecord -f S16_LE -r 16000 -c 1 | ears scan -` works.
//
// libsndfile needs to seek for most formats, and a pipe cannot, so streams
// are read here: a WAV stream (what arecord writes to a pipe) or raw S16_LE
// 16 kHz mono, decided from the first bytes by `PCMStreamHeader` (pure, in
// EarsCore). Other rates and channel counts are downmixed and resampled like
// files are. Nothing is written anywhere.
#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import EarsSystem

/// Standard input or a FIFO as an `AudioSource`: 16 kHz mono S16 chunks of
/// `AudioFormat.chunkSamples` (the last possibly shorter), then nil at the
/// end of the stream. Read as fast as the writer writes. Used from one thread.
package final class PCMStreamSource: AudioSource {
    /// `-` for standard input, else the FIFO's path as given.
    package let path: String

    /// `stdin` or the FIFO's file name, for logs and error sentences.
    package var sourceName: String { path == Self.standardInput ? "stdin" : path }

    /// Always 0: a stream has no overruns ears could see.
    package private(set) var recoveries = 0

    /// The stream's own format once its header has been read; nil before.
    package private(set) var format: PCMStreamHeader.Format?

    /// The operand that means standard input.
    package static let standardInput = "-"

    /// Bytes asked of each `read(2)` (about 100 ms of 16 kHz stereo).
    private static let readBytes = 6_400

    private var descriptor: Int32 = -1
    /// Bytes read but not yet converted (header prefix, then odd tail bytes).
    private var bytes: [UInt8] = []
    private var converter: SampleRateConverter?
    /// 16 kHz samples not yet handed out.
    private var pending: [Int16] = []
    private var ended = false
    private var samplesDelivered: Int64 = 0

    /// A source for `path`: `-` is standard input, anything else a FIFO (or
    /// other stream) opened for reading at `open()`.
    package init(path: String) {
        self.path = path
    }

    /// Opens the stream and reads its header. Opening a FIFO waits for a writer.
    /// - Throws: `.unreadableFile` with the reason (missing path, a WAV
    ///   stream ears cannot read, an unsupported rate).
    package func open() throws(AudioSourceError) {
        close()
        if path == Self.standardInput {
            descriptor = dup(STDIN_FILENO)
        } else {
            do {
                descriptor = try SystemCall.run("open", path: path) { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
            } catch {
                throw .unreadableFile(path: sourceName, detail: error.reason)
            }
        }
        guard descriptor >= 0 else { throw .unreadableFile(path: sourceName, detail: String(cString: strerror(errno))) }
        ended = false
        samplesDelivered = 0
        var decision = PCMStreamHeader.decide(bytes, ended: false)
        while decision == .needMore {
            try fill()
            decision = PCMStreamHeader.decide(bytes, ended: ended)
        }
        switch decision {
        case .needMore:
            preconditionFailure("PCMStreamHeader decides once the stream has ended")
        case let .refused(sentence):
            close()
            throw .unreadableFile(path: sourceName, detail: sentence)
        case let .samples(found, headerBytes):
            // The header may be longer than what has arrived so far only for
            // chunks the parser skipped; it decided on what it saw, so all of
            // the header is in `bytes`.
            bytes.removeFirst(min(headerBytes, bytes.count))
            format = found
            if found.sampleRate != AudioFormat.sampleRate {
                do {
                    converter = try SampleRateConverter(inputRate: found.sampleRate, outputRate: AudioFormat.sampleRate)
                } catch {
                    close()
                    throw .unreadableFile(path: sourceName, detail: error.detail)
                }
            }
        }
    }

    /// Returns the next chunk, or nil once the stream has ended and everything was handed out.
    package func read() throws(AudioSourceError) -> AudioChunk? {
        guard descriptor >= 0, let format else { throw .unreadableFile(path: sourceName, detail: "it is not open") }
        while pending.count < AudioFormat.chunkSamples && !(ended && bytes.isEmpty) {
            if !ended { try fill() }
            try convert(format)
        }
        let count = min(AudioFormat.chunkSamples, pending.count)
        if count == 0 { return nil }
        let chunk = AudioChunk(samples: Array(pending[0..<count]), startSample: samplesDelivered)
        pending.removeFirst(count)
        samplesDelivered += Int64(count)
        return chunk
    }

    /// Reads once from the stream into `bytes`; sets `ended` at end of stream.
    private func fill() throws(AudioSourceError) {
        let block: [UInt8]
        do {
            block = try SystemCall.read(upTo: Self.readBytes, from: descriptor, path: sourceName)
        } catch {
            throw .unreadableFile(path: sourceName, detail: error.reason)
        }
        if block.isEmpty { ended = true } else { bytes.append(contentsOf: block) }
    }

    /// Turns whole frames of `bytes` into 16 kHz mono samples in `pending`.
    private func convert(_ format: PCMStreamHeader.Format) throws(AudioSourceError) {
        let frameBytes = 2 * format.channels
        let frames = bytes.count / frameBytes
        if ended && frames == 0 { bytes = [] } // a torn last frame is dropped
        if format == .raw {
            pending.reserveCapacity(pending.count + frames)
            for frame in 0..<frames { pending.append(Int16(bitPattern: UInt16(bytes[2 * frame]) | UInt16(bytes[2 * frame + 1]) << 8)) }
        } else {
            var mono = [Float](repeating: 0, count: frames)
            let scale = 1 / (Float(format.channels) * 32_768)
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<format.channels {
                    let at = frame * frameBytes + 2 * channel
                    sum += Float(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
                }
                mono[frame] = sum * scale
            }
            if let converter {
                do {
                    mono = try converter.process(mono, endOfInput: ended && bytes.count - frames * frameBytes < frameBytes)
                } catch {
                    throw .unreadableFile(path: sourceName, detail: error.detail)
                }
            }
            for value in mono { pending.append(PCMConversion.int16(fromUnitFloat: value)) }
        }
        bytes.removeFirst(frames * frameBytes)
        if ended { bytes = [] }
    }

    /// Closes the stream (standard input itself stays open: only ears' duplicate closes).
    package func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
        bytes = []
        pending = []
        converter = nil
        format = nil
    }

    deinit {
        close()
    }
}
