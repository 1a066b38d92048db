import Foundation
import Testing
@testable import EarsCore

@Suite("The microphone's own noise under what the engines hear")
struct MicrophoneFloorTests {
    /// RMS level of `samples` in dBFS (0 dBFS: a full-scale square wave).
    private static func levelDecibels(_ samples: [Int16]) -> Double {
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 10 * log10(power / (32_768.0 * 32_768.0))
    }

    @Test("digital silence comes out at the floor's level, within half a decibel, as many samples as went in")
    func silenceBecomesTheFloor() {
        var floor = MicrophoneFloor()
        let out = floor.apply([Int16](repeating: 0, count: 160_000))
        #expect(out.count == 160_000)
        let level = Self.levelDecibels(out)
        #expect(abs(level - MicrophoneFloor.levelDecibels) < 0.5, "level \(level) dBFS")
        #expect(out.contains { $0 != 0 })
    }

    @Test("the noise is pink: its low band carries more power per hertz than its high band")
    func theNoiseFallsWithFrequency() {
        var floor = MicrophoneFloor()
        let out = floor.apply([Int16](repeating: 0, count: 64_000)).map(Double.init)
        // A first difference passes the highs and takes most of the lows: for
        // white noise its power is twice the signal's, for pink far less.
        let power = out.reduce(0) { $0 + $1 * $1 }
        let differencePower = zip(out.dropFirst(), out).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        #expect(differencePower < power, "difference \(differencePower) against \(power)")
    }

    @Test("loud audio passes within a few steps of itself, and the ends of the 16-bit range stay inside it")
    func loudAudioBarelyMovesAndSaturates() {
        var floor = MicrophoneFloor()
        let input: [Int16] = (0..<16_000).map { [Int16.max, Int16.min, 1_234, -5][$0 % 4] }
        let out = floor.apply(input)
        let moved = zip(input, out).map { abs(Int32($1) - Int32($0)) }
        #expect(moved.max() ?? 0 <= 60) // the noise's RMS is about 6.5 steps: 60 is over nine of them
        #expect(out.contains(Int16.max) && out.contains(Int16.min))
    }

    @Test("after reset the same audio gets the same noise, so a file scanned twice is heard alike")
    func resetRepeatsTheNoise() {
        var floor = MicrophoneFloor()
        let input = [Int16](repeating: 7, count: 1_600)
        let first = floor.apply(input)
        let second = floor.apply(input)
        floor.reset()
        #expect(floor.apply(input) == first)
        #expect(second != first)
    }

    @Test("every engine hears the floor under digital silence, and so does the heard ring; the ring a capture hands on keeps the zeros")
    func theEnginesHearItTheRingDoesNot() throws {
        let main = ScriptedTranscriber(), heads = ScriptedTranscriber()
        let ear = Ear(transcriber: main, rawTranscriber: heads, microphoneFloor: MicrophoneFloor(), monotonicSeconds: { 0 })
        try ear.start()
        let silence = [Int16](repeating: 0, count: 16_000)
        for chunk in GateSignal.chunks(silence) { _ = try ear.take(chunk) }
        for engine in [heads, main] {
            let heard = engine.fedSamples.flatMap { $0 }
            #expect(heard.count == silence.count)
            #expect(abs(Self.levelDecibels(heard) - MicrophoneFloor.levelDecibels) < 1.5)
        }
        #expect(heads.fedSamples == main.fedSamples)
        #expect(ear.ring.tail(16_000) == silence)
        #expect(ear.heardRing.tail(1_600) == main.fedSamples.last)
    }

    @Test("behind a speech gate without a suppressor the engine hears what the gate admits over the floor; without a floor, as it came")
    func aGatedEarFeedsTheFlooredAudio() throws {
        let audio = [Int16](repeating: 0, count: 8_000) + GateSignal.pcm(GateSignal.tone(seconds: 1))
            + [Int16](repeating: 0, count: 16_000)
        for floored in [true, false] {
            let main = ScriptedTranscriber()
            let ear = Ear(transcriber: main, gate: EnergySpeechGate(), microphoneFloor: floored ? MicrophoneFloor() : nil,
                          monotonicSeconds: { 0 })
            try ear.start()
            for chunk in GateSignal.chunks(audio) { _ = try ear.take(chunk) }
            #expect(!main.fedSamples.isEmpty)
            var changed = 0
            for (start, samples) in zip(main.fedStarts, main.fedSamples) {
                let original = audio[Int(start)..<Int(start) + samples.count]
                #expect(zip(samples, original).allSatisfy { abs(Int32($0) - Int32($1)) <= 60 })
                changed += zip(samples, original).count { $0 != $1 }
            }
            #expect((changed > 0) == floored)
        }
    }
}
