import EarsCore
import Foundation
import Synchronization

/// Whether the ear has an engine to decode with.
enum EngineState: Sendable, Equatable {
    /// Nothing loaded yet, and no load asked for.
    case notLoaded
    /// The loader is building the first engine (or one after a failure).
    case loading
    /// An engine is installed (a reload may be building its successor).
    case ready
    /// The last load failed, for the reason in the sentence.
    case failed(String)
}

/// What one piece of work for the ear's thread is.
enum EarWork: Sendable {
    /// A chunk the audio owner read, from the source's `stream`-th open.
    case chunk(AudioChunk, stream: Int)
    /// The input of `stream` ended (a file): the open utterance comes back final.
    case end(stream: Int)
}

/// A wake the ear's thread found, on its way back to the audio owner, which
/// starts the capture from its own ring.
struct FoundWake: Sendable {
    /// The wake as logged.
    var wake: WakeEvent
    /// Which open of the source the chunk came from.
    var stream: Int
    /// Audio time (samples since that open) just past the chunk that woke.
    var endSample: Int64
}

/// The state the listen threads share (the audio owner, the ear, the
/// loader and whoever calls `reload`). Each field is a lock or an atomic, so
/// no thread ever waits on another for longer than a field's update.
final class ListenShared: Sendable {
    /// The chunks read and not yet decoded, from the audio owner to the ear.
    let queue = ChunkQueue()
    /// The configuration in force (after `ReloadPlan`).
    let config: Mutex<EarsConfig>
    /// Whether the ear has an engine.
    let engine = Mutex<EngineState>(.notLoaded)
    /// Set by `stop()`; every thread's loop checks it.
    let stopping = Atomic<Bool>(false)
    /// `[listen] ear_text`, checked per final piece so a reload can switch it.
    let earText: Atomic<Bool>
    /// Wakes found by the ear, not yet taken by the audio owner.
    let wakes = Mutex<[FoundWake]>([])
    /// New capture limits from a reload, not yet taken by the audio owner.
    let captureLimits = Mutex<CaptureLimits?>(nil)
    /// Set by a reload: the audio owner cuts a retry wait short.
    let nudge = Atomic<Bool>(false)

    init(config: EarsConfig) {
        self.config = Mutex(config)
        earText = Atomic(config.earText)
    }

    /// The configuration in force now (a copy).
    var currentConfig: EarsConfig { config.withLock { $0 } }

    /// The engine's state now.
    var engineState: EngineState { engine.withLock { $0 } }

    /// Whether `stop()` was called.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }
}

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
