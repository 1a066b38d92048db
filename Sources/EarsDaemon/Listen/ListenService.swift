import EarsCore
import Synchronization
import EarsPhonetics
import EarsConfig
import EarsEngines

/// The loop behind `ears listen`: the audio owner, the ear and the loader,
/// each on its own thread, so the microphone never waits for the decoder.
///
/// ```
///  source ─▶ AudioOwner (ears-audio): ring 3.5 s, capture, gaps ─▶ ChunkQueue (1.2 s, drops oldest)
///                 ▲  wakes (absolute offsets)                          │
///                 └──────────────── EarWorker (ears-ear): Ear + WakeJudge ◀┘
///  reload ─▶ ListenReloader ─▶ EngineLoader (ears-loader) ─▶ swapped in between chunks
/// ```
///
/// `run()` blocks the calling thread (it becomes the audio owner) until
/// `stop()`. `reload(_:)` hands it a new configuration; it returns at once,
/// and a new engine, if one is needed, is built while the old one decodes.
package final class ListenService: Sendable {
    private let shared: ListenShared
    private let owner: AudioOwner
    private let worker: EarWorker
    private let loader: EngineLoader
    private let reloader: ListenReloader
    private let delays: DebugDelays
    private let log: EarsLog
    private let started = Atomic<Bool>(false)
    /// The phrases in force, shared with whoever shows them (the listen socket's `info`).
    package let phraseList: PhraseList

    /// Makes the service. `onWake` is called on the ear's thread for each
    /// wake; captures go to `consumers`; `taps` carries manual taps in.
    /// `earText` receives final pieces only while `[listen] ear_text` is on
    /// (checked per piece, so a reload can switch it); `phraseList`, when
    /// given, is the shared list the service keeps up to date on reload.
    package init(config: EarsConfig, source: any AudioSource, board: StatusBoard, log: EarsLog,
                consumers: [any CaptureConsumer] = [], taps: TapRequests = TapRequests(),
                earText: (@Sendable (String) -> Void)? = nil, phraseList: PhraseList? = nil,
                onWake: @escaping @Sendable (WakeEvent) -> Void) {
        let list = phraseList ?? PhraseList(config.phrases.map(\.text))
        let shared = ListenShared(config: config)
        let publisher = StatusPublisher(board: board)
        let delays = DebugDelays.current
        let worker = EarWorker(shared: shared, publisher: publisher, log: log,
                               decodeDelaySeconds: delays.decodeSeconds, earText: earText, onWake: onWake)
        let loader = EngineLoader(shared: shared, worker: worker, publisher: publisher, log: log,
                                  pronouncer: DetectorFactory.pronouncer(for: config), delays: delays)
        let capture = CaptureTap(limits: config.captureLimits, consumers: consumers, taps: taps, log: log)
        self.shared = shared
        self.delays = delays
        self.log = log
        self.phraseList = list
        self.worker = worker
        self.loader = loader
        owner = AudioOwner(shared: shared, source: source, loader: loader, capture: capture,
                           publisher: publisher, log: log)
        reloader = ListenReloader(shared: shared, loader: loader, publisher: publisher, phraseList: list, log: log)
    }

    /// Asks every thread to end. The audio owner notices within one chunk (or
    /// one 100 ms step of a wait); the ear and the loader are never waited
    /// for, so a load stuck in C code cannot hold up the exit.
    package func stop() {
        shared.stopping.store(true, ordering: .relaxed)
        shared.queue.wakeWaiter()
        loader.wakeForStop()
    }

    /// Whether `run()` has returned (the audio owner ended its loop and any
    /// capture) and the ear's thread has left its loop, so the process can
    /// exit without tearing a library down under a decode. The caller
    /// bounds its wait (a decode can be slow); the loader is never waited for.
    package var hasFinished: Bool { owner.hasFinished && worker.hasFinished }

    /// Monotonic seconds (`ProcessClock`) of the older of two last turns:
    /// the audio owner's (a chunk read, a look at a loading engine, a 100 ms
    /// step of a retry wait) and the ear's (a chunk decoded, a 100 ms wait
    /// for one). A read stuck in a driver or an engine wedged in C code stops
    /// moving it; a merely slow decoder does not. `LoopWatchdog` reads it.
    /// Engine loads are not in it: a long load is not a hang.
    package var lastBeatSeconds: Double { min(owner.lastBeatSeconds, worker.lastBeatSeconds) }

    /// The configuration in force (after reloads); remote wake streams
    /// build their ears from it.
    package var currentConfig: EarsConfig { shared.currentConfig }

    /// Hands the service a newly read configuration (`ListenReloader`).
    /// Keys that only change at restart keep their old values (`ReloadPlan`).
    package func reload(_ newConfig: EarsConfig) {
        reloader.apply(newConfig)
    }

    /// Starts the ear's and the loader's threads and runs the audio owner on
    /// the calling thread until `stop()`. Call once.
    package func run() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        if delays.isActive { log.warning(delays.summary) }
        worker.start()
        loader.start()
        owner.run()
    }
}

/// The wake phrases in force, shared between the reloader (which replaces
/// them) and the listen socket's `info` answer. Phrases are configuration,
/// not anything heard.
package final class PhraseList: Sendable {
    private let texts: Mutex<[String]>

    /// A list holding `texts`.
    package init(_ texts: [String]) { self.texts = Mutex(texts) }

    /// The phrases now.
    package var current: [String] { texts.withLock { $0 } }

    /// Puts new phrases in force.
    func replace(_ newTexts: [String]) { texts.withLock { $0 = newTexts } }
}
