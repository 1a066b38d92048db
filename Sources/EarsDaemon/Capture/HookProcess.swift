import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import EarsSystem
import EarsEngines
#endif

/// How one run of a hook program ended.
struct HookOutcome: Sendable, Equatable {
    /// The ways a run ends.
    enum End: Sendable, Equatable {
        /// The program could not be started, with the system's reason.
        case couldNotStart(String)
        /// It exited by itself with this status.
        case exited(Int32)
        /// It ran past its timeout and was killed.
        case killed
    }

    /// How it ended.
    var end: End
    /// Wall seconds from start to end (0 when it never started).
    var seconds: Double

    /// Whether it counts as a failure: not started, killed, or a non-zero status.
    var failed: Bool { end != .exited(0) }
}

/// Runs a hook program (`on_wake`, `on_detect`) to its end: the daemon's
/// environment without systemd's service variables, plus the hook's own
/// `variables`; `input` (if any) written to its stdin; SIGKILL at
/// `timeoutSeconds`. Blocks the calling thread until the program ends, so
/// callers run it on a queue of their own, never on the audio or ear thread.
enum HookProcess {
    /// Variables systemd sets for the service itself (sd_notify(3),
    /// sd_watchdog_enabled(3)); a hook inherits everything else.
    static let serviceManagerVariables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// Runs `path` and waits for it; `timerQueue` runs the kill timer.
    static func run(path: String, variables: [String: String], input: [UInt8]?,
                    timeoutSeconds: Double, timerQueue: DispatchQueue) -> HookOutcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        var environment = ProcessInfo.processInfo.environment
        // The hook is not the service: it must not speak for ears to systemd.
        for name in serviceManagerVariables { environment[name] = nil }
        environment.merge(variables) { $1 }
        process.environment = environment
        let pipe = input.map { _ in Pipe() }
        if let pipe { process.standardInput = pipe } else { process.standardInput = FileHandle.nullDevice }
        let started = ProcessClock.monotonicSeconds()
        do {
            try process.run()
        } catch {
            return HookOutcome(end: .couldNotStart(error.localizedDescription), seconds: 0)
        }
        let killed = Atomic<Bool>(false)
        let pid = process.processIdentifier
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.schedule(deadline: .now() + timeoutSeconds)
        timer.setEventHandler {
            guard process.isRunning else { return }
            killed.store(true, ordering: .relaxed)
            kill(pid, SIGKILL)
        }
        timer.resume()
        if let pipe, let input { write(input, to: pipe) }
        process.waitUntilExit()
        timer.cancel()
        let seconds = ProcessClock.monotonicSeconds() - started
        if killed.load(ordering: .relaxed) { return HookOutcome(end: .killed, seconds: seconds) }
        return HookOutcome(end: .exited(process.terminationStatus), seconds: seconds)
    }

    /// Writes `bytes` to the hook's stdin and closes it. A hook that does
    /// not read its stdin must not wedge us: SIGPIPE is ignored by the
    /// daemon, so a closed pipe just ends the write.
    private static func write(_ bytes: [UInt8], to pipe: Pipe) {
        signal(SIGPIPE, SIG_IGN)
        // A failure (EPIPE: the hook closed its stdin) just ends the write.
        try? SystemCall.writeAll(bytes, to: pipe.fileHandleForWriting.fileDescriptor, path: "the hook's stdin")
        try? pipe.fileHandleForWriting.close()
    }
}
