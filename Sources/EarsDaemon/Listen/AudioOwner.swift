import EarsCore
import Synchronization
import EarsEngines

/// The audio owner (`ears-audio`): the only code that reads the microphone.
///
/// Its loop only reads the source, keeps the pre-roll ring captures start
/// from (`Ear.ringSeconds`, 3.5 s, memory only), feeds the running capture,
/// measures gaps, and pushes each chunk into the ear's bounded queue, which
/// never makes it wait. Decoding happens on the ear's thread and engine loads
/// on the loader's, so a slow decoder or a reload never stalls the device.
///
/// Opening follows `MicrophoneLifecycle`: the engine must be loaded (the
/// loader is asked and waited for, the loop still turning), then the source
/// opens; every failure becomes `closed` with its sentence, then a retry after
/// 1 s, 2 s, … 30 s. A wake found by the ear comes back through `shared.wakes`
/// and starts a capture from the ring: wakes carry absolute sample offsets,
/// so one found late still finds the phrase in its pre-roll while the
/// queue's bound (1.2 s, `DecodeBacklog.defaultCapacityChunks`) stays well
/// under the ring's length.
final class AudioOwner: @unchecked Sendable {
    // @unchecked: everything below but the atomics is touched only on the
    // audio owner's thread.
    private let shared: ListenShared
    private let source: any AudioSource
    private let loader: EngineLoader
    private let capture: CaptureTap
    private let publisher: StatusPublisher
    private let log: EarsLog
    private let finished = Atomic<Bool>(false)
    /// Monotonic microseconds of the loop's last turn (see `LoopWatchdog`).
    private let lastBeat = Atomic<Int>(0)

    private var lifecycle = MicrophoneLifecycle()
    private var sourceOpen = false
    /// The last 3.5 s read, for captures' pre-roll.
    private var ring = SampleRing(seconds: Ear.ringSeconds)
    /// Audio time just past the newest sample in `ring` (samples since the open).
    private var ringEndSample: Int64 = 0
    /// Which open of the source this is; wakes from an earlier one are stale.
    private var stream = 0
    /// Whether this loop asked the loader for the engine it is waiting for.
    private var awaitingLoad = false
    private var gaps = AudioGapMeter()

    /// A "wait" that never ends by itself: a finished input file does not come back.
    private static let parkSeconds = Double.greatestFiniteMagnitude
    /// How often (seconds) the loop looks again while the engine loads.
    private static let loadPollSeconds = 0.05

    init(shared: ListenShared, source: any AudioSource, loader: EngineLoader,
         capture: CaptureTap, publisher: StatusPublisher, log: EarsLog) {
        self.shared = shared
        self.source = source
        self.loader = loader
        self.capture = capture
        self.publisher = publisher
        self.log = log
    }

    /// Whether `run()` has returned.
    var hasFinished: Bool { finished.load(ordering: .acquiring) }

    /// Monotonic seconds (`ProcessClock`) of the loop's last turn: a chunk
    /// read, a look at a loading engine, or a 100 ms step of a retry wait.
    var lastBeatSeconds: Double { Double(lastBeat.load(ordering: .relaxed)) / 1_000_000 }

    private func beat() {
        lastBeat.store(Int(ProcessClock.monotonicSeconds() * 1_000_000), ordering: .relaxed)
    }

    /// Runs the loop until `shared.stopping`; ends a running capture on the way out.
    func run() {
        defer {
            stopListening()
            finished.store(true, ordering: .releasing)
        }
        var action = lifecycle.begin()
        publisher.phase(lifecycle)
        while !shared.isStopping {
            beat()
            if let limits = shared.captureLimits.withLock({ pending in defer { pending = nil }; return pending }) {
                capture.setLimits(limits)
            }
            switch action {
            case .open:
                action = open()
            case .listen:
                action = listenOnce() ?? .listen
            case let .waitThenRetry(seconds, _):
                ProcessClock.sleep(seconds: seconds) {
                    beat()
                    return shared.isStopping || shared.nudge.load(ordering: .relaxed)
                }
                // Taken only here, so a reload that came just before the wait
                // began still cuts it short.
                shared.nudge.store(false, ordering: .relaxed)
                // A reload cuts a retry wait short, so a corrected model path is
                // tried at once; a finished input stays parked.
                if seconds < Self.parkSeconds { action = lifecycle.retryDue() }
            }
        }
    }

