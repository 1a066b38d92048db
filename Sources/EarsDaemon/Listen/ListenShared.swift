import EarsCore
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
