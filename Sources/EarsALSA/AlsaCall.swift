// The one funnel every alsa-lib call in this module goes through.
//
// alsa-lib reports failure as a negative errno value and, separately, may say
// something more specific through its error handler ("Unknown PCM nosuch").
// Funnelling every call through `AlsaCall.run` means each failure arrives in
// Swift as one typed value carrying both, that -EINTR (a signal landing on
// the daemon, e.g. SIGCHLD or the status socket's timers) never surfaces as a
// spurious failure, and that no call site forgets to look at the sign.
//
// Keep every use of the shim's `ears_alsa_*` functions in this file. They are
// `static` C functions with per-thread state, and a debug build emits a
// private copy of them into each Swift file's object that calls them; the
// handler and the reader of its buffer must be the same copy.
#if canImport(Glibc)
import Glibc
#endif
import CALSA

/// A failed alsa-lib call, as the funnel saw it.
///
/// The code is kept raw so callers can decide what it means in their context:
/// -EPIPE from `snd_pcm_readi` is a routine overrun, while -ENOENT from
/// `snd_pcm_open` means the device name is unknown.
struct AlsaError: Error, Sendable, Equatable {
    /// The negative errno-style code alsa-lib returned, e.g. -2 (-ENOENT).
    let code: Int32
    /// The alsa-lib function that failed, e.g. `snd_pcm_open`.
    let call: String
    /// `snd_strerror(code)`, e.g. "No such file or directory".
    let reason: String
    /// What alsa-lib's error handler reported on this thread during the call,
    /// e.g. "Unknown PCM nosuch"; empty when it said nothing.
    let diagnostic: String

    /// One clause for a person, suitable for `AudioSourceError`'s detail:
    /// `snd_pcm_open: No such file or directory; alsa-lib said "Unknown PCM nosuch"`.
    var detail: String {
        var text = "\(call): \(reason)"
        if !diagnostic.isEmpty {
            text += "; alsa-lib said \"\(diagnostic)\""
        }
        return text
    }
}

/// Calls into alsa-lib, checked. Not instantiable; a namespace for the funnel.
enum AlsaCall {
    /// Size of the shim's per-thread diagnostic buffer (see `shim.h`).
    private static let diagnosticCapacity = 512

    /// Installs the shim's error handler exactly once per process, however
    /// many microphones are opened. Swift runs a static initializer once,
    /// atomically, so this is safe from any thread.
    private static let handlerInstalled: Int32 = ears_alsa_capture_errors()

    /// Routes alsa-lib's own diagnostics into the shim's per-thread buffer so
    /// they reach `AlsaError.diagnostic` instead of the daemon's stderr.
    /// Idempotent; call before the first alsa-lib call (`snd_pcm_open`).
    static func captureDiagnostics() {
        _ = handlerInstalled
    }

    /// Runs one alsa-lib call and checks its result.
    ///
    /// - Parameters:
    ///   - call: The alsa-lib function's name, for the error.
    ///   - retryInterrupted: Repeat the call while it returns -EINTR. Pass
    ///     false for calls that release their handle even when interrupted
    ///     (`snd_pcm_close`), where a retry would touch freed memory.
    ///   - body: Makes exactly one alsa-lib call and returns its result
    ///     (`Int32` for most calls, `Int` for `snd_pcm_sframes_t`).
    /// - Returns: The non-negative result (a frame count for reads, else 0 or a flag).
    /// - Throws: `AlsaError` when the result is negative.
    @discardableResult
    static func run<Result: BinaryInteger>(
        _ call: String,
        retryInterrupted: Bool = true,
        _ body: () -> Result
    ) throws(AlsaError) -> Result {
        while true {
            // Forget anything left over from an earlier call (alsa-lib also
            // reports some non-fatal things), so the diagnostic we attach is
            // this call's own.
            _ = takeDiagnostic()
            let result = body()
            if result >= 0 { return result }
            let code = Int32(truncatingIfNeeded: result)
            if code == -EINTR && retryInterrupted { continue }
            throw AlsaError(code: code, call: call, reason: describe(code), diagnostic: takeDiagnostic())
        }
    }

    /// `snd_strerror` for a negative alsa-lib code, as a Swift string.
    static func describe(_ code: Int32) -> String {
        guard let text = snd_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// The shim's last diagnostic on this thread ("" if none); clears it.
    private static func takeDiagnostic() -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: diagnosticCapacity) { buffer in
            guard let base = buffer.baseAddress else { return "" }
            ears_alsa_take_last_error(base, diagnosticCapacity)
            return String(cString: base)
        }
    }
}
