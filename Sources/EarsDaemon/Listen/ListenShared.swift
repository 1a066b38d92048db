import EarsCore
import Foundation
import Synchronization
import EarsConfig

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
