import EarsCore
import Foundation
import Testing
import EarsPhonetics
import EarsConfig

/// The verifier's arithmetic and the judge around it, without an engine.
@Suite struct VerifierTests {
    @Test("features are per-frame ratios, the phone match and the log duration ratio, in order")
    func featuresAreComputedInTheirDocumentedOrder() {
        var measured = verifierEvidence(competitor: -950, seconds: 1.6)
        measured.textMatch = 0.6
        let features = VerifierCalibration.features(measured, spotScore: 0.3)
        #expect(VerifierCalibration.featureNames == ["spot", "llr", "margin", "phones", "text", "duration"])
        #expect(features.count == VerifierCalibration.featureNames.count)
        #expect(features[0] == 0.3)
        #expect(abs(features[1] - 1.0) < 1e-9)   // (−900 − −1000) / 100
        #expect(abs(features[2] - 0.5) < 1e-9)   // (−900 − −950) / 100
        #expect(features[3] == 0.8)
        #expect(features[4] == 0.6)
        #expect(abs(features[5] - 0.6931) < 1e-3) // |ln 2|
    }

    @Test("a phrase path that was never found counts as the worst value, not as infinity")
    func aMissingPhrasePathIsClamped() {
        let features = VerifierCalibration.features(verifierEvidence(phrase: -.infinity, seconds: 0), spotScore: nil)
        #expect(features[0] == 0)
        #expect(features[1] == -VerifierCalibration.featureLimit)
        #expect(features[5] == VerifierCalibration.featureLimit)
    }

    @Test("the score is the logistic of the weighted sum")
    func theScoreIsLogistic() {
        let calibration = VerifierCalibration(bias: -1, weights: [0, 2, 0, 0, 0, 0])
        #expect(abs(calibration.score([0, 0.5, 0, 0, 0, 0]) - 0.5) < 1e-12)
        #expect(calibration.score([0, 3, 0, 0, 0, 0]) > 0.99)
        #expect(calibration.score([0, -3, 0, 0, 0, 0]) < 0.01)
    }

    @Test("a sound-alike that explains the window better refuses the candidate whatever its score")
    func aWinningCompetitorRefuses() {
        let calibration = VerifierCalibration(bias: 10, weights: [0, 0, 0, 0, 0, 0])
        let won = calibration.verdict(verifierEvidence(phrase: -900, competitor: -890), spotScore: nil, threshold: 0.5)
        #expect(won.score > 0.99)
        #expect(!won.accepted)
        let lost = calibration.verdict(verifierEvidence(phrase: -900, competitor: -910), spotScore: nil, threshold: 0.5)
        #expect(lost.accepted)
    }

    @Test("without its transcript, evidence decides only when the transcript could not change the verdict")
    func theTranscriptIsSkippedOnlyWhenItCannotMatter() {
        let calibration = VerifierCalibration(bias: 0, weights: [0, 1, 0, 0, 2, 0])
        // llr 1 → logit 1 + 2·text: accepted at 0.5 whatever the text.
        #expect(calibration.decides(verifierEvidence(phrase: -900, loop: -1000), spotScore: nil, threshold: 0.5))
        // llr −1 → logit −1 … +1: the transcript decides.
        #expect(!calibration.decides(verifierEvidence(phrase: -1100, loop: -1000), spotScore: nil, threshold: 0.5))
        // llr −5 → logit −5 … −3: refused whatever the text.
        #expect(calibration.decides(verifierEvidence(phrase: -1500, loop: -1000), spotScore: nil, threshold: 0.5))
        // A winning sound-alike decides.
        #expect(calibration.decides(verifierEvidence(phrase: -1100, loop: -1000, competitor: -1000), spotScore: nil, threshold: 0.5))
    }

    @Test("phone alignment is one minus edits over the expected phones")
    func phoneAlignmentCountsEdits() {
        let expected = ["HH", "EY", "K", "AO", "R", "D", "IY", "L", "IY", "AH"]
        #expect(PhoneAlignment.match(expected: expected, heard: expected) == 1)
        var cornelia = expected
        cornelia[5] = "N"
        #expect(abs(PhoneAlignment.match(expected: expected, heard: cornelia) - 0.9) < 1e-12)
        #expect(PhoneAlignment.match(expected: expected, heard: []) == 0)
        #expect(PhoneAlignment.match(expected: [], heard: expected) == 0)
    }

