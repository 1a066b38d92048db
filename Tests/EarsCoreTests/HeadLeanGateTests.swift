import Testing
@testable import EarsCore

/// The acoustic route heard only around a head's lean (`[wake] acoustic_on_lean`).
@Suite struct HeadLeanGateTests {
    /// Chunk `index` of a stream of 100 ms chunks whose samples count up from `index × 1,600`.
    private func chunk(_ index: Int) -> AudioChunk {
        let start = index * AudioFormat.chunkSamples
        return AudioChunk(samples: (start..<start + AudioFormat.chunkSamples).map { Int16(truncatingIfNeeded: $0) },
                          startSample: Int64(start))
    }

    /// Feeds chunks 0..<`count` through `gate` and a 3.5 s ring; `lean(i)` is
    /// what the heads report when chunk i arrives. Returns what each chunk admitted.
    private func run(_ gate: HeadLeanGate, chunks count: Int, leanBox: LeanBox, lean: (Int) -> Double?) -> [[AudioChunk]] {
        var ring = SampleRing(seconds: 3.5)
        return (0..<count).map { index in
            let current = chunk(index)
            ring.append(contentsOf: current.samples)
            leanBox.seconds = lean(index)
            return gate.admit(current, ring: ring)
        }
    }

    final class LeanBox { var seconds: Double? }

    @Test("without a lean nothing reaches the acoustic engine")
    func closedWithoutALean() {
        let box = LeanBox()
        let gate = HeadLeanGate { box.seconds }
        let admitted = run(gate, chunks: 50, leanBox: box) { _ in nil }
        #expect(admitted.allSatisfy { $0.isEmpty })
        #expect(gate.opens == 0 && gate.chunksSeen == 50 && gate.chunksAdmitted == 0)
    }

    @Test("a lean opens the gate with the 2.5 s before it, in stream order, and it closes 1 s after the lean")
    func opensAroundALean() {
        let box = LeanBox()
        let gate = HeadLeanGate { box.seconds }
        // The heads report a lean at 3.0 s when the chunk ending at 3.2 s arrives.
        let admitted = run(gate, chunks: 60, leanBox: box) { $0 >= 31 ? 3.0 : nil }
        #expect(admitted[..<31].allSatisfy { $0.isEmpty })
        let opening = admitted[31]
        #expect(opening.first?.startSample == Int64(AudioFormat.samples(inSeconds: 0.5)), "2.5 s before the lean at 3.0 s")
        #expect(opening.last?.startSample == chunk(31).startSample)
        let fed = opening.flatMap(\.samples)
        #expect(fed == (AudioFormat.samples(inSeconds: 0.5)..<Int(chunk(31).endSample)).map { Int16(truncatingIfNeeded: $0) },
                "the pre-roll is the ring's audio, contiguous up to the chunk")
        // Open through the chunk starting at 3.9 s (before 3.0 + 1.0 s), closed from 4.0 s.
        #expect(admitted[32...39].allSatisfy { $0.count == 1 })
        #expect(admitted[40...].allSatisfy { $0.isEmpty })
        #expect(gate.opens == 1)
    }

    @Test("a newer lean while open keeps the gate open without feeding anything twice")
    func aNewerLeanExtends() {
        let box = LeanBox()
        let gate = HeadLeanGate { box.seconds }
        let admitted = run(gate, chunks: 80, leanBox: box) { index in
            index >= 38 ? 4.4 : index >= 31 ? 3.0 : nil
        }
        #expect(admitted[32...53].allSatisfy { $0.count == 1 }, "open until 4.4 + 1.0 s")
        #expect(admitted[54...].allSatisfy { $0.isEmpty })
        let starts = admitted.flatMap { $0.map(\.startSample) }
        #expect(starts == starts.sorted() && Set(starts).count == starts.count)
        #expect(gate.opens == 1)
    }

    @Test("a second opening never feeds again what the first fed")
    func reopeningSkipsWhatWasFed() {
        let box = LeanBox()
        let gate = HeadLeanGate { box.seconds }
        // Lean at 3.0 s (open to 4.0 s), then at 5.5 s: its pre-roll would reach back to 3.0 s.
        let admitted = run(gate, chunks: 70, leanBox: box) { index in
            index >= 56 ? 5.5 : index >= 31 ? 3.0 : nil
        }
        #expect(admitted[56].first?.startSample == chunk(40).startSample, "from where the first opening stopped")
        #expect(gate.opens == 2)
    }

    @Test("the pre-roll never reaches back across a chunk the ear lost: the ring's older audio is from another time")
    func preRollStopsAtABreak() {
        let box = LeanBox()
        let gate = HeadLeanGate { box.seconds }
        var ring = SampleRing(seconds: 3.5)
        var opening: [AudioChunk] = []
        // Chunk 30 never arrives (a drop): from chunk 31 on, the ring's samples no longer line up with stream time.
        for index in (0..<36) where index != 30 {
            let current = chunk(index)
            ring.append(contentsOf: current.samples)
            box.seconds = index >= 33 ? 3.2 : nil
            let admitted = gate.admit(current, ring: ring)
            if index == 33 { opening = admitted }
        }
        #expect(opening.first?.startSample == chunk(31).startSample, "2.5 s before 3.2 s would be 0.7 s, across the break")
        #expect(opening.map(\.startSample) == [31, 32, 33].map { chunk($0).startSample })
    }

    @Test("reset forgets the lean: the same report does not reopen a new stream")
    func resetForgets() {
        let box = LeanBox()
        let gate = HeadLeanGate { box.seconds }
        _ = run(gate, chunks: 35, leanBox: box) { $0 >= 31 ? 3.0 : nil }
        gate.reset()
        box.seconds = nil
        let admitted = run(gate, chunks: 20, leanBox: box) { _ in nil }
        #expect(admitted.allSatisfy { $0.isEmpty } && !gate.isOpen)
    }

    @Test("the ear feeds its trained engine before asking the gate, so a lean in the same chunk opens it")
    func theEarAsksAfterTheHeads() throws {
        let heads = ScriptedTranscriber()
        let acoustic = ScriptedTranscriber()
        let gate = HeadLeanGate { heads.feeds > 21 ? 1.5 : nil }
        let ear = Ear(transcriber: acoustic, gate: gate, rawTranscriber: heads, monotonicSeconds: { 0 })
        try ear.start()
        for index in 0..<21 { _ = try ear.take(chunk(index)) }
        #expect(acoustic.feeds == 0, "no lean through chunk 20")
        _ = try ear.take(chunk(21))
        #expect(acoustic.feeds > 1, "chunk 21's own lean opened the gate, with its pre-roll")
    }
}
