// Sound files as an audio source: for `ears scan` (as fast as the CPU allows)
// and `ears listen --input FILE` (paced, a stand-in microphone).
//
// libsndfile decodes whatever it knows (WAV, FLAC, Ogg/Vorbis, Opus, AIFF, …)
// into floats; we downmix, resample with libsamplerate when the file is not
// 16 kHz, and convert to S16, so the rest of ears sees exactly what a
// microphone would give it. Files are only ever opened for reading: ears
// never writes audio anywhere.
#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import EarsSystem
import EarsCore

/// What a sound file holds, as libsndfile reports it before any conversion.
package struct SoundFileInfo: Sendable, Equatable {
    /// The file's own sample rate, in Hz.
    package let sampleRate: Int
    /// The file's channel count (downmixed to one when read).
    package let channels: Int
    /// Frames (samples per channel) in the file, at the file's rate.
    package let frames: Int64

    /// The file's duration, in seconds.
    package var seconds: Double { Double(frames) / Double(sampleRate) }
}

/// One open `SNDFILE`, read-only; closed when this object goes away.
final class SoundFileHandle {
    /// The file's format as opened.
    let info: SoundFileInfo
    /// The path, for error sentences.
    let path: String
    /// The libsndfile handle; never nil after init.
    private let file: OpaquePointer

    /// Opens `path` for reading (`SFM_READ`; never for writing).
    /// - Throws: `.unreadableFile` with `sf_strerror`'s text when the file is
    ///   missing, unreadable or in a format libsndfile does not know.
    init(path: String) throws(AudioSourceError) {
        self.path = path
        var format = SF_INFO()
        guard let opened = sf_open(path, Int32(SFM_READ), &format) else {
            // With a nil handle sf_strerror reports why the last open failed.
            throw .unreadableFile(path: path, detail: String(cString: sf_strerror(nil)))
        }
        guard format.samplerate > 0, format.channels > 0 else {
            sf_close(opened)
            throw .unreadableFile(path: path, detail: "it reports \(format.samplerate) Hz and \(format.channels) channels")
        }
        file = opened
        info = SoundFileInfo(sampleRate: Int(format.samplerate), channels: Int(format.channels),
                             frames: Int64(format.frames))
    }

    deinit {
        sf_close(file)
    }

    /// Reads up to `frames` frames of interleaved floats (full scale ±1.0)
    /// into `buffer`, which must hold `frames × channels` values.
    /// - Returns: Frames read; 0 only at the end of the file.
    /// - Throws: `.unreadableFile` if libsndfile hits a decoding error.
    func read(frames: Int, into buffer: inout [Float]) throws(AudioSourceError) -> Int {
        precondition(buffer.count >= frames * info.channels)
        let got = buffer.withUnsafeMutableBufferPointer { pointer in
            sf_readf_float(file, pointer.baseAddress, sf_count_t(frames))
        }
        if got < frames && sf_error(file) != 0 {
            throw .unreadableFile(path: path, detail: String(cString: sf_strerror(file)))
        }
        return Int(max(0, got))
    }
}

