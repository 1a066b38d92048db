import EarsCore
import Testing
import EarsPhonetics

/// Both routes' bookkeeping (`[wake] both_routes`): an acoustic detection of
/// a phrase with a head waits for that head's agreement, briefly.
@Suite struct HeadAgreementLedgerTests {
    static func wake(_ phrase: String, at seconds: Double) -> WakeEvent {
        WakeEvent(phrase: phrase, score: 0.9, audioSeconds: seconds, utterance: 1)
    }

    static func lean(_ phrase: String, at seconds: Double, score: Double = 0.5) -> HeadLean {
        HeadLean(phrase: phrase, audioSeconds: seconds, score: score)
    }

    @Test("a head's peak up to 2 s before or 0.5 s after an acoustic detection agrees with it, and only for its phrase")
    func agreementWindow() {
        var ledger = HeadAgreementLedger(beforeSeconds: 2, afterSeconds: 0.5)
        ledger.note([Self.lean("hey jarvis", at: 10.0)])
        #expect(ledger.agrees("hey jarvis", at: 11.9, atLeast: 0.5))
        #expect(ledger.agrees("hey jarvis", at: 9.6, atLeast: 0.5))
        #expect(!ledger.agrees("hey jarvis", at: 12.1, atLeast: 0.5), "a peak more than 2 s before is another utterance")
        #expect(!ledger.agrees("hey jarvis", at: 9.4, atLeast: 0.5), "a peak more than 0.5 s after is another utterance")
        #expect(!ledger.agrees("alexa", at: 10.0, atLeast: 0.5), "another phrase's head does not vouch for this one")
    }

    @Test("a faint lean agrees only with a detection that needs no more than it; a waiting one needing more is refused")
    func leansHaveLevels() {
        var ledger = HeadAgreementLedger(beforeSeconds: 2, afterSeconds: 0.5)
        ledger.note([Self.lean("hey jarvis", at: 10.0, score: 0.05)])
        #expect(ledger.agrees("hey jarvis", at: 10.2, atLeast: 0.05))
        #expect(!ledger.agrees("hey jarvis", at: 10.2, atLeast: 0.5), "a lean to 0.05 is not the head's agreement")
        ledger.wait(Self.wake("hey jarvis", at: 10.2), atLeast: 0.5)
        ledger.wait(Self.wake("hey jarvis", at: 10.3), atLeast: 0.05)
        let settled = ledger.settle(nowSeconds: 11.0)
        #expect(settled.wakes == [Self.wake("hey jarvis", at: 10.3)])
        #expect(settled.refused == [Self.wake("hey jarvis", at: 10.2)])
    }

    @Test("a waiting detection wakes when its head agrees within the wait, and is refused when the wait runs out")
    func waitingSettles() {
        var ledger = HeadAgreementLedger(beforeSeconds: 2, afterSeconds: 0.5)
        ledger.wait(Self.wake("alexa", at: 5.0), atLeast: 0.5)
        ledger.wait(Self.wake("hey jarvis", at: 5.2), atLeast: 0.5)
        var settled = ledger.settle(nowSeconds: 5.3)
        #expect(settled.wakes.isEmpty && settled.refused.isEmpty, "both still within their wait")
        ledger.note([Self.lean("alexa", at: 5.25)])
        settled = ledger.settle(nowSeconds: 5.4)
        #expect(settled.wakes == [Self.wake("alexa", at: 5.0)] && settled.refused.isEmpty)
        settled = ledger.settle(nowSeconds: 5.8)
        #expect(settled.wakes.isEmpty && settled.refused == [Self.wake("hey jarvis", at: 5.2)], "hey jarvis waited past 5.7 s without its head")
        #expect(ledger.waiting.isEmpty)
    }

    @Test("old agreements are forgotten once nothing can use them, and reset forgets all")
    func forgetting() {
        var ledger = HeadAgreementLedger(beforeSeconds: 2, afterSeconds: 0.5)
        ledger.note([Self.lean("alexa", at: 1.0), Self.lean("alexa", at: 9.0)])
        _ = ledger.settle(nowSeconds: 10.0)
        #expect(ledger.agreements.map(\.audioSeconds) == [9.0])
        ledger.wait(Self.wake("alexa", at: 30), atLeast: 0.5)
        ledger.reset()
        #expect(ledger.waiting.isEmpty && ledger.agreements.isEmpty)
    }
}

/// A trained engine that answers from a script: the phrases it has heads for
/// and the agreements it reports (unit tests only).
final class ScriptedHeads: Transcriber, HeadAgreement {
    let engineName = "scripted heads"
    let modelName = "script"
    let agreeingPhrases: Set<String>
    /// Agreements the next `takeAgreements` gives.
    var pending: [HeadLean] = []

    init(phrases: Set<String>) { agreeingPhrases = phrases }

    func takeAgreements() -> [HeadLean] {
        defer { pending = [] }
        return pending
    }
    func start(atSample startSample: Int64) throws(TranscriberError) {}
    func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] { [] }
    func finish() throws(TranscriberError) -> [TranscriptPiece] { [] }
    func reset() {}
    func forgetAdaptation() {}
}

