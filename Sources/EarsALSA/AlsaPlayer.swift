// The awake cue's way out: one ALSA playback PCM, opened per cue and closed
// when the sound has drained.
//
// Why alsa-lib here rather than handing the WAV to `aplay`: ears already
// links alsa-lib and funnels every call through `AlsaCall`, so a playback
// failure arrives as the same typed error with alsa-lib's own words; no
// process is started per wake (none to find on PATH, none for the unit's
// system-call filter to treat differently, nothing to kill if it hangs);
// and the device name means exactly what `[audio] device` means for capture.
#if canImport(Glibc)
import Glibc
#endif
import CALSA
import EarsCore

/// A cue that could not be played, said in one sentence naming the device.
package struct AlsaPlaybackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed and what to do.
    package let description: String
}

/// Plays short sounds on an ALSA playback device. Each `play` opens the
/// device, writes the sound, waits for it to drain and closes it, so the
/// device is held only while a cue sounds (another program may use it in
/// between). Blocking: call it off the audio and ear threads.
package enum AlsaPlayer {
    /// Latency asked of alsa-lib, in microseconds: a cue needs no tight timing,
    /// and a larger buffer forgives a busy machine.
    private static let latencyMicros: UInt32 = 100_000

    /// Plays `sound` on the ALSA PCM `device` (e.g. `default`) at its own rate
    /// and channel count (alsa-lib's `plug` layer converts when the card
    /// cannot), and returns when it has drained.
    ///
    /// - Throws: `AlsaPlaybackError` when the device cannot be opened, set up
    ///   or written to.
    package static func play(_ sound: AwakeSound, device: String) throws(AlsaPlaybackError) {
        AlsaCall.captureDiagnostics()
        var handle: OpaquePointer?
        do {
            try AlsaCall.run("snd_pcm_open") { snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0) }
        } catch {
            throw AlsaPlaybackError(description: "The awake sound cannot open the ALSA playback device \(device) (\(error.detail)); set [capture] awake_sound_device to a playback device (aplay -L lists them)")
        }
        guard let pcm = handle else {
            throw AlsaPlaybackError(description: "The awake sound cannot open the ALSA playback device \(device): snd_pcm_open returned no handle")
        }
        // snd_pcm_close frees the handle even when it reports an error.
        defer { _ = try? AlsaCall.run("snd_pcm_close", retryInterrupted: false) { snd_pcm_close(pcm) } }
        do {
            try AlsaCall.run("snd_pcm_set_params") {
                snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                   UInt32(sound.channels), UInt32(sound.sampleRate), 1, latencyMicros)
            }
            try write(sound, to: pcm)
            try AlsaCall.run("snd_pcm_drain") { snd_pcm_drain(pcm) }
        } catch {
            throw AlsaPlaybackError(description: "The awake sound could not play on the ALSA device \(device) (\(error.detail)); check that it is a playback device that takes \(sound.sampleRate) Hz, \(sound.channels) channel(s), e.g. a plug device such as default")
        }
    }

    /// Writes every frame, recovering from an underrun (-EPIPE) or a suspend
    /// (-ESTRPIPE) with `snd_pcm_recover` and going on.
    private static func write(_ sound: AwakeSound, to pcm: OpaquePointer) throws(AlsaError) {
        let channels = sound.channels
        var frame = 0
        while frame < sound.frames {
            let written: Int
            do {
                written = try AlsaCall.run("snd_pcm_writei") {
                    sound.samples.withUnsafeBufferPointer { buffer in
                        snd_pcm_writei(pcm, buffer.baseAddress! + frame * channels, snd_pcm_uframes_t(sound.frames - frame))
                    }
                }
            } catch where error.code == -EPIPE || error.code == -ESTRPIPE {
                try AlsaCall.run("snd_pcm_recover") { snd_pcm_recover(pcm, error.code, 1) }
                continue
            }
            frame += written
        }
    }
}