    @Test("the fitted calibration has one weight per feature and a threshold inside the allowed range")
    func theFittedCalibrationIsWellFormed() {
        #expect(VerifierCalibration.fitted.weights.count == VerifierCalibration.featureNames.count)
        #expect(EarsConfig.defaultVerifierThreshold >= 0.01 && EarsConfig.defaultVerifierThreshold <= 0.99)
    }

    @Test("no measurement scores a candidate above the highest score its spotter's score allows", arguments: [-0.01, -0.004, 0.0, 0.003, nil])
    func theHighestScoreBoundsEveryMeasurement(spot: Double?) {
        let calibration = VerifierCalibration.fitted
        let bound = calibration.highestScore(spotScore: spot)
        for phrase in stride(from: -1200.0, through: -600, by: 200) {
            for competitor in [nil, -1400.0, -900, -500] as [Double?] {
                for phones in [0.0, 0.5, 1.0] {
                    for text in [nil, 0.0, 1.0] as [Double?] {
                        for seconds in [0.0, 0.3, 0.8, 2.5] {
                            let evidence = VerifierEvidence(frames: 100, phraseScore: phrase, loopScore: -1000, competitorScore: competitor,
                                                            phoneMatch: phones, textMatch: text, phraseSeconds: seconds, expectedSeconds: 0.8)
                            let score = calibration.score(VerifierCalibration.features(evidence, spotScore: spot))
                            #expect(score <= bound + 1e-12)
                        }
                    }
                }
            }
        }
        #expect(bound < 1, "the spotter's score limits it")
    }

    @Test("with the phone match measured, no later measurement scores above the bound, and the unmeasured evidence is under it",
          arguments: [0.0, 0.3, 0.6, 1.0])
    func theBoundWithPhonesKnownHoldsForEveryLaterMeasurement(phones: Double) {
        let calibration = VerifierCalibration.fitted
        let spot = 0.0
        let bound = calibration.highestScore(spotScore: spot, phoneMatch: phones)
        #expect(bound <= calibration.highestScore(spotScore: spot) + 1e-12)
        for phrase in [-Double.infinity, -1400, -1000, -600] {
            for competitor in [nil, -1400.0, -900, -500] as [Double?] {
                for text in [nil, 0.0, 0.5, 1.0] as [Double?] {
                    for seconds in [0.0, 0.3, 0.8, 2.5] {
                        let evidence = VerifierEvidence(frames: 100, phraseScore: phrase, loopScore: -1000, competitorScore: competitor,
                                                        phoneMatch: phones, textMatch: text, phraseSeconds: seconds, expectedSeconds: 0.8)
                        #expect(calibration.score(VerifierCalibration.features(evidence, spotScore: spot)) <= bound + 1e-12)
                    }
                }
            }
        }
        let unmeasured = VerifierEvidence.unmeasured(frames: 100, loopScore: -1000, phoneMatch: phones, expectedSeconds: 0.8)
        #expect(calibration.score(VerifierCalibration.features(unmeasured, spotScore: spot)) <= bound)
        #expect(unmeasured.textMatch == nil && !unmeasured.competitorWins)
    }

    @Test("the unmeasured evidence stays under the bound whatever the signs of the weights",
          arguments: [[1.0, 1, 1, 1, 1, 1], [-1.0, -1, -1, -1, -1, -1], [100.0, -0.5, 0.5, 3, -2, 0.2]])
    func theUnmeasuredEvidenceIsUnderTheBoundForAnyWeights(weights: [Double]) {
        let calibration = VerifierCalibration(bias: 0.3, weights: weights)
        for phones in [0.0, 0.4, 1.0] {
            let unmeasured = VerifierEvidence.unmeasured(frames: 80, loopScore: -700, phoneMatch: phones, expectedSeconds: 0.6)
            for spot in [nil, -0.004, 0.002] as [Double?] {
                let score = calibration.score(VerifierCalibration.features(unmeasured, spotScore: spot))
                #expect(score <= calibration.highestScore(spotScore: spot, phoneMatch: phones) + 1e-12)
            }
        }
    }