/// A sound file as an `AudioSource`: 16 kHz mono S16 in chunks of
/// `AudioFormat.chunkSamples`, the last one possibly shorter, then nil.
///
/// Used from one thread. `recoveries` is always 0: a file has no overruns.
package final class SoundFileSource: AudioSource {
    /// The file's path as given.
    package let path: String
    /// Whether `read()` waits so chunks come out at real time, like a microphone.
    package let pacedAtRealTime: Bool

    /// The file name without its directories, for logs and the status socket.
    package var sourceName: String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Always 0; part of `AudioSource`.
    package private(set) var recoveries = 0

    /// The file's own format; nil until `open()` succeeds.
    package var info: SoundFileInfo? { file?.info }

    /// Frames decoded per libsndfile call, at the file's rate (~93 ms at 44.1 kHz).
    private static let blockFrames = 4_096

    private var file: SoundFileHandle?
    /// Nil when the file is already 16 kHz.
    private var converter: SampleRateConverter?
    /// Interleaved decode scratch, `blockFrames × channels` floats.
    private var decoded: [Float] = []
    /// Converted 16 kHz samples not yet handed out.
    private var pending: [Int16] = []
    /// libsndfile has no more frames (and the resampler tail is flushed).
    private var inputDone = false
    /// Samples handed out since `open()`: the next chunk's `startSample`.
    private var samplesDelivered: Int64 = 0
    /// `CLOCK_MONOTONIC` at `open()`, in nanoseconds; the pacing origin.
    private var openedAtNanos: UInt64 = 0

    /// Makes a source for the file at `path`; nothing is opened yet.
    /// - Parameters:
    ///   - path: Any file libsndfile can read.
    ///   - pacedAtRealTime: True for `ears listen --input FILE` (chunk N is
    ///     returned no sooner than (N+1) × 100 ms after `open()`); false for
    ///     `ears scan` (as fast as decoding goes).
    package init(path: String, pacedAtRealTime: Bool) {
        self.path = path
        self.pacedAtRealTime = pacedAtRealTime
    }

    /// Opens the file and prepares the resampler; reopening starts over.
    /// - Throws: `.unreadableFile` with libsndfile's (or libsamplerate's) words.
    package func open() throws(AudioSourceError) {
        close()
        let handle = try SoundFileHandle(path: path)
        if handle.info.sampleRate != AudioFormat.sampleRate {
            do {
                converter = try SampleRateConverter(inputRate: handle.info.sampleRate,
                                                    outputRate: AudioFormat.sampleRate)
            } catch {
                throw .unreadableFile(path: path, detail: error.detail)
            }
        }
        file = handle
        decoded = [Float](repeating: 0, count: Self.blockFrames * handle.info.channels)
        pending = []
        inputDone = false
        samplesDelivered = 0
        openedAtNanos = monotonicNanos()
    }

    /// Returns the next chunk, or nil once the whole file has been returned.
    /// Paced sources sleep until the chunk's last sample is "due".
    /// - Throws: `.unreadableFile` on a decoding error mid-file or if not open.
    package func read() throws(AudioSourceError) -> AudioChunk? {
        guard file != nil else {
            throw .unreadableFile(path: path, detail: "it is not open")
        }
        while pending.count < AudioFormat.chunkSamples && !inputDone {
            try decodeBlock()
        }
        let count = min(AudioFormat.chunkSamples, pending.count)
        if count == 0 { return nil }
        let chunk = AudioChunk(samples: Array(pending[0..<count]), startSample: samplesDelivered)
        pending.removeFirst(count)
        samplesDelivered += Int64(count)
        if pacedAtRealTime {
            let due = openedAtNanos + UInt64(AudioFormat.seconds(ofSamples: samplesDelivered) * 1e9)
            let now = monotonicNanos()
            if due > now { sleepNanos(due - now) }
        }
        return chunk
    }

    /// Decodes one block, downmixes, resamples and appends to `pending`.
    private func decodeBlock() throws(AudioSourceError) {
        guard let file else { return }
        let channels = file.info.channels
        let frames = try file.read(frames: Self.blockFrames, into: &decoded)
        var mono = [Float](repeating: 0, count: frames)
        if channels == 1 {
            for i in 0..<frames { mono[i] = decoded[i] }
        } else {
            let scale = 1 / Float(channels)
            for i in 0..<frames {
                var sum: Float = 0
                for c in 0..<channels { sum += decoded[i * channels + c] }
                mono[i] = sum * scale
            }
        }
        let endOfInput = frames == 0
        if endOfInput { inputDone = true }
        if let converter {
            do {
                mono = try converter.process(mono, endOfInput: endOfInput)
            } catch {
                throw .unreadableFile(path: path, detail: error.detail)
            }
        }
        pending.reserveCapacity(pending.count + mono.count)
        for value in mono { pending.append(PCMConversion.int16(fromUnitFloat: value)) }
    }

    /// Closes the file and resampler; safe to call any number of times.
    package func close() {
        file = nil
        converter = nil
        pending = []
        decoded = []
        inputDone = true
    }

    deinit {
        close()
    }

    /// Decodes a whole file to 16 kHz mono S16, as fast as possible.
    /// - Returns: All samples (about duration × 16,000).
    /// - Throws: `.unreadableFile` as `open()` and `read()` do.
    package static func decodeAll(path: String) throws(AudioSourceError) -> [Int16] {
        let source = SoundFileSource(path: path, pacedAtRealTime: false)
        try source.open()
        defer { source.close() }
        var samples: [Int16] = []
        if let info = source.info, info.frames > 0, info.frames < Int64(Int32.max) {
            samples.reserveCapacity(Int(info.seconds * Double(AudioFormat.sampleRate)) + AudioFormat.chunkSamples)
        }
        while let chunk = try source.read() {
            samples.append(contentsOf: chunk.samples)
        }
        return samples
    }
}

/// `CLOCK_MONOTONIC` now, in nanoseconds (does not jump with NTP or date changes).
private func monotonicNanos() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Sleeps for `nanos` nanoseconds, resuming after signals so the full time passes.
private func sleepNanos(_ nanos: UInt64) {
    SystemCall.sleep(seconds: Double(nanos) / 1e9)
}
