import CSpeexDSP
import EarsCore

/// Noise suppression with libspeexdsp's preprocessor: spectral denoising only
/// (automatic gain control, dereverberation and its voice detector off), on
/// 10 ms frames at 16 kHz.
///
/// This class is the only owner of the preprocessor state and frees it in
/// `deinit`. On the benchmark (docs/benchmark.md) it costs under 0.001 CPU s
/// per audio s. Used from one thread.
package final class SpeexNoiseSuppressor: NoiseSuppressor {
    /// Samples per speexdsp frame: 10 ms at 16 kHz.
    package static let frameSamples = 160
    /// Quietest allowed suppression, in dB (speexdsp's own default is -15).
    package static let mildestDecibels = -1
    /// Strongest allowed suppression, in dB.
    package static let strongestDecibels = -60

    /// How far noise is pushed down, in dB (negative).
    package let suppressionDecibels: Int
    package var label: String { "speexdsp \(suppressionDecibels) dB" }

    private var state: OpaquePointer
    private let chunker = FrameChunker(frameSamples: SpeexNoiseSuppressor.frameSamples)

    /// Makes a denoiser at `suppressionDecibels` (from -60 to -1). Throws
    /// when the level is out of range or speexdsp refuses the state or a setting.
    package init(suppressionDecibels: Int) throws(NoiseSuppressorError) {
        guard (Self.strongestDecibels...Self.mildestDecibels).contains(suppressionDecibels) else {
            throw .badSetting("noise suppression of \(suppressionDecibels) dB is outside \(Self.strongestDecibels) to \(Self.mildestDecibels) dB")
        }
        self.state = try Self.makeState(suppressionDecibels: suppressionDecibels)
        self.suppressionDecibels = suppressionDecibels
    }

    deinit { speex_preprocess_state_destroy(state) }

    package func denoise(_ samples: [Int16]) -> [Int16] {
        chunker.map(samples) { frame in
            frame.withUnsafeMutableBufferPointer { buffer in
                // The return value is the voice detector's verdict, which is off.
                _ = speex_preprocess_run(state, buffer.baseAddress)
            }
        }
    }

    /// speexdsp has no call that forgets the noise estimate, so a fresh state
    /// with the same settings replaces the old one (these settings were
    /// accepted once; should speexdsp refuse them now, the old state stays).
    package func reset() {
        guard let fresh = try? Self.makeState(suppressionDecibels: suppressionDecibels) else { return }
        speex_preprocess_state_destroy(state)
        state = fresh
    }

    /// A preprocessor state with denoising at `suppressionDecibels` and
    /// everything else off; the caller owns (and destroys) it.
    private static func makeState(suppressionDecibels: Int) throws(NoiseSuppressorError) -> OpaquePointer {
        guard let state = speex_preprocess_state_init(Int32(frameSamples), Int32(AudioFormat.sampleRate)) else {
            throw .badSetting("speex_preprocess_state_init refused \(frameSamples)-sample frames at \(AudioFormat.sampleRate) Hz")
        }
        do throws(NoiseSuppressorError) {
            try set(state, SPEEX_PREPROCESS_SET_DENOISE, 1, "denoise")
            try set(state, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, Int32(suppressionDecibels), "noise suppress")
            try set(state, SPEEX_PREPROCESS_SET_AGC, 0, "agc")
            try set(state, SPEEX_PREPROCESS_SET_DEREVERB, 0, "dereverb")
            // The voice detector starts off. Setting it at all makes
            // speexdsp print a warning on stderr, and a fresh state is made
            // at every stream start (after each hole a slow ear leaves), so
            // it is switched off only should a speexdsp ever start with it on.
            if try ctl(state, SPEEX_PREPROCESS_GET_VAD, 0, "vad") != 0 {
                try set(state, SPEEX_PREPROCESS_SET_VAD, 0, "vad")
            }
        } catch {
            speex_preprocess_state_destroy(state)
            throw error
        }
        return state
    }

    /// Sets a preprocessor setting through the funnel.
    private static func set(_ state: OpaquePointer, _ request: Int32, _ value: Int32, _ name: String) throws(NoiseSuppressorError) {
        _ = try ctl(state, request, value, name)
    }

    /// The one funnel for `speex_preprocess_ctl`: a non-zero return is a
    /// typed error; returns the value as the call left it (a GET fills it in).
    private static func ctl(_ state: OpaquePointer, _ request: Int32, _ value: Int32, _ name: String) throws(NoiseSuppressorError) -> Int32 {
        var value = value
        let result = speex_preprocess_ctl(state, request, &value)
        if result != 0 { throw .badSetting("speex_preprocess_ctl(\(name)) returned \(result)") }
        return value
    }
}
