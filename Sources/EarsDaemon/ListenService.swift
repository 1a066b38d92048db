import EarsCore
import Synchronization

/// The audio owner and the ear, wired together: the loop behind `ears listen`.
///
/// It is the only code that reads the microphone. Each chunk goes to the taps
/// (today the ear and its detector). Opening the engine and the device follows
/// `MicrophoneLifecycle`: every failure becomes `closed` with the failure's
/// sentence, then a retry after 1 s, 2 s, … 30 s. `run()` blocks the calling
/// thread until `stop()`. `reload(_:)` hands it a new configuration, which
/// the loop applies between chunks (see `ReloadPlan`).
public final class ListenService: @unchecked Sendable {
    // @unchecked: `run()` owns every mutable field below from one thread; the
    // only cross-thread state is `stopping`, `lastBeat` (atomics), the pending
    // reload and phrases (locked) and the board (locked).
    private var config: EarsConfig
    private let source: any AudioSource
    private let board: StatusBoard
    private let log: EarsLog
    private let onWake: @Sendable (WakeEvent) -> Void
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Monotonic microseconds of the loop's last turn (see `LoopWatchdog`).
    private let lastBeat = Atomic<Int>(0)
    private let pendingReload = Mutex<EarsConfig?>(nil)
    /// The phrases in force, shared with whoever shows them (the listen socket's `info`).
    public let phraseList: PhraseList
    /// Near misses counted by detectors a reload replaced.
    private var earlierNearMisses = 0
    /// Candidates refused by judges a reload replaced.
    private var earlierRefused = 0
    /// Where the next chunk starts (samples since the stream began).
    private var nextSample: Int64 = 0

    private var lifecycle = MicrophoneLifecycle()
    private var ear: Ear?
    private var judge: WakeJudge
    /// The verifier, loaded with the engine (nil when off or not PocketSphinx).
    private var verifier: (any WakeVerifier)?
    /// What identified the trained model files when the engines loaded (`TrainedModels.signature`).
    private var modelSignature: [String] = []
    /// The engine of the phrases with trained models, when any has one.
    private var trained: NeuralTranscriber?
    private let pronouncer: any Pronouncer
    private var sourceOpen = false
    private let capture: CaptureTap
    /// Where final pieces go when the owner switched `ear_text` on (the listen socket only).
    private let earText: (@Sendable (String) -> Void)?

    /// Makes the service. `onWake` is called on the audio thread for each
    /// wake; captures go to `consumers`; `taps` carries manual taps in.
    /// `earText` receives final pieces only while `[listen] ear_text` is on
    /// (checked per piece, so a reload can switch it); `phraseList`, when
    /// given, is the shared list the service keeps up to date on reload.
    public init(config: EarsConfig, source: any AudioSource, board: StatusBoard, log: EarsLog,
                consumers: [any CaptureConsumer] = [], taps: TapRequests = TapRequests(),
                earText: (@Sendable (String) -> Void)? = nil, phraseList: PhraseList? = nil,
                onWake: @escaping @Sendable (WakeEvent) -> Void) {
        self.earText = earText
        self.phraseList = phraseList ?? PhraseList(config.phrases.map(\.text))
        self.capture = CaptureTap(limits: config.captureLimits, consumers: consumers, taps: taps, log: log)
        self.config = config
        self.source = source
        self.board = board
        self.log = log
        self.onWake = onWake
        self.pronouncer = DetectorFactory.pronouncer(for: config)
        self.judge = WakeJudge(detector: DetectorFactory.make(for: config, pronouncer: pronouncer), verifier: nil,
                               threshold: config.verifierThreshold)
    }

    /// The verifier for the phrases it judges (`EngineFactory.verified`).
    private func loadVerifier(trained: NeuralTranscriber?) throws(TranscriberError) -> (any WakeVerifier)? {
        let acoustic = EngineFactory.verified(config, trained: trained)
        return try EngineFactory.verifier(for: acoustic, soundAlikes: DetectorFactory.soundAlikes(for: acoustic, pronouncer: pronouncer),
                                          pronouncer: pronouncer)
    }

    /// A new judge for the configuration in force and the loaded verifier.
    private func makeJudge() -> WakeJudge {
        WakeJudge(detector: DetectorFactory.make(for: config, pronouncer: pronouncer), verifier: verifier,
                  threshold: config.verifierThreshold, contestTrained: config.trainedContest)
    }

    /// Loads the engine, its ear and the verifier for the configuration in force.
    private func loadEngine(meter: EarMeter = EarMeter()) throws(TranscriberError) -> Ear {
        modelSignature = TrainedModels.signature(for: config)
        let engines = try EngineFactory.engines(for: config)
        let ear = try EngineFactory.ear(for: config, engines: engines, meter: meter)
        trained = engines.trained
        verifier = try loadVerifier(trained: engines.trained)
        earlierNearMisses += judge.nearMisses
        earlierRefused += judge.refused
        judge = makeJudge()
        return ear
    }