/// The judge with both routes: an acoustic detection of a phrase that has a
/// head wakes only with that head's agreement.
@Suite struct BothRoutesJudgeTests {
    /// An ear 3 s into a stream, its trained engine `heads`.
    private func ear(_ heads: ScriptedHeads) throws -> Ear { try earThreeSecondsIn(rawTranscriber: heads) }

    private func judge(bothRoutes: Bool = true) -> WakeJudge {
        WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia"), WakePhrase(text: "hey jarvis")]),
                  verifier: nil, threshold: 0.5, bothRoutes: bothRoutes)
    }

    @Test("an acoustic detection wakes at once when its phrase's head already agreed")
    func agreedWakesAtOnce() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        heads.pending = [HeadAgreementLedgerTests.lean("hey cordelia", at: 1.8)]
        let wake = judge().consider(final("hey cordelia", utterance: 1, at: 2.0), ear: try ear(heads))
        #expect(wake?.phrase == "hey cordelia" && wake?.route == .acoustic)
    }

    @Test("an acoustic detection waits for its head, and wakes when the head's peak comes just after it")
    func waitsForTheHead() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        let ear = try ear(heads)
        let judging = judge()
        #expect(judging.consider(final("hey cordelia", utterance: 1, at: 2.9), ear: ear) == nil)
        heads.pending = [HeadAgreementLedgerTests.lean("hey cordelia", at: 3.0)]
        #expect(judging.takeAgreedWakes(ear: ear).map(\.phrase) == ["hey cordelia"])
        #expect(judging.refused == 0)
    }

    @Test("an acoustic detection its head never agrees with is refused once the wait runs out, and counted")
    func refusedWithoutTheHead() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        let ear = try ear(heads)
        let judging = judge()
        #expect(judging.consider(final("hey cordelia", utterance: 1, at: 2.0), ear: ear) == nil)
        #expect(judging.takeAgreedWakes(ear: ear).isEmpty, "3 s of audio are past 2.0 + 0.5 s")
        #expect(judging.refused == 1)
        #expect(judging.finishAgreedWakes(ear: ear).isEmpty)
    }

    @Test("a refused wait gives its refractory time back: the head's own detection just after it still wakes")
    func aRefusedWaitSilencesNothing() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        let ear = try ear(heads)
        let judging = judge()
        #expect(judging.consider(final("hey cordelia", utterance: 1, at: 1.0), ear: ear) == nil)
        #expect(judging.takeAgreedWakes(ear: ear).isEmpty && judging.refused == 1)
        let head = TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1 << 40, startSeconds: 1.8, endSeconds: 2.6, trainedScore: 0.99)
        #expect(judging.consider(head, ear: ear)?.route == .trained, "1.6 s after the refused candidate, within its 2 s refractory")
    }

    @Test("a head's own detection of a phrase whose acoustic candidate waits confirms it: one wake, not two")
    func theHeadsDetectionConfirmsTheWait() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        let ear = try ear(heads)
        let judging = judge()
        #expect(judging.consider(final("hey cordelia", utterance: 1, at: 2.8), ear: ear) == nil)
        let head = TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1 << 40, startSeconds: 2.1, endSeconds: 2.9, trainedScore: 0.99)
        #expect(judging.consider(head, ear: ear) == nil, "the waiting candidate holds the phrase's refractory time")
        #expect(judging.takeAgreedWakes(ear: ear).map(\.route) == [.acoustic])
    }

    @Test("with both_routes_verifier off, the head's agreement alone decides a phrase with a head; the verifier still judges one without")
    func agreementAloneDecides() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        heads.pending = [HeadAgreementLedgerTests.lean("hey cordelia", at: 1.8)]
        let refusing = ScriptedVerifier(answer: WakeJudgeTests.weak)
        let phrases = [WakePhrase(text: "hey cordelia"), WakePhrase(text: "hey jarvis")]
        let calibration = VerifierCalibration(bias: 0, weights: [0, 1, 0, 0, 0, 0])
        let alone = WakeJudge(detector: WakeDetector(phrases: phrases), verifier: refusing, threshold: 0.5,
                              calibration: calibration, bothRoutes: true, verifyHeaded: false)
        let ear = try ear(heads)
        #expect(alone.consider(final("hey cordelia", utterance: 1, at: 2.0), ear: ear)?.route == .acoustic,
                "the verifier would refuse it, but it is not asked")
        #expect(refusing.windows.isEmpty)
        #expect(alone.consider(final("hey jarvis", utterance: 2, at: 2.5), ear: ear) == nil, "no head: the verifier refuses it")
        #expect(refusing.windows.count == 1 && alone.refused == 1)

        heads.pending = [HeadAgreementLedgerTests.lean("hey cordelia", at: 1.8)]
        let verifying = WakeJudge(detector: WakeDetector(phrases: phrases), verifier: refusing, threshold: 0.5,
                                  calibration: calibration, bothRoutes: true, verifyHeaded: true)
        #expect(verifying.consider(final("hey cordelia", utterance: 1, at: 2.0), ear: try self.ear(heads)) == nil,
                "with the verifier on, its refusal stands even though the head agreed")
        #expect(verifying.refused == 1)
    }

    @Test("under head_alone_score a head's detection does not wake alone, and the acoustic detection after it wakes on its agreement")
    func anUnsureHeadWaitsForTheAcousticRoute() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        let ear = try ear(heads)
        let judging = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: nil,
                                threshold: 0.5, bothRoutes: true, headAloneScore: 0.999)
        let head = TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1 << 40, startSeconds: 1.8, endSeconds: 2.6, trainedScore: 0.99)
        #expect(judging.consider(head, ear: ear) == nil)
        #expect(judging.refused == 1)
        heads.pending = [HeadAgreementLedgerTests.lean("hey cordelia", at: 2.4)]
        let wake = judging.consider(final("hey cordelia", utterance: 1, at: 2.7), ear: ear)
        #expect(wake?.route == .acoustic, "the refused head detection gave its refractory time back")
    }

    @Test("at head_alone_score or over it the head wakes alone; with both routes off every head detection does")
    func aSureHeadWakesAlone() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        let phrases = [WakePhrase(text: "hey cordelia")]
        let sure = TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1 << 40, startSeconds: 1.8, endSeconds: 2.6, trainedScore: 0.9995)
        let unsure = TranscriptPiece(kind: .final, text: "hey cordelia", utterance: 1 << 40, startSeconds: 1.8, endSeconds: 2.6, trainedScore: 0.99)
        let both = WakeJudge(detector: WakeDetector(phrases: phrases), verifier: nil, threshold: 0.5, bothRoutes: true, headAloneScore: 0.999)
        #expect(both.consider(sure, ear: try ear(heads))?.route == .trained)
        let headOnly = WakeJudge(detector: WakeDetector(phrases: phrases), verifier: nil, threshold: 0.5, bothRoutes: false, headAloneScore: 0.999)
        #expect(headOnly.consider(unsure, ear: try ear(heads))?.route == .trained)
    }

    /// A judge for both phrases whose verifier answers `evidence`, scored on
    /// llr alone (`WakeJudgeTests.strong` 0.88, `weak` 0.27), with a sure score of `sure`.
    private func sureJudge(_ evidence: VerifierEvidence, sure: Double?) -> WakeJudge {
        WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia"), WakePhrase(text: "hey jarvis")]),
                  verifier: ScriptedVerifier(answer: evidence), threshold: 0.2,
                  calibration: VerifierCalibration(bias: 0, weights: [0, 1, 0, 0, 0, 0]), bothRoutes: true,
                  sureVerifierScore: sure)
    }

    @Test("an acoustic detection the verifier is sure of wakes on a faint lean of its head; one it is unsure of does not")
    func aSureDetectionNeedsOnlyAFaintLean() throws {
        let faint = HeadAgreementLedgerTests.lean("hey cordelia", at: 1.8, score: WakeJudge.faintHeadAgreementScore)
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        heads.pending = [faint]
        #expect(sureJudge(WakeJudgeTests.strong, sure: 0.8).consider(final("hey cordelia", utterance: 1, at: 2.0), ear: try ear(heads))?.route == .acoustic)

        heads.pending = [faint]
        let ear = try ear(heads)
        let unsure = sureJudge(WakeJudgeTests.weak, sure: 0.25)
        #expect(unsure.consider(final("hey cordelia", utterance: 1, at: 2.0), ear: ear)?.route == .acoustic,
                "0.27 is sure at a sure score of 0.25")
        heads.pending = [faint]
        let strict = sureJudge(WakeJudgeTests.weak, sure: 0.8)
        #expect(strict.consider(final("hey cordelia", utterance: 1, at: 2.0), ear: try self.ear(heads)) == nil)
        #expect(strict.takeAgreedWakes(ear: try self.ear(heads)).isEmpty && strict.refused == 1,
                "0.27 passes the threshold (0.2) but is not sure: it needed head_agreement, which never came")
    }

    @Test("without a sure score a faint lean agrees with nothing")
    func noSureScoreNoFaintAgreement() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        heads.pending = [HeadAgreementLedgerTests.lean("hey cordelia", at: 1.8, score: WakeJudge.faintHeadAgreementScore)]
        let ear = try ear(heads)
        let judging = sureJudge(WakeJudgeTests.strong, sure: nil)
        #expect(judging.consider(final("hey cordelia", utterance: 1, at: 2.0), ear: ear) == nil)
        #expect(judging.finishAgreedWakes(ear: ear).isEmpty && judging.refused == 1)
    }

    @Test("a phrase without a head, or both routes off, wakes through the acoustic route alone as before")
    func noHeadNoWait() throws {
        let heads = ScriptedHeads(phrases: ["hey cordelia"])
        #expect(judge().consider(final("hey jarvis", utterance: 1, at: 2.0), ear: try ear(heads))?.phrase == "hey jarvis")
        #expect(judge(bothRoutes: false).consider(final("hey cordelia", utterance: 1, at: 2.0), ear: try ear(heads)) != nil)
    }
}
