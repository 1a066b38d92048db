import Testing
@testable import EarsCore

/// The ear's queue: bounded, oldest undecoded dropped and counted.
@Suite struct DecodeBacklogTests {
    @Test("elements come out in the order they went in")
    func elementsComeOutInOrder() {
        var backlog = DecodeBacklog<Int>(capacity: 4)
        for n in 1...3 { backlog.push(n) }
        #expect(backlog.pop() == 1)
        #expect(backlog.pop() == 2)
        #expect(backlog.pop() == 3)
        #expect(backlog.pop() == nil)
        #expect(backlog.dropped == 0)
    }

    @Test("a full backlog drops its oldest undecoded element and counts it")
    func aFullBacklogDropsItsOldest() {
        var backlog = DecodeBacklog<Int>(capacity: 3)
        var droppedNow: [Int] = []
        for n in 1...5 { droppedNow.append(backlog.push(n)) }
        #expect(droppedNow == [0, 0, 0, 1, 1])
        #expect(backlog.dropped == 2)
        #expect(backlog.count == 3)
        // The newest audio survives: a phrase can still be in it.
        #expect(backlog.pop() == 3)
        #expect(backlog.pop() == 4)
        #expect(backlog.pop() == 5)
    }

    @Test("a decoder that never pops holds at most the capacity, however much is pushed")
    func neverMoreThanTheCapacity() {
        var backlog = DecodeBacklog<Int>(capacity: DecodeBacklog<Int>.defaultCapacityChunks)
        for n in 0..<10_000 {
            backlog.push(n)
            #expect(backlog.count <= backlog.capacity)
        }
        #expect(backlog.dropped == 10_000 - backlog.capacity)
        #expect(backlog.pop() == 10_000 - backlog.capacity)
    }

    @Test("the default bound is well under the 3.5 s ring, so a late wake still finds the phrase in its pre-roll")
    func theDefaultBoundIsWellUnderTheRing() {
        // The oldest chunk's wake comes back at most the backlog plus the
        // chunk being read late; what the ring still holds before the wake
        // must cover a spoken phrase.
        let lateChunks = DecodeBacklog<Int>.defaultCapacityChunks + 1
        let lateSeconds = Double(lateChunks * AudioFormat.chunkSamples) / Double(AudioFormat.sampleRate)
        #expect(Ear.ringSeconds - lateSeconds >= DecodeBacklog<Int>.minimumLateWakePreRollSeconds)
        #expect(DecodeBacklog<Int>.minimumLateWakePreRollSeconds <= CaptureLimits.wakePreRollSeconds)
        // And it is long enough to ride out a second's hiccup without dropping.
        #expect(lateSeconds > 1.0)
    }

    @Test("clearing a closed stream's chunks is not counted as dropping them")
    func clearingIsNotDropping() {
        var backlog = DecodeBacklog<Int>(capacity: 2)
        backlog.push(1)
        backlog.push(2)
        backlog.removeAll()
        #expect(backlog.isEmpty)
        #expect(backlog.dropped == 0)
    }
}