    /// Asks the loop to end; it notices within one chunk (or one 100 ms sleep step).
    public func stop() { stopping.store(true, ordering: .relaxed) }

    /// Whether `run()` has returned.
    public var hasFinished: Bool { finished.load(ordering: .acquiring) }

    /// Monotonic seconds (`ProcessClock`) of the loop's last turn: a chunk
    /// read, an open attempt, or a 100 ms step of a retry wait. A stuck loop
    /// stops moving it; `LoopWatchdog` reads it.
    public var lastBeatSeconds: Double { Double(lastBeat.load(ordering: .relaxed)) / 1_000_000 }

    /// Hands the loop a newly read configuration; it is applied before the
    /// next chunk, or at once while closed and waiting to retry. Keys that
    /// only change at restart keep their old values (`ReloadPlan`).
    public func reload(_ newConfig: EarsConfig) {
        pendingReload.withLock { $0 = newConfig }
    }

    private var reloadIsPending: Bool { pendingReload.withLock { $0 != nil } }

    private func beat() {
        lastBeat.store(Int(ProcessClock.monotonicSeconds() * 1_000_000), ordering: .relaxed)
    }

    /// Runs the loop until `stop()`.
    public func run() {
        defer {
            capture.abandon()
            if sourceOpen { source.close() }
            finished.store(true, ordering: .releasing)
        }
        var action = lifecycle.begin()
        publishPhase()
        while !stopping.load(ordering: .relaxed) {
            beat()
            if let newConfig = pendingReload.withLock({ pending in defer { pending = nil }; return pending }) {
                action = apply(newConfig, action: action)
            }
            switch action {
            case .open:
                action = openEverything()
            case .listen:
                action = listenOnce() ?? .listen
            case let .waitThenRetry(seconds, _):
                ProcessClock.sleep(seconds: seconds) {
                    beat()
                    return stopping.load(ordering: .relaxed) || reloadIsPending
                }
                // A reload cuts a retry wait short, so a corrected model path is
                // tried at once; a finished input stays parked.
                if seconds < Self.parkSeconds { action = lifecycle.retryDue() }
            }
        }
    }

