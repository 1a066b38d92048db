import EarsCore
import Synchronization

/// The one place the audio loop writes what the status socket reads.
///
/// The audio owner publishes a fresh `StatusReport` after each chunk and each
/// phase change; the status server's thread reads a copy. Only content-free
/// figures go in, because `StatusReport` has no field for anything else.
package final class StatusBoard: Sendable {
    private let state: Mutex<StatusReport>
    private let startedAt: Double
    private let clock: @Sendable () -> Double

    /// Makes a board for `engine`/`model`, starting its uptime now.
    package init(engine: String, model: String, clock: @escaping @Sendable () -> Double) {
        state = Mutex(StatusReport(engine: engine, model: model))
        self.clock = clock
        startedAt = clock()
    }

    /// Changes the report under the lock.
    package func update(_ change: (inout StatusReport) -> Void) {
        state.withLock { change(&$0) }
    }

    /// A copy of the report with uptime and "seconds since audio" computed now.
    package func snapshot() -> StatusReport {
        let now = clock()
        return state.withLock { report in
            var copy = report
            copy.uptimeSeconds = now - startedAt
            copy.secondsSinceAudio = report.ear.secondsSinceAudio(now: now)
            return copy
        }
    }
}
