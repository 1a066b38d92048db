import EarsCore
import Testing
import EarsPhonetics

/// Both routes' bookkeeping (`[wake] both_routes`): an acoustic detection of
/// a phrase with a head waits for that head's agreement, briefly.
@Suite struct HeadAgreementLedgerTests {
    static func wake(_ phrase: String, at seconds: Double) -> WakeEvent {
        WakeEvent(phrase: phrase, score: 0.9, audioSeconds: seconds, utterance: 1)
    }

    @Test("a head's peak up to 2 s before or 0.5 s after an acoustic detection agrees with it, and only for its phrase")
    func agreementWindow() {
        var ledger = HeadAgreementLedger(beforeSeconds: 2, afterSeconds: 0.5)
        ledger.note([(phrase: "hey jarvis", audioSeconds: 10.0)])
        #expect(ledger.agrees("hey jarvis", at: 11.9))
        #expect(ledger.agrees("hey jarvis", at: 9.6))
        #expect(!ledger.agrees("hey jarvis", at: 12.1), "a peak more than 2 s before is another utterance")
        #expect(!ledger.agrees("hey jarvis", at: 9.4), "a peak more than 0.5 s after is another utterance")
        #expect(!ledger.agrees("alexa", at: 10.0), "another phrase's head does not vouch for this one")
    }

    @Test("a waiting detection wakes when its head agrees within the wait, and is refused when the wait runs out")
    func waitingSettles() {
        var ledger = HeadAgreementLedger(beforeSeconds: 2, afterSeconds: 0.5)
        ledger.wait(Self.wake("alexa", at: 5.0), at: 5.0)
        ledger.wait(Self.wake("hey jarvis", at: 5.2), at: 5.2)
        var settled = ledger.settle(nowSeconds: 5.3)
        #expect(settled.wakes.isEmpty && settled.refused == 0, "both still within their wait")
        ledger.note([(phrase: "alexa", audioSeconds: 5.25)])
        settled = ledger.settle(nowSeconds: 5.4)
        #expect(settled.wakes == [Self.wake("alexa", at: 5.0)] && settled.refused == 0)
        settled = ledger.settle(nowSeconds: 5.8)
        #expect(settled.wakes.isEmpty && settled.refused == 1, "hey jarvis waited past 5.7 s without its head")
        #expect(ledger.waiting.isEmpty)
    }

    @Test("old agreements are forgotten once nothing can use them, and reset forgets all")
    func forgetting() {
        var ledger = HeadAgreementLedger(beforeSeconds: 2, afterSeconds: 0.5)
        ledger.note([(phrase: "alexa", audioSeconds: 1.0), (phrase: "alexa", audioSeconds: 9.0)])
        _ = ledger.settle(nowSeconds: 10.0)
        #expect(ledger.agreements.map(\.audioSeconds) == [9.0])
        ledger.wait(Self.wake("alexa", at: 30), at: 30)
        ledger.reset()
        #expect(ledger.waiting.isEmpty && ledger.agreements.isEmpty)
    }
}
