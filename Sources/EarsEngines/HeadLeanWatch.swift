import EarsCore
import EarsNeural
import EarsPhonetics

/// The trained engine as the judge's source of head agreement (`[wake]
/// both_routes`) and as the clock of the acoustic route's `HeadLeanGate`
/// (`[wake] acoustic_on_lean`): it wraps the `NeuralTranscriber` the ear
/// feeds, which decides once more at each watched score over the same
/// embeddings (`NeuralTranscriber.watch`, set by `EngineFactory.engines(for:)`
/// to `[wake] head_agreement`, 0.5 unless set, and with `[wake]
/// sure_verifier_score` also `WakeJudge.faintHeadAgreementScore`); each
/// decision there is a lean at that score.
///
/// The judge takes the leans (`takeAgreements`); the gate only reads the
/// newest one's time (`latestLeanSeconds`), so neither takes them from the
/// other. Pieces, times and names pass through unchanged. Numbers only:
/// phrases and audio times, never audio. Used from the ear's thread.
package final class HeadLeanWatch: Transcriber, HeadAgreement {
    /// The engine wrapped.
    package let trained: NeuralTranscriber
    /// Audio time (seconds since the stream began) where the newest lean
    /// ended, taken by the judge or not; nil before the first of this stream.
    package private(set) var latestLeanSeconds: Double?
    /// The scores `trained` watches, in its `watch` order.
    package let levels: [Double]
    private var untaken: [HeadLean] = []

    /// Watches `trained`, whose watch must already be set to `levels` (in that order).
    package init(_ trained: NeuralTranscriber, levels: [Double]) {
        self.trained = trained
        self.levels = levels
        agreeingPhrases = Set(trained.models.map(\.phrase))
    }

    package var engineName: String { trained.engineName }
    package var modelName: String { trained.modelName }
    /// The phrases with a model (fixed: an engine's models never change).
    package let agreeingPhrases: Set<String>

    /// The leans since the last call, oldest first.
    package func takeAgreements() -> [HeadLean] {
        defer { untaken.removeAll() }
        return untaken
    }

    package func start(atSample startSample: Int64) throws(TranscriberError) {
        forgetLeans()
        try trained.start(atSample: startSample)
    }

    package func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        let pieces = try trained.feed(samples, atSample: startSample)
        // Every level opens the gate: a sure acoustic detection needs only the faintest.
        for (level, leans) in zip(levels, trained.takeWatchedPieces()) {
            for lean in leans {
                untaken.append(HeadLean(phrase: lean.text, audioSeconds: lean.endSeconds, score: level))
                latestLeanSeconds = max(latestLeanSeconds ?? lean.endSeconds, lean.endSeconds)
            }
        }
        return pieces
    }

    package func finish() throws(TranscriberError) -> [TranscriptPiece] { try trained.finish() }

    package func reset() {
        forgetLeans()
        trained.reset()
    }

    package func forgetAdaptation() throws(TranscriberError) {
        forgetLeans()
        try trained.forgetAdaptation()
    }

    private func forgetLeans() {
        untaken.removeAll()
        latestLeanSeconds = nil
    }
}