    @Test("a phone loop that heard none of the phrase's phones rules out a candidate the spotter alone could not")
    func poorPhonesLowerTheBound() {
        // The spotter's score alone leaves room; phones weighted 4 decide.
        let calibration = VerifierCalibration(bias: -3, weights: [0, 0, 0, 4, 0, 0])
        #expect(calibration.highestScore(spotScore: nil) > 0.5)
        #expect(calibration.highestScore(spotScore: nil, phoneMatch: 0.2) < 0.5)
        #expect(calibration.highestScore(spotScore: nil, phoneMatch: 0.9) > 0.5)
    }
}

/// A verifier that answers what the test says, and records the windows it was given.
final class ScriptedVerifier: WakeVerifier {
    var answer: VerifierEvidence?
    private(set) var windows: [[Int16]] = []
    /// Whether the last `measure` was given a `hopeless` question.
    private(set) var askedHopeless = false
    /// Candidates `hopeless` stopped after the phone loop.
    private(set) var stoppedEarly = 0
    init(answer: VerifierEvidence?) { self.answer = answer }
    func measure(phrase: String, audio: [Int16], hopeless: ((Double) -> Bool)?,
                 decided: ((VerifierEvidence) -> Bool)?) -> VerifierEvidence? {
        windows.append(audio)
        askedHopeless = hopeless != nil
        // As the real verifier does: the phone loop first, then stop if hopeless.
        if let answer, let hopeless, hopeless(answer.phoneMatch) {
            stoppedEarly += 1
            return .unmeasured(frames: answer.frames, loopScore: answer.loopScore, phoneMatch: answer.phoneMatch,
                               expectedSeconds: answer.expectedSeconds)
        }
        return answer
    }
}

/// The judge: detector first, verifier second.
@Suite struct WakeJudgeTests {
    /// Evidence the test calibration (llr weight 1) scores 0.27: refused at 0.5.
    static let weak = VerifierEvidence(frames: 100, phraseScore: -1000, loopScore: -900, competitorScore: nil,
                                       phoneMatch: 0.1, phraseSeconds: 0.8, expectedSeconds: 0.8)
    /// Evidence the test calibration scores 0.88: accepted at 0.5.
    static let strong = VerifierEvidence(frames: 100, phraseScore: -800, loopScore: -1000, competitorScore: nil,
                                         phoneMatch: 0.9, phraseSeconds: 0.8, expectedSeconds: 0.8)

