import EarsCore
import EarsNeural
import EarsPhonetics

/// The trained engine as the judge's source of head agreement (`[wake]
/// both_routes`): it decides once more at `WakeJudge.headAgreementScore`
/// over the same embeddings (`NeuralTranscriber.watch`), and each decision
/// there is an agreement. `EngineFactory.engines(for:)` sets the watch; a
/// command that watches thresholds of its own (`ears tune`) turns both
/// routes off.
extension NeuralTranscriber: HeadAgreement {
    /// The phrases with a model.
    package var agreeingPhrases: Set<String> { Set(models.map(\.phrase)) }

    /// The watched threshold's detections since the last call, as agreements.
    package func takeAgreements() -> [(phrase: String, audioSeconds: Double)] {
        (takeWatchedPieces().first ?? []).map { (phrase: $0.text, audioSeconds: $0.endSeconds) }
    }
}
