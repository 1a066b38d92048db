import EarsCore
import EarsPhonetics

/// Verifier evidence for tests: 100 frames of 10 ms, scores and timings as
/// given (defaults: the phrase 1 nat per frame above the free phone loop, no
/// sound-alike, phone match 0.8, said at the expected length).
func verifierEvidence(phrase: Double = -900, loop: Double = -1000, competitor: Double? = nil,
                      phones: Double = 0.8, seconds: Double = 0.8, expected: Double = 0.8) -> VerifierEvidence {
    VerifierEvidence(frames: 100, phraseScore: phrase, loopScore: loop, competitorScore: competitor,
                     phoneMatch: phones, phraseSeconds: seconds, expectedSeconds: expected)
}
