import EarsCore
import Foundation
import Synchronization
import EarsPhonetics

/// Manual taps asked for from another thread (`POST /tap` on the status
/// socket), picked up by the audio thread at its next chunk.
package final class TapRequests: Sendable {
    private let pending = Atomic<Int>(0)
    package init() {}
    /// Asks for a capture as if called.
    package func request() { pending.add(1, ordering: .relaxed) }
    /// Takes every pending request; true if there was at least one.
    func take() -> Bool { pending.exchange(0, ordering: .relaxed) > 0 }
}

/// The capture tap: after a wake (or a tap) it hands the ring's tail and the
/// following chunks to the consumers, until the speaker stops or the cap.
/// Lives on the audio owner's thread; consumers never block it.
final class CaptureTap {
    private var machine: CaptureStateMachine
    /// Its own speech detector: the capture needs "is this chunk speech",
    /// without the ear gate's hangover, and works with the gate switched off.
    private let speech = EnergySpeechGate()
    private let consumers: [any CaptureConsumer]
    private let taps: TapRequests
    private let log: EarsLog

    init(limits: CaptureLimits, consumers: [any CaptureConsumer], taps: TapRequests, log: EarsLog) {
        machine = CaptureStateMachine(limits: limits)
        self.consumers = consumers
        self.taps = taps
        self.log = log
    }

    /// Captures started, seconds captured, and drops per consumer, for the meter.
    var captures: Int { machine.captures }
    var capturedSeconds: Double { AudioFormat.seconds(ofSamples: Int64(machine.capturedSamplesTotal)) }
    var ignoredTriggers: Int { machine.ignoredTriggers }
    var droppedChunks: [String: Int] {
        Dictionary(consumers.map { ($0.consumerName, $0.droppedChunks) }, uniquingKeysWith: +)
    }

    /// Takes a chunk the ring already holds: a pending tap starts a capture
    /// (whose pre-roll includes this chunk); otherwise a running capture gets it.
    func take(_ chunk: AudioChunk, ring: SampleRing) {
        _ = speech.admit(chunk, ring: ring)
        if taps.take() {
            let started = machine.trigger(.tap, availableSamples: ring.count)
            if !started.isEmpty {
                apply(started, info: CaptureInfo(source: .tap, phrase: "", score: 0, timestampMilliseconds: now()), ring: ring)
                return
            }
        }
        apply(machine.chunk(chunk.samples, hadSpeech: speech.lastChunkHadSpeech), info: nil, ring: ring)
    }

    /// A wake: start a capture with the ring's 3 s up to the chunk that
    /// woke, plus the `lateSamples` the ring took in after it while the ear
    /// decoded (the ear runs behind the microphone on its own thread).
    func wake(_ wake: WakeEvent, ring: SampleRing, lateSamples: Int = 0) {
        let info = CaptureInfo(source: .wake, phrase: wake.phrase, score: wake.score, timestampMilliseconds: now())
        apply(machine.trigger(.wake, availableSamples: ring.count, lateSamples: lateSamples), info: info, ring: ring)
    }

    /// The audio stopped: end a running capture.
    func abandon() {
        apply(machine.abandon(), info: nil, ring: nil)
    }

    /// New limits for the next capture (a reload).
    func setLimits(_ limits: CaptureLimits) { machine.setLimits(limits) }

    private func apply(_ actions: [CaptureStateMachine.Action], info: CaptureInfo?, ring: SampleRing?) {
        for action in actions {
            switch action {
            case let .start(source, preRollSamples):
                let started = info ?? CaptureInfo(source: source, phrase: "", score: 0, timestampMilliseconds: now())
                let preRoll = ring?.tail(preRollSamples) ?? []
                log.info("capture started (\(source.rawValue), \(JSONText.number(AudioFormat.seconds(ofSamples: Int64(preRoll.count)), places: 1)) s pre-roll)")
                for consumer in consumers {
                    consumer.captureBegan(started)
                    if !preRoll.isEmpty { consumer.captureAudio(preRoll) }
                }
            case let .append(samples):
                for consumer in consumers { consumer.captureAudio(samples) }
            case let .stop(reason):
                log.info("capture ended: \(reason.words)")
                for consumer in consumers { consumer.captureEnded(reason) }
            }
        }
    }

    private func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
