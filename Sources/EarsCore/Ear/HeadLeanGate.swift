/// The acoustic route's gate when every phrase it hears also has a trained
/// head (`[wake] both_routes` with `acoustic_on_lean`): the acoustic engine
/// hears only the few seconds around a moment a head leaned towards its
/// phrase, instead of all speech.
///
/// Why it loses no wake: with both routes an acoustic detection wakes only
/// when a head reached `WakeJudge.headAgreementScore` from
/// `WakeJudge.headAgreementBeforeSeconds` before the detection's end to
/// `WakeJudge.headAgreementAfterSeconds` after it, so audio far from every
/// lean can only give detections that would be refused. The lean itself is
/// reported a step or two after its audio, so the gate opens with the
/// ring's last `preRollSeconds` before the lean (the whole phrase and the
/// speech before it, which the engine's search needs) and stays open until
/// `holdSeconds` of audio past the newest lean. Why it matters: PocketSphinx
/// hearing all speech cost four times the heads' CPU (docs/benchmark.md);
/// a head leans a few times a minute in ordinary talk.
///
/// `latestLeanSeconds` answers the audio time (seconds since the stream
/// began) of the newest lean, or nil before the first; the ear feeds its
/// trained engine before asking the gate, so a lean in this chunk counts.
/// Pure bookkeeping on stream time: no clock, no I/O. Used from the ear's
/// thread only, like its `Ear`.
package final class HeadLeanGate: SpeechGate {
    /// Seconds of audio before a lean fed when the gate opens: a phrase is
    /// said in under 2 s, and the search wants some speech before it.
    package static let defaultPreRollSeconds = 2.5
    /// Seconds of audio after the newest lean still fed: the head's peak
    /// comes at or just after the phrase's end, and the engine reports a
    /// spotting a few frames after the phrase.
    package static let defaultHoldSeconds = 1.0

    /// Seconds before a lean the gate feeds when it opens (less if the ring holds less).
    package let preRollSeconds: Double
    /// Seconds past the newest lean the gate stays open.
    package let holdSeconds: Double
    /// Whether the gate is admitting chunks.
    package private(set) var isOpen = false
    /// Times the gate opened since it was made (not cleared by `reset`).
    package private(set) var opens = 0
    /// Chunks passed in since the gate was made.
    package private(set) var chunksSeen = 0
    /// Live chunks admitted since the gate was made, pre-roll not included.
    package private(set) var chunksAdmitted = 0

    private let latestLeanSeconds: () -> Double?
    private let preRollSamples: Int64
    private let holdSamples: Int64
    /// The newest lean already seen, seconds.
    private var seenLeanSeconds: Double?
    /// Audio time (samples) the gate stays open until, exclusive.
    private var openUntilSample = Int64.min
    /// Audio time (samples) the next opening's pre-roll reaches back to.
    private var windowStartSample = Int64.min
    private var preRollTracker = PreRollTracker()

    /// A closed gate that opens around the leans `latestLeanSeconds` reports.
    /// Times are seconds (≥ 0).
    package init(preRollSeconds: Double = defaultPreRollSeconds, holdSeconds: Double = defaultHoldSeconds,
                latestLeanSeconds: @escaping () -> Double?) {
        precondition(preRollSeconds >= 0 && holdSeconds >= 0, "gate times are seconds and cannot be negative")
        self.preRollSeconds = preRollSeconds
        self.holdSeconds = holdSeconds
        self.latestLeanSeconds = latestLeanSeconds
        preRollSamples = Int64(AudioFormat.samples(inSeconds: preRollSeconds))
        holdSamples = Int64(AudioFormat.samples(inSeconds: holdSeconds))
    }

    /// Returns [] while no lean is near; when a lean opens the gate, the
    /// ring's audio from `preRollSeconds` before the lean (not fed before,
    /// in stream time, at most what the ring holds), then `chunk`; `[chunk]`
    /// while open. `ring` must already hold `chunk` as its newest samples.
    package func admit(_ chunk: AudioChunk, ring: SampleRing) -> [AudioChunk] {
        chunksSeen += 1
        preRollTracker.observe(chunk, ring: ring)

        if let lean = latestLeanSeconds(), lean != seenLeanSeconds {
            seenLeanSeconds = lean
            let leanSample = Int64(AudioFormat.samples(inSeconds: lean))
            openUntilSample = max(openUntilSample, leanSample + holdSamples)
            if !isOpen { windowStartSample = leanSample - preRollSamples }
        }
        guard chunk.startSample < openUntilSample else {
            isOpen = false
            return []
        }
        var buffers: [AudioChunk] = []
        if !isOpen {
            isOpen = true
            opens += 1
            buffers = preRollTracker.preRoll(fromSample: windowStartSample, before: chunk, ring: ring)
        }
        buffers.append(chunk)
        chunksAdmitted += 1
        preRollTracker.fed(throughSample: chunk.endSample)
        return buffers
    }

    /// Forgets the stream: closed, no lean seen. Counters are kept.
    package func reset() {
        isOpen = false
        seenLeanSeconds = nil
        openUntilSample = .min
        windowStartSample = .min
        preRollTracker.reset()
    }
}
