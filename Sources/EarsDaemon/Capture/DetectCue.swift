import Dispatch
import EarsALSA
import EarsCore
import Foundation
import Synchronization
import EarsPhonetics
import EarsEngines

/// The immediate cue at a detection: the `[capture] on_detect` program and
/// the `[capture] awake_sound`, both started the moment the ear judges a
/// wake, before the capture has even begun (`on_wake` waits for its end,
/// up to `max_seconds` later).
///
/// `detected(_:)` is called on the ear's thread and returns at once: the
/// hook and the sound each run on a queue of their own, at most one of each
/// at a time. A detection that comes while the last one's hook still runs
/// does not start a second (said in a log line); one that comes while the
/// sound still plays is not played over it. The hook's environment carries
/// the phrase, score and time only — never audio or transcript text.
final class DetectCue: Sendable {
    /// The `on_detect` program, if any.
    let hookPath: String?
    /// Seconds the hook may run before it is killed (`hook_timeout_seconds`).
    let timeoutSeconds: Double
    /// The `awake_sound`, read and decoded at start, if any.
    let sound: AwakeSound?
    /// The ALSA playback device the sound plays on.
    let soundDevice: String

    private let log: EarsLog
    private let hookBusy = Atomic<Bool>(false)
    private let soundBusy = Atomic<Bool>(false)
    /// The last playback failure said in the log, so a device that stays
    /// missing is said once, not at every wake.
    private let lastSoundFailure = Mutex<String?>(nil)
    private let hookQueue = DispatchQueue(label: "ears.on-detect")
    private let hookTimerQueue = DispatchQueue(label: "ears.on-detect-timer")
    private let soundQueue = DispatchQueue(label: "ears.awake-sound")

    /// A cue running `hookPath` (killed after `timeoutSeconds`) and playing
    /// `sound` on `soundDevice`; either may be absent.
    init(hookPath: String?, timeoutSeconds: Double, sound: AwakeSound?, soundDevice: String, log: EarsLog) {
        self.hookPath = hookPath
        self.timeoutSeconds = timeoutSeconds
        self.sound = sound
        self.soundDevice = soundDevice
        self.log = log
    }

    /// Whether there is anything to do at a detection.
    var isActive: Bool { hookPath != nil || sound != nil }

    /// A wake was judged: start the hook and the sound, without waiting for either.
    func detected(_ wake: WakeEvent, at date: Date = Date()) {
        if let sound { play(sound) }
        if let hookPath { startHook(hookPath, wake: wake, at: date) }
    }

    private func startHook(_ path: String, wake: WakeEvent, at date: Date) {
        guard !hookBusy.exchange(true, ordering: .acquiringAndReleasing) else {
            log.warning("on_detect \(path) is still running from the last detection; not started again for this one")
            return
        }
        let variables = [
            "EARS_PHRASE": wake.phrase,
            "EARS_SCORE": JSONText.number(wake.score, places: 3),
            "EARS_DETECTED_AT": date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
        ]
        hookQueue.async { [self] in
            defer { hookBusy.store(false, ordering: .releasing) }
            let outcome = HookProcess.run(path: path, variables: variables, input: nil,
                                          timeoutSeconds: timeoutSeconds, timerQueue: hookTimerQueue)
            switch outcome.end {
            case let .couldNotStart(reason):
                log.error("on_detect \(path) could not start: \(reason)")
            case .killed:
                log.warning("on_detect \(path) ran past \(JSONText.number(timeoutSeconds, places: 1)) s and was killed")
            case let .exited(status):
                log.info("on_detect \(path) exited \(status) after \(JSONText.number(outcome.seconds, places: 2)) s")
            }
        }
    }

    private func play(_ sound: AwakeSound) {
        guard !soundBusy.exchange(true, ordering: .acquiringAndReleasing) else {
            log.debug("awake sound still playing; not played again for this detection")
            return
        }
        soundQueue.async { [self] in
            defer { soundBusy.store(false, ordering: .releasing) }
            let started = ProcessClock.monotonicSeconds()
            do throws(AlsaPlaybackError) {
                try AlsaPlayer.play(sound, device: soundDevice)
                lastSoundFailure.withLock { $0 = nil }
                log.debug("awake sound played on \(soundDevice) (\(JSONText.number(sound.seconds, places: 2)) s of sound in \(JSONText.number(ProcessClock.monotonicSeconds() - started, places: 2)) s)")
            } catch {
                let repeated = lastSoundFailure.withLock { last in
                    defer { last = error.description }
                    return last == error.description
                }
                if !repeated { log.warning(error.description) }
            }
        }
    }
}
