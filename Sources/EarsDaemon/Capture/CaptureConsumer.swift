import EarsCore

/// What a consumer learns when a capture begins. Carries the phrase and
/// numbers, never transcript text.
package struct CaptureInfo: Sendable, Equatable {
    /// Wake or tap.
    package var source: CaptureSource
    /// The configured phrase that woke (empty for a tap).
    package var phrase: String
    /// The wake's score (0 for a tap).
    package var score: Double
    /// Wall-clock time of the trigger, milliseconds since 1970.
    package var timestampMilliseconds: Int64
}

/// Something a capture is handed to: the listen socket, the exec hook.
///
/// Calls come from the audio thread and must never block it: a consumer
/// queues what it cannot take at once, drops the oldest when its bound is
/// reached, and counts what it dropped.
package protocol CaptureConsumer: AnyObject, Sendable {
    /// Name for the meter's `dropped_chunks`, e.g. `listen_socket`.
    var consumerName: String { get }
    /// Chunks (or events) dropped because this consumer fell behind.
    var droppedChunks: Int { get }
    /// A capture began; the pre-roll follows as audio.
    func captureBegan(_ info: CaptureInfo)
    /// More captured audio (16 kHz mono S16).
    func captureAudio(_ samples: [Int16])
    /// The capture ended.
    func captureEnded(_ reason: CaptureStateMachine.StopReason)
}
