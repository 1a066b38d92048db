import Dispatch
import EarsCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `[capture] on_wake` program: started once per capture, after it ends,
/// with the capture as WAV on its stdin and `EARS_PHRASE`, `EARS_SCORE`,
/// `EARS_SOURCE` (wake or tap) in its environment. Its stdout and stderr are
/// the daemon's (the journal). A hook still running after `timeoutSeconds` is
/// killed. Runs, failures, kills and run time are counted.
///
/// The capture is held in memory only (at most the 60 s hard cap, 1.9 MB) and
/// written to the hook's pipe; nothing touches a file.
public final class ExecHook: CaptureConsumer {
    public let consumerName = "hook"
    /// Variables systemd sets for the service itself (sd_notify(3),
    /// sd_watchdog_enabled(3)); a hook inherits everything else.
    static let serviceManagerVariables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// The program to run.
    public let path: String
    /// Seconds a hook may run before it is killed.
    public let timeoutSeconds: Double

    /// Counts, read by the meter.
    public struct Counts: Sendable, Equatable {
        public var runs = 0
        public var failures = 0
        public var killed = 0
        public var seconds = 0.0
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
    public init(path: String, timeoutSeconds: Double, log: EarsLog) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
        self.log = log
    }

    /// The hook never drops audio: a capture is bounded by the cap.
    public var droppedChunks: Int { 0 }

    /// Runs, failures, kills and total run time so far.
    public var snapshot: Counts { counts.withLock { $0 } }

    public func captureBegan(_ info: CaptureInfo) {
        pending.withLock { $0 = Pending(info: info) }
    }

    public func captureAudio(_ samples: [Int16]) {
        pending.withLock { $0.samples += samples }
    }

    public func captureEnded(_ reason: CaptureStateMachine.StopReason) {
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        var environment = ProcessInfo.processInfo.environment
        // The hook is not the service: it must not speak for ears to systemd.
        for name in ExecHook.serviceManagerVariables { environment[name] = nil }
        environment["EARS_PHRASE"] = info.phrase
        environment["EARS_SCORE"] = JSONText.number(info.score, places: 3)
        environment["EARS_SOURCE"] = info.source.rawValue
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        let started = ProcessClock.monotonicSeconds()
        do {
            try process.run()
        } catch {
            log.error("hook \(path) could not start: \(error.localizedDescription)")
            counts.withLock { $0.runs += 1; $0.failures += 1 }
            return
        }
        let killed = Atomic<Bool>(false)
        let pid = process.processIdentifier
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + timeoutSeconds)
        timer.setEventHandler {
            guard process.isRunning else { return }
            killed.store(true, ordering: .relaxed)
            kill(pid, SIGKILL)
        }
        timer.resume()
        // A hook that does not read its stdin must not wedge us: SIGPIPE is
        // ignored by the daemon, so a closed pipe just ends the write.
        signal(SIGPIPE, SIG_IGN)
        wav.withUnsafeBytes { bytes in
            var offset = 0
            let fd = input.fileHandleForWriting.fileDescriptor
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        timer.cancel()
        let seconds = ProcessClock.monotonicSeconds() - started
        let status = process.terminationStatus
        let wasKilled = killed.load(ordering: .relaxed)
        counts.withLock {
            $0.runs += 1
            $0.seconds += seconds
            if wasKilled { $0.killed += 1 }
            if wasKilled || status != 0 { $0.failures += 1 }
        }
        if wasKilled {
            log.warning("hook \(path) ran past \(JSONText.number(timeoutSeconds, places: 1)) s and was killed")
        } else {
            log.info("hook \(path) exited \(status) after \(JSONText.number(seconds, places: 2)) s")
        }
    }
}
