import EarsCore
import Testing

/// The noise front end's frame handling and where denoised audio goes.
@Suite struct NoiseFrontEndTests {
    @Test("every frame handed to the processor is exactly one frame long, and the output has the input's length")
    func framesAreWholeAndOutputKeepsItsLength() {
        let chunker = FrameChunker(frameSamples: 160)
        var lengths: [Int] = []
        let input = (0..<1650).map { Int16($0 % 300) }
        let output = chunker.map(input) { frame in lengths.append(frame.count) }
        #expect(output == input)
        #expect(lengths == Array(repeating: 160, count: 11))
        #expect(chunker.frameCount(forSamples: 1600) == 10)
        #expect(chunker.frameCount(forSamples: 1601) == 11)
    }

    @Test("a short last frame is padded with zeros for the processor and cut back afterwards")
    func aShortTailIsPaddedThenCut() {
        let chunker = FrameChunker(frameSamples: 4)
        var seen: [[Int16]] = []
        let output = chunker.map([1, 2, 3, 4, 5, 6]) { frame in
            seen.append(frame)
            for index in frame.indices { frame[index] *= 10 }
        }
        #expect(seen == [[1, 2, 3, 4], [5, 6, 0, 0]])
        #expect(output == [10, 20, 30, 40, 50, 60])
    }

    @Test("no samples make no frames")
    func emptyInputMakesNoFrames() {
        var calls = 0
        #expect(FrameChunker(frameSamples: 160).map([]) { _ in calls += 1 }.isEmpty)
        #expect(calls == 0)
    }

    @Test("the ring keeps the raw audio while the engine and the heard ring get the denoised audio")
    func theRingStaysRawAndTheEngineHearsDenoised() throws {
        let transcriber = ScriptedTranscriber()
        let ear = Ear(transcriber: transcriber, suppressor: Halver(), monotonicSeconds: { 0 })
        try ear.start()
        let raw = [Int16](repeating: 1000, count: 1600)
        _ = try ear.take(AudioChunk(samples: raw, startSample: 0))
        #expect(ear.ring.tail(1600) == raw)
        #expect(ear.heardRing.tail(1600) == [Int16](repeating: 500, count: 1600))
        #expect(transcriber.fedSamples.last == [Int16](repeating: 500, count: 1600))
        #expect(ear.heardAudio(fromSample: 800, toSample: 1000) == [Int16](repeating: 500, count: 200))
        #expect(ear.heardAudio(fromSample: 2000, toSample: 3000).isEmpty)
    }

    @Test("the heard ring, like the raw ring, never holds more than 3.5 s after a minute of audio")
    func theHeardRingHoldsAtMostThreeAndAHalfSeconds() throws {
        let ear = Ear(transcriber: ScriptedTranscriber(), suppressor: Halver(), monotonicSeconds: { 0 })
        try ear.start()
        for index in 0..<600 {
            _ = try ear.take(AudioChunk(samples: [Int16](repeating: 7, count: 1600), startSample: Int64(index) * 1600))
        }
        #expect(ear.heardRing.count == 56_000)
        #expect(ear.ring.count == 56_000)
        #expect(ear.heardAudio(fromSample: 0, toSample: 600 * 1600).count == 56_000)
    }

    @Test("the trained engine hears the audio as captured unless it is asked to hear it denoised")
    func theRawEngineHearsDenoisedOnlyWhenAsked() throws {
        let raw = [Int16](repeating: 1000, count: 1600)
        for denoised in [false, true] {
            let main = ScriptedTranscriber(), trained = ScriptedTranscriber()
            let ear = Ear(transcriber: main, suppressor: Halver(), rawTranscriber: trained, rawHearsDenoised: denoised,
                          monotonicSeconds: { 0 })
            try ear.start()
            _ = try ear.take(AudioChunk(samples: raw, startSample: 0))
            #expect(main.fedSamples.last == raw.map { $0 / 2 })
            #expect(trained.fedSamples.last == (denoised ? raw.map { $0 / 2 } : raw), "rawHearsDenoised: \(denoised)")
        }
    }

    @Test("without a suppressor the engine hears the raw audio")
    func noSuppressorFeedsRaw() throws {
        let transcriber = ScriptedTranscriber()
        let ear = Ear(transcriber: transcriber, monotonicSeconds: { 0 })
        try ear.start()
        let raw = [Int16](repeating: 1000, count: 1600)
        _ = try ear.take(AudioChunk(samples: raw, startSample: 0))
        #expect(transcriber.fedSamples.last == raw)
        #expect(ear.heardRing.tail(1600) == raw)
    }
}

/// A "suppressor" that halves every sample, so the test can tell which audio went where.
private final class Halver: NoiseSuppressor {
    let label = "halver"
    func denoise(_ samples: [Int16]) -> [Int16] { samples.map { $0 / 2 } }
    func reset() {}
}
