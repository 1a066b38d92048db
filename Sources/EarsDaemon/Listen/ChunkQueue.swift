import EarsCore
import Foundation
import Synchronization

/// The bounded queue between the audio owner and the ear's thread: a
/// `DecodeBacklog` (the drop policy: oldest undecoded out, counted) behind a
/// condition variable.
///
/// `push` never waits for the ear: it only takes the lock for the time of an
/// append, so the microphone is never held up by a slow decoder.
final class ChunkQueue: @unchecked Sendable {
    // @unchecked: `backlog` and `reportedDrops` are touched only under `condition`.
    private let condition = NSCondition()
    private var backlog: DecodeBacklog<EarWork>
    /// Drops already handed to the ear by `pop`.
    private var reportedDrops = 0

    /// A queue holding at most `capacity` pieces of work.
    init(capacity: Int = DecodeBacklog<EarWork>.defaultCapacityChunks) {
        backlog = DecodeBacklog(capacity: capacity)
    }

    /// Adds `work` for the ear (dropping the oldest undecoded chunk when full).
    func push(_ work: EarWork) {
        condition.lock()
        backlog.push(work)
        condition.signal()
        condition.unlock()
    }

    /// The oldest waiting work and how many chunks were dropped since the
    /// last pop; waits up to `timeoutSeconds` for some, nil if none came.
    func pop(timeoutSeconds: Double) -> (work: EarWork, droppedSince: Int)? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        while backlog.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        guard let work = backlog.pop() else { return nil }
        let drops = backlog.dropped - reportedDrops
        reportedDrops = backlog.dropped
        return (work, drops)
    }

    /// Wakes a waiting `pop` (at stop).
    func wakeWaiter() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
