import EarsCore
/// A heard phrase. Carries the phrase and numbers, never the words around it.
package struct WakeEvent: Sendable, Equatable {
    /// The configured phrase text that matched (never an alias or transcript words).
    package var phrase: String
    /// Match score, 0…1.
    package var score: Double
    /// Audio time of the decision, seconds since the stream started.
    package var audioSeconds: Double
    /// The utterance the phrase was found in.
    package var utterance: Int
    /// Whether it fired on a volatile guess (before the engine settled) or a final piece.
    package var pieceKind: TranscriptPiece.Kind = .final
}
