/// The ear's content-free meter: counts and levels, never words or samples.
///
/// It answers the field question "is the microphone deaf, or does the
/// transcriber hear nothing?" and nothing more.
package struct EarMeter: Sendable, Equatable {
    /// Chunks that arrived from the audio owner.
    package var chunks = 0
    /// Buffers handed to the transcriber.
    package var fed = 0
    /// Pieces (volatile or final) that came back from the transcriber.
    package var results = 0
    /// Chunks the ear never decoded: it fell behind and its queue dropped
    /// the oldest (`DecodeBacklog`). The microphone and captures lost nothing.
    package var dropped = 0
    /// Loudest chunk peak seen, 0…1 of full scale.
    package var loudest = 0.0
    /// Monotonic time (seconds) of the last chunk, or nil before the first.
    package var lastAudioAt: Double?

    package init() {}

    /// Seconds since the last chunk at monotonic time `now`, or nil if no audio yet.
    package func secondsSinceAudio(now: Double) -> Double? {
        lastAudioAt.map { max(0, now - $0) }
    }
}
