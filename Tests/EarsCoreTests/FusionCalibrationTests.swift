import EarsCore
import Foundation
import Testing
import EarsPhonetics

/// Issue 20's one decision from two experts: the fusion's arithmetic on fixed
/// inputs, and the judge deciding a trained model's candidate with it.
@Suite struct FusionCalibrationTests {
    @Test("features are the head's log-odds, then the verifier's per-frame ratios, phone match and log duration ratio")
    func featuresAreInTheirDocumentedOrder() {
        let features = FusionCalibration.features(verifierEvidence(competitor: -950, seconds: 1.6), headScore: 0.75)
        #expect(FusionCalibration.featureNames == ["head", "llr", "margin", "phones", "duration"])
        #expect(abs(features[0] - log(3.0)) < 1e-9)  // ln(0.75 / 0.25)
        #expect(abs(features[1] - 1.0) < 1e-9)       // (−900 − −1000) / 100
        #expect(abs(features[2] - 0.5) < 1e-9)       // (−900 − −950) / 100
        #expect(features[3] == 0.8)
        #expect(abs(features[4] - log(2.0)) < 1e-9)  // |ln 2|
    }

    @Test("a head score of exactly 0 or 1 and a phrase path never found stay finite and clamped")
    func extremesAreClamped() {
        let sure = FusionCalibration.features(verifierEvidence(phrase: -.infinity, seconds: 0), headScore: 1)
        #expect(abs(sure[0] - log(0.9999 / 0.0001)) < 1e-6)
        #expect(sure[1] == -FusionCalibration.featureLimit && sure[4] == FusionCalibration.featureLimit)
        #expect(FusionCalibration.features(verifierEvidence(), headScore: 0)[0] < -9)
    }

    @Test("the fused score is the logistic of the weighted sum; the head alone gives back the head's score")
    func theScoreIsLogistic() {
        let headAlone = FusionCalibration(bias: 0, weights: [1, 0, 0, 0, 0], threshold: 0.5, headThreshold: 0.3)
        let features = FusionCalibration.features(verifierEvidence(), headScore: 0.8)
        #expect(abs(headAlone.score(features) - 0.8) < 1e-9)
        let both = FusionCalibration(bias: -1, weights: [0.5, 2, 0, 0, 0], threshold: 0.5, headThreshold: 0.3)
        // −1 + 0.5 ln 4 + 2 × 1 = 1.693…
        #expect(abs(both.score(features) - 1 / (1 + exp(-(-1 + 0.5 * log(4.0) + 2)))) < 1e-9)
    }
}

/// The judge with a trained model's candidate: the fused score decides.
@Suite struct FusionJudgeTests {
    /// Fused on the verifier's llr alone plus the head: −2 + ln-odds(head) + 2 llr.
    static let fusion = FusionCalibration(bias: -2, weights: [1, 2, 0, 0, 0], threshold: 0.5, headThreshold: 0.3)

    private func trained(at seconds: Double, score: Double) -> TranscriptPiece {
        TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1 << 40, startSeconds: seconds - 0.8,
                        endSeconds: seconds, trainedScore: score)
    }

    private func ear() throws -> Ear { try earThreeSecondsIn() }

    private func judge(_ verifier: ScriptedVerifier, contest: Bool = true,
                       candidates: @escaping (WakeJudge.Candidate) -> Void = { _ in }) -> WakeJudge {
        WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: verifier, threshold: 0.5,
                  contestTrained: contest, fusion: Self.fusion, onCandidate: candidates)
    }

    @Test("an unsure head (0.4) wakes when the verifier hears the phrase clearly, with the fused score")
    func theVerifierLiftsAnUnsureHead() throws {
        let clear = VerifierEvidence(frames: 100, phraseScore: -800, loopScore: -1000, competitorScore: nil,
                                     phoneMatch: 0.9, phraseSeconds: 0.8, expectedSeconds: 0.8)
        var seen: [WakeJudge.Candidate] = []
        let wake = try #require(judge(ScriptedVerifier(answer: clear), candidates: { seen.append($0) })
            .consider(trained(at: 2, score: 0.4), ear: try ear()))
        let expected = 1 / (1 + exp(-(-2 + log(0.4 / 0.6) + 2 * 2)))
        #expect(abs(wake.score - expected) < 1e-9)
        #expect(seen.count == 1 && seen[0].trained && seen[0].accepted)
    }

    @Test("a sure head (0.99) is refused when the verifier finds no phrase in the window")
    func theVerifierRefusesASureHeadOnSomethingElse() throws {
        let absent = VerifierEvidence(frames: 100, phraseScore: -1300, loopScore: -1000, competitorScore: nil,
                                      phoneMatch: 0.1, phraseSeconds: 0.8, expectedSeconds: 0.8)
        let judging = judge(ScriptedVerifier(answer: absent))
        #expect(judging.consider(trained(at: 2, score: 0.99), ear: try ear()) == nil)
        #expect(judging.refused == 1)
    }

    @Test("with the contest on, a sound-alike that explains the window better refuses whatever the fused score")
    func aWinningSoundAlikeRefuses() throws {
        let neighbour = VerifierEvidence(frames: 100, phraseScore: -800, loopScore: -1000, competitorScore: -700,
                                         phoneMatch: 0.9, phraseSeconds: 0.8, expectedSeconds: 0.8)
        #expect(judge(ScriptedVerifier(answer: neighbour)).consider(trained(at: 2, score: 0.99), ear: try ear()) == nil)
        #expect(judge(ScriptedVerifier(answer: neighbour), contest: false).consider(trained(at: 2, score: 0.99), ear: try ear()) != nil)
    }

    @Test("without a verifier the head's own score decides, as before the fusion")
    func noVerifierMeansTheHeadDecides() throws {
        let judging = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: nil,
                                threshold: 0.5, fusion: Self.fusion)
        #expect(judging.consider(trained(at: 2, score: 0.42), ear: try ear())?.score == 0.42)
    }
}
