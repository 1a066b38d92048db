/// What a speech gate may feed from the ring when it opens: the ring's
/// audio that lines up with stream time and was not fed already. Shared by
/// the gates (`EnergySpeechGate`, `HeadLeanGate`), so the pre-roll never
/// repeats audio the engine heard and never crosses a break in the stream.
///
/// A pure value: the gate calls `observe` with each chunk, `preRoll` when it
/// opens, `fed` after each admitted chunk and `reset` with a new stream.
package struct PreRollTracker: Sendable {
    /// `chunk.endSample - ring.totalAppended` at the last chunk: when it
    /// changes, the ring's older samples no longer line up with stream time.
    private var ringOffset: Int64?
    /// Stream time (samples) from which the ring's audio is one unbroken run.
    private var contiguousFromSample = Int64.min
    /// Stream time (samples) just past the last audio fed.
    private var fedThroughSample = Int64.min

    /// A tracker that has seen nothing.
    package init() {}

    /// Notes `chunk`, which `ring` now holds as its newest samples.
    package mutating func observe(_ chunk: AudioChunk, ring: SampleRing) {
        let offsetNow = chunk.endSample - ring.totalAppended
        if let ringOffset, ringOffset != offsetNow { contiguousFromSample = chunk.startSample }
        ringOffset = offsetNow
    }

    /// The ring's audio from `startSample` (stream time) up to `chunk`, cut
    /// to what the ring holds before the chunk, what lines up with stream
    /// time and what was not fed already; in buffers of at most one chunk
    /// (`SampleRing.buffers`), oldest first.
    package func preRoll(fromSample startSample: Int64, before chunk: AudioChunk, ring: SampleRing) -> [AudioChunk] {
        let held = Int64(max(0, ring.count - chunk.samples.count))
        let start = max(startSample, chunk.startSample - held, fedThroughSample, contiguousFromSample)
        return ring.buffers(fromSample: start, before: chunk)
    }

    /// Notes that the audio up to `endSample` (stream time) was fed.
    package mutating func fed(throughSample endSample: Int64) {
        fedThroughSample = endSample
    }

    /// Forgets the stream.
    package mutating func reset() {
        self = PreRollTracker()
    }
}
