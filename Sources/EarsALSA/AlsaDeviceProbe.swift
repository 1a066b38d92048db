import Glibc
import CALSA
import EarsCore

/// Whether an ALSA capture device would open for `ears listen`, asked
/// without keeping it: what `ears check-config` says about `--device` or
/// `[audio] device` before the daemon depends on it.
package enum AlsaDeviceProbe {
    /// What the probe found.
    package enum Finding: Equatable, Sendable {
        /// It opened at 16 kHz mono S16_LE and was closed again.
        case opens
        /// Another program holds it (`ears listen` itself, perhaps): it
        /// exists, but its format could not be checked now.
        case busy
        /// It does not open, with the sentence `ears listen` would show as `closed_why`.
        case fails(String)
    }

    /// Opens `device` for capture without blocking (so a device in use
    /// answers at once), then as `ears listen` would (format, rate,
    /// period), and closes it. Nothing is read.
    package static func probe(_ device: String) -> Finding {
        AlsaCall.captureDiagnostics()
        var handle: OpaquePointer?
        do {
            try AlsaCall.run("snd_pcm_open") { snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) }
        } catch {
            if -error.code == EBUSY { return .busy }
            // Any other refusal: the open below says it as `ears listen` would.
        }
        if let handle { _ = try? AlsaCall.run("snd_pcm_close", retryInterrupted: false) { snd_pcm_close(handle) } }
        let microphone = AlsaMicrophone(device: device)
        do throws(AudioSourceError) {
            try microphone.open()
        } catch {
            return .fails(error.sentence)
        }
        microphone.close()
        return .opens
    }
}
