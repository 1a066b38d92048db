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
    /// Which route heard it: the phrase's trained model or the acoustic route.
    package var route: Route = .acoustic

    /// A wake as found (the detector makes them; tests too).
    package init(phrase: String, score: Double, audioSeconds: Double, utterance: Int,
                 pieceKind: TranscriptPiece.Kind = .final, route: Route = .acoustic) {
        self.phrase = phrase
        self.score = score
        self.audioSeconds = audioSeconds
        self.utterance = utterance
        self.pieceKind = pieceKind
        self.route = route
    }

    /// The two ways a phrase is heard.
    package enum Route: String, Sendable, Equatable {
        /// Keyword spotting (PocketSphinx or Vosk) and the verifier.
        case acoustic
        /// The phrase's model from `ears train`.
        case trained

        /// How a person reads it: "acoustic route", "trained model".
        package var words: String { self == .trained ? "trained model" : "acoustic route" }
    }
}
