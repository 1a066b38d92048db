import Testing
@testable import EarsSystemd

/// The watchdog pings only while the audio loop's heartbeat is fresh.
@Suite struct LoopWatchdogTests {
    @Test func aLiveLoopIsPingedEveryHalfPeriod() {
        var dog = LoopWatchdog(watchdogSeconds: 30)
        #expect(dog.pingIntervalSeconds == 15)
        #expect(dog.tickSeconds == 1)
        var pings: [Double] = []
        for second in 0...60 {
            let now = Double(second)
            if dog.tick(now: now, lastBeatAt: now - 0.05) == .ping { pings.append(now) }
        }
        #expect(pings == [0, 15, 30, 45, 60])
    }

    @Test func aStuckLoopStopsThePingsAndSaysSoOnce() {
        var dog = LoopWatchdog(watchdogSeconds: 30)
        #expect(dog.tick(now: 0, lastBeatAt: 0) == .ping)
        // The loop's last turn was at 4 s; it stays stuck, so by the ping due
        // at 15 s its heartbeat is 11 s old.
        var decisions: [LoopWatchdog.Decision] = []
        for second in 6...40 { decisions.append(dog.tick(now: Double(second), lastBeatAt: 4)) }
        #expect(!decisions.contains(.ping))
        #expect(decisions.filter { $0 == .holdBecauseStalled(newly: true) }.count == 1)
        #expect(dog.stalled)
        #expect(decisions[9] == .holdBecauseStalled(newly: true))
        #expect(decisions.suffix(from: 10).allSatisfy { $0 == .holdBecauseStalled(newly: false) })
    }

    @Test func aLoopThatTurnsAgainIsPingedAtOnce() {
        var dog = LoopWatchdog(watchdogSeconds: 2)
        #expect(dog.tick(now: 0, lastBeatAt: 0) == .ping)
        #expect(dog.tick(now: 2, lastBeatAt: 0.5) == .holdBecauseStalled(newly: true))
        #expect(dog.tick(now: 2.5, lastBeatAt: 2.4) == .recovered)
        #expect(!dog.stalled)
        #expect(dog.tick(now: 3.0, lastBeatAt: 2.9) == .wait)
        #expect(dog.tick(now: 3.5, lastBeatAt: 3.4) == .ping)
    }

    @Test func staleMeansTenSecondsAtMostAndHalfTheWatchdogAtLeast() {
        #expect(LoopWatchdog(watchdogSeconds: 60).staleAfterSeconds == 10)
        #expect(LoopWatchdog(watchdogSeconds: 4).staleAfterSeconds == 2)
        #expect(LoopWatchdog(watchdogSeconds: 0.2).staleAfterSeconds == 0.5)
    }
}
