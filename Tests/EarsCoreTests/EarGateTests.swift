import Testing
@testable import EarsCore

/// A gate that answers from a script: for chunk number N it returns that many
/// copies of the chunk (0 means "closed"), so the ear's bookkeeping is tested
/// apart from any detector.
private final class ScriptedGate: SpeechGate {
    var buffersPerChunk: [Int]
    private(set) var seen = 0
    private(set) var resets = 0
    init(buffersPerChunk: [Int]) { self.buffersPerChunk = buffersPerChunk }
    func admit(_ chunk: AudioChunk, ring: SampleRing) -> [AudioChunk] {
        defer { seen += 1 }
        let copies = seen < buffersPerChunk.count ? buffersPerChunk[seen] : 1
        return [AudioChunk](repeating: chunk, count: copies)
    }
    func reset() { resets += 1 }
}

@Suite struct EarGateTests {
    /// 2.03 s of silence, 1 s of speech-like sound at −20 dBFS, silence to 7 s: 70 chunks.
    private let samples = GateSignal.pcm(GateSignal.mixed(GateSignal.silence(seconds: 7),
                                                          GateSignal.speech(seconds: 1, decibels: -20),
                                                          at: GateSignal.count(2.03)))

    @Test func withTheEnergyGateTheMeterCountsEveryChunkButFedCountsOnlyAdmittedBuffers() throws {
        let gate = EnergySpeechGate()
        let transcriber = ScriptedTranscriber()
        let ear = Ear(transcriber: transcriber, gate: gate, monotonicSeconds: { 0 })
        try ear.start()
        for chunk in GateSignal.chunks(samples) { _ = try ear.take(chunk) }
        #expect(ear.meter.chunks == 70)
        #expect(ear.meter.fed == gate.chunksAdmitted + gate.preRollBuffersAdmitted)
        #expect(transcriber.feeds == ear.meter.fed)
        // About 0.3 s pre-roll + 1 s speech + 1 s hangover out of 7 s.
        #expect(ear.meter.fed >= 22 && ear.meter.fed <= 27, "fed \(ear.meter.fed)")
        // The meter's level comes from every chunk, gated or not.
        #expect(ear.meter.loudest == GateSignal.chunks(samples).map(\.peakLevel).max())
    }

    @Test func withoutAGateEveryChunkIsFed() throws {
        let transcriber = ScriptedTranscriber()
        let ear = Ear(transcriber: transcriber, monotonicSeconds: { 0 })
        try ear.start()
        for chunk in GateSignal.chunks(samples) { _ = try ear.take(chunk) }
        #expect(ear.meter.chunks == 70 && ear.meter.fed == 70 && transcriber.feeds == 70)
    }

    @Test func fedCountsBuffersAndPiecesFromEveryAdmittedBufferComeBack() throws {
        // Chunk 0 closed, chunk 1 opens with two buffers (a pre-roll and itself), chunk 2 passes.
        let transcriber = ScriptedTranscriber(script: [1: [volatile("hey", utterance: 1, at: 0.2)],
                                                       2: [final("hey there", utterance: 1, at: 0.3)]])
        let gate = ScriptedGate(buffersPerChunk: [0, 2, 1])
        let ear = Ear(transcriber: transcriber, gate: gate, monotonicSeconds: { 0 })
        try ear.start()
        let chunks = GateSignal.chunks(samples)
        #expect(try ear.take(chunks[0]).isEmpty)
        #expect(try ear.take(chunks[1]).map(\.text) == ["hey"])
        #expect(try ear.take(chunks[2]).map(\.text) == ["hey there"])
        #expect(ear.meter.chunks == 3 && ear.meter.fed == 3 && ear.meter.results == 2)
        #expect(transcriber.feeds == 3)
    }

    @Test func theRingHoldsEveryChunkEvenWhileTheGateIsClosed() throws {
        let ear = Ear(transcriber: ScriptedTranscriber(), gate: ScriptedGate(buffersPerChunk: [Int](repeating: 0, count: 70)),
                      monotonicSeconds: { 0 })
        try ear.start()
        for chunk in GateSignal.chunks(samples) { _ = try ear.take(chunk) }
        #expect(ear.meter.fed == 0)
        #expect(ear.ring.count == 56_000)
        #expect(ear.ring.tail(56_000) == Array(samples.suffix(56_000)))
    }

    @Test func startingTheEarResetsTheGate() throws {
        let gate = EnergySpeechGate()
        let ear = Ear(transcriber: ScriptedTranscriber(), gate: gate, monotonicSeconds: { 0 })
        try ear.start()
        for chunk in GateSignal.chunks(samples).prefix(30) { _ = try ear.take(chunk) }
        #expect(gate.isOpen)
        try ear.start()
        #expect(!gate.isOpen)
        #expect(gate.noiseFloorDecibels == nil)
    }
}
