// Streaming mono resampler over libsamplerate, for files not recorded at 16 kHz.
//
// Files are decoded in blocks, so the converter must keep its filter state
// between blocks (src_process, not the one-shot src_simple) and must be told
// when the input ends: a sinc filter holds back a few milliseconds of output
// until it has seen what follows, and without `end_of_input` that tail of the
// recording would be silently dropped.
import CSampleRate
import EarsCore

/// A failure inside libsamplerate, with `src_strerror`'s text.
struct SampleRateError: Error, Sendable {
    /// One clause for a person, e.g. `src_process: SRC ratio outside [1/256, 256] range.`
    let detail: String
}

/// Converts one mono float stream from one fixed rate to another. Owns its
/// `SRC_STATE` and frees it when it goes away. Used from one thread.
final class SampleRateConverter {
    /// Output rate ÷ input rate (e.g. 16000 / 44100 ≈ 0.363).
    let ratio: Double

    /// The libsamplerate state; never nil after init.
    private let state: OpaquePointer
    /// Scratch for output frames, grown as needed and reused between calls.
    private var output: [Float] = []
    /// Set once the tail has been flushed; further input is a programming error.
    private var finished = false

    /// Makes a converter from `inputRate` Hz to `outputRate` Hz, one channel.
    ///
    /// SRC_SINC_MEDIUM_QUALITY: its 90 % passband keeps everything up to
    /// 7.2 kHz, past the top of PocketSphinx's 16 kHz filter bank (6.855 kHz),
    /// which SRC_SINC_FASTEST's 80 % (6.4 kHz) would shave off. It still runs
    /// ~100× real time on one core for 44.1 kHz stereo, far ahead of the decoder.
    /// - Throws: `SampleRateError` if libsamplerate cannot make the state or
    ///   the ratio is outside what it supports (1/256…256).
    init(inputRate: Int, outputRate: Int) throws(SampleRateError) {
        ratio = Double(outputRate) / Double(inputRate)
        guard src_is_valid_ratio(ratio) != 0 else {
            throw SampleRateError(detail: "cannot resample \(inputRate) Hz to \(outputRate) Hz (ratio out of range)")
        }
        var error: Int32 = 0
        guard let made = src_new(Int32(SRC_SINC_MEDIUM_QUALITY), 1, &error) else {
            throw SampleRateError(detail: "src_new: \(Self.describe(error))")
        }
        state = made
    }

    deinit {
        src_delete(state)
    }

    /// Feeds `input` (mono samples at the input rate, any scale) and returns
    /// the output it makes possible. With `endOfInput`, also returns the tail
    /// held back in the filter; the converter is then finished.
    ///
    /// Over a whole stream the output length is within a few samples of
    /// `input length × ratio`.
    func process(_ input: [Float], endOfInput: Bool) throws(SampleRateError) -> [Float] {
        precondition(!finished, "SampleRateConverter used after end of input")
        var produced: [Float] = []
        produced.reserveCapacity(Int(Double(input.count) * ratio) + 64)
        // Room for one call's worth of output, plus slack for the filter delay.
        let room = max(1024, Int(Double(input.count) * ratio) + 256)
        if output.count < room {
            output = [Float](repeating: 0, count: room)
        }
        // libsamplerate 0.1.x rejects a null input pointer even for zero
        // frames, and an empty Swift array may have none; hand it a dummy.
        let source = input.isEmpty ? [Float(0)] : input
        var consumed = 0
        while true {
            var data = SRC_DATA()
            var status: Int32 = 0
            var used = 0
            var made = 0
            source.withUnsafeBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    data.data_in = inBuffer.baseAddress.map { $0 + consumed }
                    data.input_frames = input.count - consumed
                    data.data_out = outBuffer.baseAddress
                    data.output_frames = outBuffer.count
                    data.src_ratio = ratio
                    data.end_of_input = endOfInput ? 1 : 0
                    status = src_process(state, &data)
                    used = data.input_frames_used
                    made = data.output_frames_gen
                }
            }
            if status != 0 {
                throw SampleRateError(detail: "src_process: \(Self.describe(status))")
            }
            consumed += used
            produced.append(contentsOf: output[0..<made])
            // More input to take, or (at the end) the tail is still draining.
            let inputLeft = consumed < input.count
            if inputLeft && (used > 0 || made > 0) { continue }
            if endOfInput && made > 0 { continue }
            break
        }
        if endOfInput { finished = true }
        return produced
    }

    /// `src_strerror` as a Swift string.
    private static func describe(_ code: Int32) -> String {
        guard let text = src_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
