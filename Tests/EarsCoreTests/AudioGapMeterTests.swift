import Testing
@testable import EarsCore

/// Audio time lost between the device and ears, from the wall clock and the audio delivered.
@Suite struct AudioGapMeterTests {
    /// Feeds `seconds` of 100 ms chunks arriving at real time from `start`
    /// (plus `latency` per read); returns the time after the last.
    @discardableResult
    private func feed(_ meter: inout AudioGapMeter, from start: Double, seconds: Double, latency: Double = 0.002) -> Double {
        var now = start
        for _ in 0..<Int((seconds / 0.1).rounded()) {
            now += 0.1
            meter.delivered(audioSeconds: 0.1, atSeconds: now + latency)
        }
        return now
    }

    @Test("audio arriving at real time loses nothing")
    func realTimeLosesNothing() {
        var meter = AudioGapMeter()
        meter.opened(atSeconds: 100)
        feed(&meter, from: 100, seconds: 600)
        #expect(meter.lostSeconds == 0)
    }

    @Test("a stall of 3 s counts about 3 s, once, however long listening goes on after")
    func aStallCountsOnce() {
        var meter = AudioGapMeter()
        meter.opened(atSeconds: 0)
        var now = feed(&meter, from: 0, seconds: 10)
        now += 3 // SIGSTOP: nothing delivered for 3 s, and the device dropped it
        now = feed(&meter, from: now, seconds: 5)
        let lost = meter.lostSeconds
        #expect(lost >= 3 - AudioGapMeter.toleranceSeconds - 0.05 && lost <= 3.05, "\(lost)")
        feed(&meter, from: now, seconds: 60)
        #expect(meter.lostSeconds == lost)
        #expect(meter.gaps == 1)
    }

    @Test("an owner that was late but read the buffered audio in a burst lost nothing")
    func lateButCaughtUpLosesNothing() {
        var meter = AudioGapMeter()
        meter.opened(atSeconds: 0)
        var now = feed(&meter, from: 0, seconds: 5)
        // 0.9 s late: then the 9 buffered chunks come at once, and real time resumes.
        now += 0.9
        for _ in 0..<9 { meter.delivered(audioSeconds: 0.1, atSeconds: now) }
        feed(&meter, from: now, seconds: 5)
        #expect(meter.lostSeconds == 0)
    }

    @Test("jitter under the tolerance is never counted")
    func jitterIsNotCounted() {
        var meter = AudioGapMeter()
        meter.opened(atSeconds: 0)
        var now = 0.0
        for n in 0..<3_000 {
            now += 0.1
            let jitter = Double(n % 7) * 0.05 // up to 0.3 s late, then back
            meter.delivered(audioSeconds: 0.1, atSeconds: now + jitter)
        }
        #expect(meter.lostSeconds == 0)
    }

    @Test("a sound card's clock drifting slow by 0.05 % for a day is not a gap")
    func driftIsNotAGap() {
        var meter = AudioGapMeter()
        meter.opened(atSeconds: 0)
        var now = 0.0
        for _ in 0..<864_000 {
            now += 0.1 * 1.0005
            meter.delivered(audioSeconds: 0.1, atSeconds: now)
        }
        #expect(meter.lostSeconds == 0)
    }

    @Test("reopening the source starts over, and the total carries on")
    func reopeningStartsOver() {
        var meter = AudioGapMeter()
        meter.opened(atSeconds: 0)
        var now = feed(&meter, from: 0, seconds: 2)
        now += 5
        now = feed(&meter, from: now, seconds: 2)
        let first = meter.lostSeconds
        #expect(first > 4)
        // The device went away for a minute and reopened: the closed time is not a gap.
        now += 60
        meter.opened(atSeconds: now)
        feed(&meter, from: now, seconds: 5)
        #expect(meter.lostSeconds == first)
    }

    @Test("before the source opens nothing counts")
    func nothingBeforeOpen() {
        var meter = AudioGapMeter()
        #expect(meter.delivered(audioSeconds: 0.1, atSeconds: 50) == 0)
        #expect(meter.lostSeconds == 0)
    }
}
