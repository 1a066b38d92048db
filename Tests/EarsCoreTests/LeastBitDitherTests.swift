import Testing
@testable import EarsCore

@Suite("The heads' least-bit dither")
struct LeastBitDitherTests {
    @Test("digital silence comes out as −1, 0 and +1 in about equal shares, as many samples as went in")
    func silenceBecomesTheFaintestNoise() {
        var dither = LeastBitDither()
        let out = dither.apply([Int16](repeating: 0, count: 30_000))
        #expect(out.count == 30_000)
        #expect(out.allSatisfy { (-1...1).contains($0) })
        for value: Int16 in [-1, 0, 1] {
            let share = Double(out.count { $0 == value }) / Double(out.count)
            #expect(share > 0.31 && share < 0.36, "share of \(value): \(share)")
        }
    }

    @Test("no sample moves by more than one step, and the ends of the 16-bit range stay inside it")
    func oneStepAtMostAndSaturating() {
        var dither = LeastBitDither()
        let input: [Int16] = (0..<3_000).map { [Int16.max, Int16.min, 1_234, -5][$0 % 4] }
        let out = dither.apply(input)
        for (before, after) in zip(input, out) {
            #expect(abs(Int32(after) - Int32(before)) <= 1)
        }
        #expect(out.contains(Int16.max) && out.contains(Int16.max - 1))
        #expect(out.contains(Int16.min) && out.contains(Int16.min + 1))
    }

    @Test("after reset the same audio is dithered the same way, so a file scanned twice is heard alike")
    func resetRepeatsTheNoise() {
        var dither = LeastBitDither()
        let input = [Int16](repeating: 7, count: 1_600)
        let first = dither.apply(input)
        let second = dither.apply(input)
        dither.reset()
        #expect(dither.apply(input) == first)
        #expect(second != first)
    }

    @Test("every engine hears dithered digital silence, and so does the heard ring; the ring a capture hands on keeps the zeros")
    func theEnginesHearItTheRingDoesNot() throws {
        let main = ScriptedTranscriber(), heads = ScriptedTranscriber()
        let ear = Ear(transcriber: main, rawTranscriber: heads, dither: LeastBitDither(), monotonicSeconds: { 0 })
        try ear.start()
        let silence = [Int16](repeating: 0, count: 16_000)
        for chunk in GateSignal.chunks(silence) { _ = try ear.take(chunk) }
        for engine in [heads, main] {
            let heard = engine.fedSamples.flatMap { $0 }
            #expect(heard.count == silence.count)
            #expect(heard.contains { $0 != 0 } && heard.allSatisfy { abs($0) <= 1 })
        }
        #expect(heads.fedSamples == main.fedSamples)
        #expect(ear.ring.tail(16_000) == silence)
        #expect(ear.heardRing.tail(1_600) == main.fedSamples.last)
    }

    @Test("behind a speech gate without a suppressor the engine hears what the gate admits dithered; without a dither, as it came")
    func aGatedEarFeedsTheDitheredAudio() throws {
        let audio = [Int16](repeating: 0, count: 8_000) + GateSignal.pcm(GateSignal.tone(seconds: 1))
            + [Int16](repeating: 0, count: 16_000)
        for dithered in [true, false] {
            let main = ScriptedTranscriber()
            let ear = Ear(transcriber: main, gate: EnergySpeechGate(), dither: dithered ? LeastBitDither() : nil,
                          monotonicSeconds: { 0 })
            try ear.start()
            for chunk in GateSignal.chunks(audio) { _ = try ear.take(chunk) }
            #expect(!main.fedSamples.isEmpty)
            var changed = 0
            for (start, samples) in zip(main.fedStarts, main.fedSamples) {
                let original = audio[Int(start)..<Int(start) + samples.count]
                #expect(zip(samples, original).allSatisfy { abs(Int32($0) - Int32($1)) <= 1 })
                changed += zip(samples, original).count { $0 != $1 }
            }
            #expect((changed > 0) == dithered)
        }
    }
}
