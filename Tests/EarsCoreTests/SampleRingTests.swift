import Testing
@testable import EarsCore

@Suite struct SampleRingTests {
    @Test func ringNeverHoldsMoreThanThreeAndAHalfSeconds() {
        var ring = SampleRing(seconds: Ear.ringSeconds)
        #expect(ring.capacity == 56_000)
        let chunk = [Int16](repeating: 7, count: AudioFormat.chunkSamples)
        for _ in 0..<100 { ring.append(contentsOf: chunk) } // 10 s of audio
        #expect(ring.count == 56_000)
        #expect(ring.heldSeconds == 3.5)
        #expect(ring.totalAppended == 160_000)
    }

    @Test func ringNeverReallocatesItsStorage() {
        var ring = SampleRing(seconds: Ear.ringSeconds)
        let before = ring.storageCapacity
        for step in 0..<300 { ring.append(contentsOf: [Int16](repeating: Int16(step), count: 1_600 + step)) }
        #expect(ring.storageCapacity == before)
        #expect(before >= 56_000 && before < 2 * 56_000)
    }

    @Test func tailReturnsTheNewestSamplesOldestFirst() {
        var ring = SampleRing(capacity: 5)
        ring.append(contentsOf: [1, 2, 3])
        ring.append(contentsOf: [4, 5, 6, 7])
        #expect(ring.tail(5) == [3, 4, 5, 6, 7])
        #expect(ring.tail(2) == [6, 7])
        #expect(ring.tail(99) == [3, 4, 5, 6, 7])
    }

    @Test func oneAppendLargerThanTheRingKeepsOnlyItsEnd() {
        var ring = SampleRing(capacity: 4)
        ring.append(contentsOf: Array(1...10).map(Int16.init))
        #expect(ring.tail(4) == [7, 8, 9, 10])
        #expect(ring.count == 4)
    }

    @Test func removeAllForgetsEverySample() {
        var ring = SampleRing(capacity: 8)
        ring.append(contentsOf: [1, 2, 3])
        ring.removeAll()
        #expect(ring.count == 0)
        #expect(ring.tail(8).isEmpty)
        ring.append(contentsOf: [9])
        #expect(ring.tail(8) == [9])
    }
}