    /// Loads the engine (once) and opens the source; any failure closes with its sentence.
    private func openEverything() -> MicrophoneLifecycle.Action {
        do throws(TranscriberError) {
            if ear == nil {
                let loaded = try loadEngine()
                ear = loaded
                board.update { $0.model = loaded.transcriber.modelName }
                log.info("engine \(loaded.transcriber.engineName) loaded (model \(loaded.transcriber.modelName))\(engineNote(loaded))")
            }
        } catch {
            return fail(error.sentence)
        }
        do throws(AudioSourceError) {
            try source.open()
            sourceOpen = true
        } catch {
            return fail(error.sentence)
        }
        do throws(TranscriberError) {
            try ear?.start(atSample: 0)
        } catch {
            return fail(error.sentence)
        }
        judge.reset()
        let action = lifecycle.opened()
        publishPhase()
        log.info("listening on \(source.sourceName) for \(config.phrases.map { "\"\($0.text)\"" }.joined(separator: ", "))")
        return action
    }

    /// Reads one chunk and hands it to the taps. Returns a new action on failure or end of input.
    private func listenOnce() -> MicrophoneLifecycle.Action? {
        guard let ear else { return lifecycle.begin() }
        let chunk: AudioChunk
        do throws(AudioSourceError) {
            guard let next = try source.read() else {
                finishInput(ear)
                return fail("The input \(source.sourceName) has ended; there is nothing more to hear.", retry: false)
            }
            chunk = next
            nextSample = chunk.endSample
        } catch {
            return fail(error.sentence)
        }
        do throws(TranscriberError) {
            let pieces = try ear.take(chunk)
            // The capture sees the chunk before a wake in it can start one:
            // a new capture's pre-roll already includes this chunk.
            capture.take(chunk, ring: ear.ring)
            consider(pieces, ear: ear)
        } catch {
            log.error(error.sentence)
            ear.resetEngines()
            try? ear.start(atSample: chunk.endSample)
        }
        let meter = ear.meter
        let captures = capture.captures, captured = capture.capturedSeconds, dropped = capture.droppedChunks
        let ignored = capture.ignoredTriggers
        board.update {
            $0.ear = meter
            $0.triggersDuringCapture = ignored
            $0.captures = captures
            $0.captureSeconds = captured
            $0.droppedChunks = dropped
        }
        return nil
    }

    private func finishInput(_ ear: Ear) {
        if let pieces = try? ear.finish() { consider(pieces, ear: ear) }
        let meter = ear.meter
        board.update { $0.ear = meter }
    }

    private func consider(_ pieces: [TranscriptPiece], ear: Ear) {
        for piece in pieces {
            if piece.kind == .final, config.earText, let earText { earText(piece.text) }
            let wake = judge.consider(piece, ear: ear)
            let nearMisses = earlierNearMisses + judge.nearMisses
            let refused = earlierRefused + judge.refused
            board.update {
                $0.nearMisses = nearMisses
                $0.refusedCandidates = refused
                if wake != nil { $0.wakes += 1 }
            }
            if let wake {
                onWake(wake)
                capture.wake(wake, ring: ear.ring)
            }
        }
    }

    private func fail(_ why: String, retry: Bool = true) -> MicrophoneLifecycle.Action {
        capture.abandon()
        if sourceOpen {
            source.close()
            sourceOpen = false
        }
        let repeated = lifecycle.closedWhy == why
        let action = lifecycle.failed(why: why)
        publishPhase()
        // Say it once; a device that stays missing would otherwise fill the
        // journal with the same sentence every 30 s.
        if !repeated { log.warning("closed: \(why)") }
        if !retry {
            // A finished file does not come back: park until stopped.
            return .waitThenRetry(seconds: Self.parkSeconds, why: why)
        }
        return action
    }

    /// A "wait" that never ends by itself: a finished input file does not come back.
    private static let parkSeconds = Double.greatestFiniteMagnitude

    /// Applies a reload between chunks and returns the action to continue with.
    private func apply(_ newConfig: EarsConfig, action: MicrophoneLifecycle.Action) -> MicrophoneLifecycle.Action {
        let plan = ReloadPlan(old: config, new: newConfig)
        config = plan.effective
        phraseList.replace(config.phrases.map(\.text))
        if plan.rebuildDetector && !plan.rebuildEngine {
            earlierNearMisses += judge.nearMisses
            earlierRefused += judge.refused
            // The phrases (or the verifier's settings) changed: its searches follow them.
            do throws(TranscriberError) {
                verifier = try loadVerifier(trained: trained)
            } catch {
                verifier = nil
                log.warning("the verifier could not load, candidates wake unverified: \(error.sentence)")
            }
            judge = makeJudge()
        }
        if plan.captureLimitsChanged { capture.setLimits(config.captureLimits) }
        let earTextOn = config.earText
        board.update { $0.heardShown = earTextOn }
        log.notice("reloaded: \(plan.summary)")
        // `ears train` may have written (or replaced) a phrase's model since
        // the engine loaded: a reload picks it up by loading the engines again.
        let modelsChanged = TrainedModels.signature(for: config) != modelSignature
        if modelsChanged { log.notice("reloaded: the trained models changed; loading the engines again") }
        guard plan.rebuildEngine || modelsChanged, let oldEar = ear else { return action }
        // A new engine: load it now (the old one keeps nothing worth saving
        // but its counters, which the new ear continues).
        do throws(TranscriberError) {
            let loaded = try loadEngine(meter: oldEar.meter)
            ear = loaded
            try loaded.start(atSample: nextSample)
            board.update {
                $0.engine = loaded.transcriber.engineName
                $0.model = loaded.transcriber.modelName
            }
            log.info("engine \(loaded.transcriber.engineName) loaded (model \(loaded.transcriber.modelName))\(engineNote(loaded))")
            return action
        } catch {
            ear = nil
            return fail(error.sentence)
        }
    }

    /// What sits in front of and behind the engine, for the load line (configuration only).
    private func engineNote(_ ear: Ear) -> String {
        var parts: [String] = []
        if let suppressor = ear.suppressor { parts.append("noise suppression \(suppressor.label)") }
        if verifier != nil { parts.append("verifier on") }
        if let trained {
            parts.append("trained models for " + trained.models.map { "\"\($0.phrase)\"" }.joined(separator: ", "))
        }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }

    private func publishPhase() {
        let phase = lifecycle.phase
        let why = lifecycle.closedWhy
        board.update {
            $0.phase = phase
            $0.closedWhy = why
        }
    }
}

/// The wake phrases in force, shared between the audio loop (which replaces
/// them on reload) and the listen socket's `info` answer. Phrases are
/// configuration, not anything heard.
public final class PhraseList: Sendable {
    private let texts: Mutex<[String]>

    /// A list holding `texts`.
    public init(_ texts: [String]) { self.texts = Mutex(texts) }

    /// The phrases now.
    public var current: [String] { texts.withLock { $0 } }

    /// Puts new phrases in force.
    func replace(_ newTexts: [String]) { texts.withLock { $0 = newTexts } }
}
