import Dispatch
import EarsCore
import Foundation
import Synchronization

/// The `[capture] on_wake` program: started once per capture, after it ends,
/// with the capture as WAV on its stdin and `EARS_PHRASE`, `EARS_SCORE`,
/// `EARS_SOURCE` (wake or tap) in its environment. Its stdout and stderr are
/// the daemon's (the journal). A hook still running after `timeoutSeconds` is
/// killed. Runs, failures, kills and run time are counted.
///
/// The capture is held in memory only (at most the 60 s hard cap, 1.9 MB) and
/// written to the hook's pipe; nothing touches a file.
package final class ExecHook: CaptureConsumer {
    package let consumerName = "hook"
    /// The program to run.
    package let path: String
    /// Seconds a hook may run before it is killed.
    package let timeoutSeconds: Double

    /// Counts, read by the meter.
    package struct Counts: Sendable, Equatable {
        package var runs = 0
        package var failures = 0
        package var killed = 0
        package var seconds = 0.0
    }

    private struct Pending {
        var info: CaptureInfo?
        var samples: [Int16] = []
    }

    private let pending = Mutex(Pending())
    private let counts = Mutex(Counts())
    private let log: EarsLog
    private let queue = DispatchQueue(label: "ears.hook", attributes: .concurrent)

    /// Makes a hook running `path`, killed after `timeoutSeconds`.
    package init(path: String, timeoutSeconds: Double, log: EarsLog) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
        self.log = log
    }

    /// The hook never drops audio: a capture is bounded by the cap.
    package var droppedChunks: Int { 0 }

    /// Runs, failures, kills and total run time so far.
    package var snapshot: Counts { counts.withLock { $0 } }

    package func captureBegan(_ info: CaptureInfo) {
        pending.withLock { $0 = Pending(info: info) }
    }

    package func captureAudio(_ samples: [Int16]) {
        pending.withLock { $0.samples += samples }
    }

    package func captureEnded(_ reason: CaptureStateMachine.StopReason) {
        let finished = pending.withLock { current -> Pending in
            let done = current
            current = Pending()
            return done
        }
        guard let info = finished.info else { return }
        let wav = WAVEncoder.encode(finished.samples)
        queue.async { [self] in run(info: info, wav: wav) }
    }

    /// Starts the program, feeds it the WAV, waits (killing it at the timeout), counts.
    private func run(info: CaptureInfo, wav: [UInt8]) {
        let outcome = HookProcess.run(path: path,
                                      variables: ["EARS_PHRASE": info.phrase,
                                                  "EARS_SCORE": JSONText.number(info.score, places: 3),
                                                  "EARS_SOURCE": info.source.rawValue],
                                      input: wav, timeoutSeconds: timeoutSeconds, timerQueue: queue)
        counts.withLock {
            $0.runs += 1
            $0.seconds += outcome.seconds
            if outcome.end == .killed { $0.killed += 1 }
            if outcome.failed { $0.failures += 1 }
        }
        switch outcome.end {
        case let .couldNotStart(reason):
            log.error("hook \(path) could not start: \(reason)")
        case .killed:
            log.warning("hook \(path) ran past \(JSONText.number(timeoutSeconds, places: 1)) s and was killed")
        case let .exited(status):
            log.info("hook \(path) exited \(status) after \(JSONText.number(outcome.seconds, places: 2)) s")
        }
    }
}