    /// One step of opening: ask for the engine, wait for it, then open the source.
    private func open() -> MicrophoneLifecycle.Action {
        switch shared.engineState {
        case .ready:
            awaitingLoad = false
            return openSource()
        case let .failed(why) where awaitingLoad:
            awaitingLoad = false
            return fail(why)
        case .loading:
            ProcessClock.sleep(seconds: Self.loadPollSeconds) { shared.isStopping }
            return .open
        case .notLoaded, .failed:
            shared.engine.withLock { $0 = .loading }
            awaitingLoad = true
            loader.request(.engine)
            return .open
        }
    }

    private func openSource() -> MicrophoneLifecycle.Action {
        do throws(AudioSourceError) {
            try source.open()
            sourceOpen = true
        } catch {
            return fail(error.sentence)
        }
        stream += 1
        ring.removeAll()
        ringEndSample = 0
        gaps.opened(atSeconds: ProcessClock.monotonicSeconds())
        let action = lifecycle.opened()
        publisher.phase(lifecycle)
        let phrases = shared.currentConfig.phrases.map { "\"\($0.text)\"" }.joined(separator: ", ")
        log.info("listening on \(source.sourceName) for \(phrases)")
        return action
    }

    /// Reads one chunk, feeds the ring and the capture, queues it for the ear.
    /// Returns a new action on failure or end of input.
    private func listenOnce() -> MicrophoneLifecycle.Action? {
        if case let .failed(why) = shared.engineState { return fail(why) }
        let chunk: AudioChunk
        do throws(AudioSourceError) {
            guard let next = try source.read() else {
                shared.queue.push(.end(stream: stream))
                return end()
            }
            chunk = next
        } catch {
            return fail(error.sentence)
        }
        gaps.delivered(audioSeconds: AudioFormat.seconds(ofSamples: Int64(chunk.samples.count)),
                       atSeconds: ProcessClock.monotonicSeconds())
        ring.append(contentsOf: chunk.samples)
        ringEndSample = chunk.endSample
        // The capture sees the chunk before a wake can start one: a new
        // capture's pre-roll already includes it.
        capture.take(chunk, ring: ring)
        startCapturesForWakes()
        shared.queue.push(.chunk(chunk, stream: stream))
        publisher.audio(capture: capture, gaps: gaps, overruns: source.recoveries)
        return nil
    }

    /// Starts a capture for each wake the ear found in this stream's audio.
    private func startCapturesForWakes() {
        let found = shared.wakes.withLock { wakes in defer { wakes.removeAll() }; return wakes }
        for wake in found where wake.stream == stream && wake.endSample <= ringEndSample {
            capture.wake(wake.wake, ring: ring, lateSamples: Int(ringEndSample - wake.endSample))
        }
    }

    /// Ends a running capture (what it has is handed over) and closes the source.
    private func stopListening() {
        capture.abandon()
        if sourceOpen {
            source.close()
            sourceOpen = false
        }
    }

    /// The input file has been played to its end: say so in plain words,
    /// show `ended`, and wait for the stop (status and listen.sock stay up).
    private func end() -> MicrophoneLifecycle.Action {
        stopListening()
        let why = "The input \(source.sourceName) has been played to its end; nothing more will be heard until ears is stopped."
        if lifecycle.phase != .ended {
            lifecycle.ended(why: why)
            publisher.phase(lifecycle)
            log.notice("input ended: \(source.sourceName) has been played to its end; status and listen.sock stay up until ears is stopped (Ctrl-C)")
        }
        return .waitThenRetry(seconds: Self.parkSeconds, why: why)
    }

    private func fail(_ why: String) -> MicrophoneLifecycle.Action {
        stopListening()
        let repeated = lifecycle.closedWhy == why
        let action = lifecycle.failed(why: why)
        publisher.phase(lifecycle)
        // Say it once; a device that stays missing would otherwise fill the
        // journal with the same sentence every 30 s.
        if !repeated { log.warning("closed: \(why)") }
        return action
    }
}
