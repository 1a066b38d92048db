// The microphone: one ALSA capture PCM delivering ears' single audio format.
//
// We ask alsa-lib for exactly 16 kHz mono S16_LE so no conversion happens in
// Swift; the `plug` type (what "default" normally is) resamples and downmixes
// for us when the hardware cannot. Everything that can go wrong maps to an
// `AudioSourceError` whose sentence names the device and alsa-lib's words.
#if canImport(Glibc)
import Glibc
#endif
import CALSA
import EarsSystem
import EarsCore

/// An ALSA capture device as an `AudioSource`: 16 kHz mono S16 in 100 ms chunks.
///
/// Used from one thread (the audio owner's). Owns one `snd_pcm_t`, released by
/// `close()` or, failing that, when the object goes away.
package final class AlsaMicrophone: AudioSource {
    /// The ALSA PCM name as given, e.g. `default`, `plughw:1,0`, `dsnoop`.
    package let device: String

    /// `alsa:<device>`, for logs and the status socket.
    package var sourceName: String { "alsa:\(device)" }

    /// Overruns (-EPIPE) and suspends (-ESTRPIPE) recovered from since this
    /// object was made. Not reset by reopening, so a flapping device shows.
    package private(set) var recoveries = 0

    /// The open capture handle; nil while closed.
    private var pcm: OpaquePointer?
    /// Samples delivered since `open()`: the next chunk's `startSample`.
    /// Counts delivered audio only, so audio lost in an overrun is not in it.
    private var samplesDelivered: Int64 = 0
    /// `CLOCK_MONOTONIC` at `open()`, in nanoseconds; the pacing guard's origin.
    private var openedAtNanos: UInt64 = 0

    /// The most a source may run ahead of the wall clock before we hold it back, in seconds.
    private static let allowedLeadSeconds = 0.5
    /// Extra lead tolerated per second of listening (0.1 %), for clock drift:
    /// a sound card's crystal and the system clock disagree by up to a few
    /// hundred ppm, which over days would otherwise add up to a false "runaway".
    private static let allowedDriftPerSecond = 0.001
    /// Wanted period (one chunk), in microseconds.
    private static let periodMicros: UInt32 = 100_000
    /// Wanted ring buffer, in microseconds: five chunks of slack for a busy owner.
    private static let bufferMicros: UInt32 = 500_000

    /// Makes a microphone for the ALSA PCM `device`; nothing is opened yet.
    /// - Parameter device: An ALSA PCM name; `default` follows the user's ALSA setup.
    package init(device: String = "default") {
        self.device = device
    }

    deinit {
        close()
    }

    /// Opens the device for blocking capture at 16 kHz mono S16_LE, a period of
    /// about 100 ms and a buffer of about 500 ms or more. Reopening an open
    /// microphone closes it first and restarts `startSample` at 0.
    ///
    /// - Throws: `.deviceMissing` when the name or card is unknown (-ENOENT,
    ///   -ENODEV, -ENXIO); `.deviceRefused` when it is busy, forbidden, or
    ///   cannot do the format (including a rate other than exactly 16 kHz).
    package func open() throws(AudioSourceError) {
        close()
        AlsaCall.captureDiagnostics()

        var handle: OpaquePointer?
        do {
            try AlsaCall.run("snd_pcm_open") {
                snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, 0)
            }
        } catch {
            switch -error.code {
            case ENOENT, ENODEV, ENXIO:
                throw .deviceMissing(device: device, detail: error.detail)
            default:
                throw .deviceRefused(device: device, detail: error.detail)
            }
        }
        guard let handle else {
            throw .deviceMissing(device: device, detail: "snd_pcm_open returned no handle")
        }
        do {
            try configure(handle)
        } catch {
            _ = try? AlsaCall.run("snd_pcm_close", retryInterrupted: false) { snd_pcm_close(handle) }
            throw error
        }
        pcm = handle
        samplesDelivered = 0
        openedAtNanos = Self.monotonicNanos()
    }

    /// Negotiates the hardware parameters; any refusal is `.deviceRefused`.
    private func configure(_ handle: OpaquePointer) throws(AudioSourceError) {
        var params: OpaquePointer?
        do {
            try AlsaCall.run("snd_pcm_hw_params_malloc") { snd_pcm_hw_params_malloc(&params) }
            defer { snd_pcm_hw_params_free(params) }
            try AlsaCall.run("snd_pcm_hw_params_any") { snd_pcm_hw_params_any(handle, params) }
            try AlsaCall.run("snd_pcm_hw_params_set_access") {
                snd_pcm_hw_params_set_access(handle, params, SND_PCM_ACCESS_RW_INTERLEAVED)
            }
            try AlsaCall.run("snd_pcm_hw_params_set_format") {
                snd_pcm_hw_params_set_format(handle, params, SND_PCM_FORMAT_S16_LE)
            }
            try AlsaCall.run("snd_pcm_hw_params_set_channels") {
                snd_pcm_hw_params_set_channels(handle, params, UInt32(AudioFormat.channels))
            }
            var rate = UInt32(AudioFormat.sampleRate)
            var direction: Int32 = 0
            try AlsaCall.run("snd_pcm_hw_params_set_rate_near") {
                snd_pcm_hw_params_set_rate_near(handle, params, &rate, &direction)
            }
            // A near-miss (say 44.1 kHz from a raw hw: device) would silently
            // feed the detector audio at the wrong speed; refuse instead.
            if rate != UInt32(AudioFormat.sampleRate) {
                throw AudioSourceError.deviceRefused(
                    device: device,
                    detail: "it offers \(rate) Hz, not \(AudioFormat.sampleRate) Hz; use a 'plug' device such as 'plughw:…' or 'default' so alsa-lib resamples")
            }
            var period = Self.periodMicros
            direction = 0
            try AlsaCall.run("snd_pcm_hw_params_set_period_time_near") {
                snd_pcm_hw_params_set_period_time_near(handle, params, &period, &direction)
            }
            var buffer = max(Self.bufferMicros, period * 5)
            direction = 0
            try AlsaCall.run("snd_pcm_hw_params_set_buffer_time_near") {
                snd_pcm_hw_params_set_buffer_time_near(handle, params, &buffer, &direction)
            }
            try AlsaCall.run("snd_pcm_hw_params") { snd_pcm_hw_params(handle, params) }
        } catch let error as AlsaError {
            throw .deviceRefused(device: device, detail: error.detail)
        } catch let error as AudioSourceError {
            throw error
        } catch {
            throw .deviceRefused(device: device, detail: "\(error)")
        }
    }

    /// Blocks until one full chunk of `AudioFormat.chunkSamples` samples is
    /// captured and returns it; never returns nil (a microphone has no end).
    ///
    /// Overruns and suspends are recovered inside and counted in `recoveries`;
    /// the chunk then holds audio from both sides of the gap.
    /// - Throws: `.deviceGone` when the device vanishes or fails for good
    ///   (-ENODEV, -EBADFD, -EIO, …), or when the microphone is not open.
    ///   The handle is closed before throwing; `open()` again to retry.
    package func read() throws(AudioSourceError) -> AudioChunk? {
        guard let pcm else {
            throw .deviceGone(device: device, detail: "the microphone is not open")
        }
        let wanted = AudioFormat.chunkSamples
        // Fresh zeros each time: alsa-lib's `file` plugin reports frames past
        // the end of its input file as read without writing them, and those
        // must come out as silence, not as the previous chunk's audio.
        var samples = [Int16](repeating: 0, count: wanted)
        var filled = 0
        var emptyReads = 0
        while filled < wanted {
            let got: Int
            do {
                got = try AlsaCall.run("snd_pcm_readi") {
                    samples.withUnsafeMutableBufferPointer { buffer in
                        snd_pcm_readi(pcm, buffer.baseAddress! + filled, snd_pcm_uframes_t(wanted - filled))
                    }
                }
            } catch {
                try recover(from: error, pcm: pcm)
                continue
            }
            if got == 0 {
                // A blocking read should never come back empty; if a plugin
                // does it anyway, back off rather than spin on the CPU.
                emptyReads += 1
                if emptyReads > 50 {
                    try fail("snd_pcm_readi keeps returning no audio")
                }
                Self.sleep(seconds: 0.01)
                continue
            }
            emptyReads = 0
            filled += got
        }
        let chunk = AudioChunk(samples: samples, startSample: samplesDelivered)
        samplesDelivered += Int64(wanted)
        holdBackIfAhead()
        return chunk
    }

    /// Recovers from an overrun or suspend, or closes and throws `.deviceGone`.
    private func recover(from error: AlsaError, pcm: OpaquePointer) throws(AudioSourceError) {
        switch -error.code {
        case EPIPE:
            // Overrun: the owner fell behind and the ring wrapped. Audio is
            // lost either way; prepare restarts capture from now.
            do {
                try AlsaCall.run("snd_pcm_prepare") { snd_pcm_prepare(pcm) }
            } catch {
                try fail(error.detail)
            }
            recoveries += 1
        case ESTRPIPE:
            // Suspended (system sleep). Resume says -EAGAIN until the driver
            // is back; drivers that cannot resume need a fresh prepare.
            var resumed = false
            while true {
                do {
                    try AlsaCall.run("snd_pcm_resume") { snd_pcm_resume(pcm) }
                    resumed = true
                    break
                } catch where error.code == -EAGAIN {
                    Self.sleep(seconds: 0.1)
                } catch {
                    break
                }
            }
            if !resumed {
                do {
                    try AlsaCall.run("snd_pcm_prepare") { snd_pcm_prepare(pcm) }
                } catch {
                    try fail(error.detail)
                }
            }
            recoveries += 1
        case EAGAIN:
            // Only non-blocking handles say this; ours is blocking, so just
            // avoid a spin if a plugin says it anyway.
            Self.sleep(seconds: 0.01)
        default:
            // -ENODEV (unplugged), -EBADFD, -EIO and anything unexpected.
            try fail(error.detail)
        }
    }

    /// Closes the handle and throws `.deviceGone` with `detail`.
    private func fail(_ detail: String) throws(AudioSourceError) -> Never {
        close()
        throw .deviceGone(device: device, detail: detail)
    }

    /// Keeps a device that delivers faster than real time from becoming a busy loop.
    ///
    /// A real microphone is paced by its hardware clock, but alsa-lib's `file`
    /// plugin over a regular file or a `null` slave returns as fast as it is
    /// asked (and keeps returning silence past the end of the file). Left
    /// alone, the audio owner would spin a core, and everything timed in
    /// audio samples (the ring, the detector's windows) would race ahead of the
    /// wall clock. So once the audio delivered since open is more than 0.5 s
    /// (plus a drift allowance) ahead of `CLOCK_MONOTONIC`, we sleep off the
    /// excess: a runaway source then settles at real time, 0.5 s ahead, while a
    /// genuine card never comes near the limit and is never slowed.
    private func holdBackIfAhead() {
        let elapsed = Double(Self.monotonicNanos() &- openedAtNanos) / 1e9
        let audio = AudioFormat.seconds(ofSamples: samplesDelivered)
        let allowed = Self.allowedLeadSeconds + elapsed * Self.allowedDriftPerSecond
        let excess = (audio - elapsed) - allowed
        if excess > 0 {
            Self.sleep(seconds: excess)
        }
    }

    /// Closes the device if open; safe to call any number of times.
    package func close() {
        guard let handle = pcm else { return }
        pcm = nil
        // snd_pcm_close frees the handle even when it reports an error, so
        // there is nothing to retry and nothing more to do with a failure.
        _ = try? AlsaCall.run("snd_pcm_close", retryInterrupted: false) { snd_pcm_close(handle) }
    }

    /// `CLOCK_MONOTONIC` now, in nanoseconds (does not jump with NTP or date changes).
    private static func monotonicNanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Sleeps for `seconds`, resuming after signals so the full time passes.
    private static func sleep(seconds: Double) {
        SystemCall.sleep(seconds: seconds)
    }
}
