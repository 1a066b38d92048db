import Testing
@testable import EarsPocketSphinx

/// The spotter's record of reported keyphrase detections, without the engine.
struct SpottingLedgerTests {
    typealias Detection = SpottingLedger.Detection

    @Test func eachDetectionIsReportedOnceOldestFirst() {
        var ledger = SpottingLedger()
        let alexa = Detection(phrase: "alexa", startFrame: 40, endFrame: 95)
        let cordelia = Detection(phrase: "hey cordelia", startFrame: 80, endFrame: 160)
        // The search lists the newest first.
        #expect(ledger.fresh([alexa]) == [alexa])
        #expect(ledger.fresh([cordelia, alexa]) == [cordelia])
        #expect(ledger.fresh([cordelia, alexa]).isEmpty)
    }

    @Test func aDetectionWidenedByLessThanASyllableIsTheSameSounds() {
        var ledger = SpottingLedger()
        #expect(ledger.fresh([Detection(phrase: "okay nabu", startFrame: 50, endFrame: 110)]).count == 1)
        // The search replaced it by a better-scoring overlapping one a few frames longer.
        let widened = Detection(phrase: "okay nabu", startFrame: 60, endFrame: 110 + SpottingLedger.widenedFrames - 1)
        #expect(ledger.fresh([widened]).isEmpty)
        // A later saying of the phrase, after the reported one ended, is new.
        let again = Detection(phrase: "okay nabu", startFrame: 111, endFrame: 170)
        #expect(ledger.fresh([again]) == [again])
    }

    @Test func aDetectionThatWentOnPastAPrematureSpottingIsReportedAgain() {
        var ledger = SpottingLedger()
        // Spotted on "okay na…", 0.4 s before the phrase ended.
        #expect(ledger.fresh([Detection(phrase: "okay nabu", startFrame: 50, endFrame: 110)]).count == 1)
        let whole = Detection(phrase: "okay nabu", startFrame: 55, endFrame: 150)
        #expect(ledger.fresh([whole]) == [whole])
        // Reported once: listed again, it is not new.
        #expect(ledger.fresh([whole]).isEmpty)
    }

    @Test func anotherPhraseOverlappingAReportedOneIsStillReported() {
        var ledger = SpottingLedger()
        _ = ledger.fresh([Detection(phrase: "alexa", startFrame: 40, endFrame: 95)])
        let overlapping = Detection(phrase: "hey jarvis", startFrame: 45, endFrame: 130)
        #expect(ledger.fresh([overlapping]) == [overlapping])
    }

    @Test func twoNewDetectionsInOneListComeOldestFirst() {
        var ledger = SpottingLedger()
        let early = Detection(phrase: "alexa", startFrame: 10, endFrame: 60)
        let late = Detection(phrase: "hey mycroft", startFrame: 70, endFrame: 140)
        #expect(ledger.fresh([late, early]) == [early, late])
    }

    @Test func aResetForgetsWhatWasReported() {
        var ledger = SpottingLedger()
        let alexa = Detection(phrase: "alexa", startFrame: 40, endFrame: 95)
        _ = ledger.fresh([alexa])
        ledger.reset()
        // A new utterance numbers its frames from 0 again.
        #expect(ledger.fresh([alexa]) == [alexa])
    }
}