    /// A judge for "hey cordelia" whose verifier answers `evidence`, scored on llr alone.
    private func judged(by evidence: VerifierEvidence) -> (WakeJudge, ScriptedVerifier) {
        let verifier = ScriptedVerifier(answer: evidence)
        let judge = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: verifier,
                              threshold: 0.5, calibration: VerifierCalibration(bias: 0, weights: [0, 1, 0, 0, 0, 0]))
        return (judge, verifier)
    }
    private func spotted(at seconds: Double) -> TranscriptPiece {
        TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1, startSeconds: seconds - 0.8,
                        endSeconds: seconds, spotScore: 0.2)
    }

    private func ear(seconds: Double) throws -> Ear {
        let ear = Ear(transcriber: ScriptedTranscriber(), monotonicSeconds: { 0 })
        try ear.start()
        var start: Int64 = 0
        while AudioFormat.seconds(ofSamples: start) < seconds {
            _ = try ear.take(AudioChunk(samples: [Int16](repeating: 100, count: 1600), startSample: start))
            start += 1600
        }
        return ear
    }

    @Test("a candidate no measurement could lift to the threshold is refused without asking the verifier, unless candidates are recorded")
    func aHopelessCandidateIsNotMeasured() throws {
        // Scored on the spotter's score alone: a spot of -0.2 can reach σ(-20) at most.
        let calibration = VerifierCalibration(bias: 0, weights: [100, 0, 0, 0, 0, 0])
        let hopeless = TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1, startSeconds: 1.2, endSeconds: 2.0, spotScore: -0.2)
        let verifier = ScriptedVerifier(answer: Self.strong)
        let judge = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: verifier,
                              threshold: 0.5, calibration: calibration)
        #expect(judge.consider(hopeless, ear: try ear(seconds: 3.0)) == nil)
        #expect(judge.refused == 1 && verifier.windows.isEmpty)

        var recorded: [WakeJudge.Candidate] = []
        let recording = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: verifier,
                                  threshold: 0.5, calibration: calibration, onCandidate: { recorded.append($0) })
        #expect(recording.consider(hopeless, ear: try ear(seconds: 3.0)) == nil)
        #expect(verifier.windows.count == 1 && recorded.count == 1, "the fitting script gets every candidate's features")
    }

    @Test("a candidate whose phones already rule it out stops the verifier after its phone loop and is refused, unless candidates are recorded")
    func aCandidateRuledOutByItsPhonesIsNotMeasuredFurther() throws {
        // Phones weighted 4, llr 0.1, bias −3: a phone match of 0.1 reaches
        // σ(−3 + 0.1·10 + 0.4) = σ(−1.6) at most; the strong evidence scores σ(0.8).
        let calibration = VerifierCalibration(bias: -3, weights: [0, 0.1, 0, 4, 0, 0])
        var poorPhones = Self.strong
        poorPhones.phoneMatch = 0.1
        let verifier = ScriptedVerifier(answer: poorPhones)
        let judge = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: verifier,
                              threshold: 0.5, calibration: calibration)
        #expect(judge.consider(spotted(at: 2.0), ear: try ear(seconds: 3.0)) == nil)
        #expect(verifier.askedHopeless && verifier.stoppedEarly == 1 && judge.refused == 1)

        // Good phones: measured in full, and it wakes.
        verifier.answer = Self.strong
        let woken = judge.consider(spotted(at: 2.5), ear: try ear(seconds: 3.0))
        #expect(woken != nil && verifier.stoppedEarly == 1)

        var recorded: [WakeJudge.Candidate] = []
        let recording = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: verifier,
                                  threshold: 0.5, calibration: calibration, onCandidate: { recorded.append($0) })
        verifier.answer = poorPhones
        #expect(recording.consider(spotted(at: 2.0), ear: try ear(seconds: 3.0)) == nil)
        #expect(!verifier.askedHopeless && recorded.count == 1, "the fitting script gets every feature measured")
    }

    @Test("a candidate the verifier scores under the threshold does not wake and is counted as refused")
    func aLowScoreIsRefused() throws {
        let (judge, verifier) = judged(by: Self.weak)
        #expect(judge.consider(spotted(at: 2.0), ear: try ear(seconds: 3.0)) == nil)
        #expect(judge.refused == 1)
    }

    @Test("an accepted candidate wakes with the verifier's score, and the verifier saw the candidate's window with its margins")
    func anAcceptedCandidateCarriesTheCalibratedScore() throws {
        let (judge, verifier) = judged(by: Self.strong)
        let wake = try #require(judge.consider(spotted(at: 2.0), ear: try ear(seconds: 3.0)))
        #expect(abs(wake.score - 1 / (1 + exp(-2.0))) < 1e-3)
        let expectedSamples = AudioFormat.samples(inSeconds: 0.8 + WakeJudge.leadSeconds + WakeJudge.trailSeconds)
        #expect(abs((verifier.windows.first?.count ?? 0) - expectedSamples) <= 1)
    }

    @Test("a refused candidate does not use up the phrase's refractory time: the real phrase a second later still wakes")
    func aRefusedCandidateLeavesTheRefractoryClockAlone() throws {
        let (judge, verifier) = judged(by: Self.weak)
        let listening = try ear(seconds: 3.0)
        #expect(judge.consider(spotted(at: 1.5), ear: listening) == nil)
        verifier.answer = Self.strong
        var later = spotted(at: 2.5)
        later.utterance = 2
        #expect(judge.consider(later, ear: listening) != nil)
    }

    @Test("without a verifier every detector wake stands")
    func noVerifierMeansTheDetectorDecides() throws {
        let judge = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: nil, threshold: 0.5)
        #expect(judge.consider(spotted(at: 2.0), ear: try ear(seconds: 3.0))?.score == 1)
    }
}
