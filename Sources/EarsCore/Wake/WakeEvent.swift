/// A heard phrase. Carries the phrase and numbers, never the words around it.
public struct WakeEvent: Sendable, Equatable {
    /// The configured phrase text that matched (never an alias or transcript words).
    public var phrase: String
    /// Match score, 0…1.
    public var score: Double
    /// Audio time of the decision, seconds since the stream started.
    public var audioSeconds: Double
    /// The utterance the phrase was found in.
    public var utterance: Int
    /// Whether it fired on a volatile guess (before the engine settled) or a final piece.
    public var pieceKind: TranscriptPiece.Kind = .final
}
