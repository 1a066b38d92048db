import EarsCore
import Foundation
import Synchronization
import EarsPhonetics
import EarsEngines

/// The ear's thread (`ears-ear`): pops the chunks the audio owner queued,
/// decodes them (`Ear`), judges the pieces (`WakeJudge`, whose verifier
/// reads the ear's own ring of what the engine heard) and hands each wake
/// back to the audio owner, which starts the capture from its ring.
///
/// It may fall behind the microphone (a slow machine, a long utterance);
/// then `ChunkQueue` drops the oldest undecoded chunks and this thread counts
/// them (`ear.dropped`). A dropped chunk leaves a hole in the audio, and the
/// engines need contiguous audio, so the stream restarts at the first chunk
/// after a hole (`Ear.start(atSample:)`), as it does after the source reopens.
///
/// New engines and judges arrive from the loader (`install`) and are swapped
/// in between two chunks, the meters carrying on.
final class EarWorker: @unchecked Sendable {
    // @unchecked: everything below but `pending` (a Mutex) is touched only on
    // the ear's thread.
    private let shared: ListenShared
    private let publisher: StatusPublisher
    private let log: EarsLog
    private let onWake: @Sendable (WakeEvent) -> Void
    private let earText: (@Sendable (String) -> Void)?
    private let decodeDelaySeconds: Double
    private let pending = Mutex<LoadedEngine?>(nil)
    private let finished = Atomic<Bool>(false)
    /// Monotonic microseconds of the loop's last turn: a chunk decoded, or a
    /// 100 ms wait for one. An engine wedged in C code stops it.
    private let lastBeat = Atomic<Int>(0)

    private var ear: Ear?
    private var judge: WakeJudge?
    /// The stream the ear is decoding, and whether it must start again at the next chunk.
    private var stream = -1
    private var needsStart = true
    /// Near misses and refusals counted by judges a reload replaced.
    private var earlierNearMisses = 0
    private var earlierRefused = 0
    /// Drops seen before an ear was installed, counted into its meter.
    private var unmeteredDrops = 0

    /// Longest a pop waits (seconds) before the thread looks at `stopping` again.
    private static let popWaitSeconds = 0.1

    init(shared: ListenShared, publisher: StatusPublisher, log: EarsLog,
         decodeDelaySeconds: Double, earText: (@Sendable (String) -> Void)?,
         onWake: @escaping @Sendable (WakeEvent) -> Void) {
        self.shared = shared
        self.publisher = publisher
        self.log = log
        self.decodeDelaySeconds = decodeDelaySeconds
        self.earText = earText
        self.onWake = onWake
    }

    /// Hands over a newly loaded engine or judge (from the loader's thread);
    /// it goes in before the next chunk is decoded. A newer one replaces an
    /// older one not yet taken, unless the older one carried an ear and the
    /// newer only a judge: then the ear goes in with the newer judge.
    func install(_ loaded: LoadedEngine) {
        pending.withLock { waiting in
            if loaded.ear == nil, let earlier = waiting, let ear = earlier.ear {
                waiting = LoadedEngine(ear: ear, judge: loaded.judge)
            } else {
                waiting = loaded
            }
        }
    }

    /// Monotonic seconds (`ProcessClock`) of the loop's last turn.
    var lastBeatSeconds: Double { Double(lastBeat.load(ordering: .relaxed)) / 1_000_000 }

    private func beat() {
        lastBeat.store(Int(ProcessClock.monotonicSeconds() * 1_000_000), ordering: .relaxed)
    }

    /// Starts the thread. It ends soon after `stopping` is set; it is never joined.
    func start() {
        beat()
        let thread = Thread { [self] in self.run() }
        thread.name = "ears-ear"
        thread.start()
    }

    /// Whether the thread has left its loop (after `stopping`, once the chunk
    /// in hand is decoded).
    var hasFinished: Bool { finished.load(ordering: .acquiring) }

    private func run() {
        defer { finished.store(true, ordering: .releasing) }
        while !shared.isStopping {
            beat()
            guard let (work, drops) = shared.queue.pop(timeoutSeconds: Self.popWaitSeconds) else {
                swapInPending()
                continue
            }
            swapInPending()
            countDrops(drops)
            switch work {
            case let .chunk(chunk, stream):
                decode(chunk, stream: stream)
            case let .end(stream):
                guard stream == self.stream, let ear else { continue }
                if let pieces = try? ear.finish() { consider(pieces, ear: ear, stream: stream) }
                publisher.ear(ear.meter)
            }
        }
    }

    /// Swaps in what the loader handed over, if anything.
    private func swapInPending() {
        guard let loaded = pending.withLock({ waiting in defer { waiting = nil }; return waiting }) else { return }
        if let judge {
            earlierNearMisses += judge.nearMisses
            earlierRefused += judge.refused
        }
        // A judge alone goes in as it is: the engine's stream goes on.
        judge = loaded.judge
        guard let newEar = loaded.ear else { return }
        if let ear {
            newEar.continueCounting(from: ear.meter)
            ear.resetEngines()
        }
        ear = newEar
        needsStart = true
    }

    private func countDrops(_ drops: Int) {
        guard drops > 0 else { return }
        guard let ear else {
            unmeteredDrops += drops
            return
        }
        ear.countDropped(drops + unmeteredDrops)
        unmeteredDrops = 0
        publisher.ear(ear.meter)
    }

    private func decode(_ chunk: AudioChunk, stream: Int) {
        guard let ear, let judge else { return }
        do throws(TranscriberError) {
            if needsStart || stream != self.stream || chunk.startSample != ear.endSample {
                // A new open of the source, a new engine, or a hole the queue
                // left: the engines start a fresh stream at this chunk.
                if !needsStart { ear.resetEngines() }
                try ear.start(atSample: chunk.startSample)
                judge.reset()
                self.stream = stream
                needsStart = false
            }
            DebugDelays.sleep(decodeDelaySeconds)
            let pieces = try ear.take(chunk)
            consider(pieces, ear: ear, stream: stream)
        } catch {
            log.error(error.sentence)
            ear.resetEngines()
            needsStart = true
        }
        publisher.ear(ear.meter)
    }

    private func consider(_ pieces: [TranscriptPiece], ear: Ear, stream: Int) {
        guard let judge else { return }
        for piece in pieces {
            if piece.kind == .final, shared.earText.load(ordering: .relaxed), let earText { earText(piece.text) }
            let wake = judge.consider(piece, ear: ear)
            publisher.judged(nearMisses: earlierNearMisses + judge.nearMisses, refused: earlierRefused + judge.refused,
                             woke: wake != nil)
            if let wake { woke(wake, ear: ear, stream: stream) }
        }
        // Acoustic detections that waited for their phrase's head (both routes).
        let refusedBefore = judge.refused
        let agreed = judge.takeAgreedWakes(ear: ear)
        for wake in agreed {
            publisher.judged(nearMisses: earlierNearMisses + judge.nearMisses, refused: earlierRefused + judge.refused, woke: true)
            woke(wake, ear: ear, stream: stream)
        }
        // A wait that ran out is a refusal the status shows now, not at the next piece.
        if agreed.isEmpty && judge.refused != refusedBefore {
            publisher.judged(nearMisses: earlierNearMisses + judge.nearMisses, refused: earlierRefused + judge.refused, woke: false)
        }
    }

    /// Hands a wake on and keeps it for the capture.
    private func woke(_ wake: WakeEvent, ear: Ear, stream: Int) {
        onWake(wake)
        let found = FoundWake(wake: wake, stream: stream, endSample: ear.endSample)
        shared.wakes.withLock { $0.append(found) }
    }
}
