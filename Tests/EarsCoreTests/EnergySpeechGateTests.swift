import Foundation
import Testing
@testable import EarsCore

@Suite struct EnergySpeechGateTests {
    private let burstStart = GateSignal.count(2.03) // mid-chunk, like real speech
    private let burstEnd = GateSignal.count(3.03)

    /// 2.03 s of `background`, 1 s of speech at −20 dBFS, then background to 7 s.
    private func speechAfter(_ background: [Double]) -> [Int16] {
        GateSignal.pcm(GateSignal.mixed(background, GateSignal.speech(seconds: 1, decibels: -20), at: burstStart))
    }

    /// Fails the test unless each buffer starts where the one before ended.
    private func expectContiguous(_ buffers: [AudioChunk], sourceLocation: SourceLocation = #_sourceLocation) {
        for (before, after) in zip(buffers, buffers.dropFirst()) {
            #expect(after.startSample == before.endSample, sourceLocation: sourceLocation)
        }
    }

    @Test func digitalSilenceFeedsNothing() {
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, GateSignal.pcm(GateSignal.silence(seconds: 10)))
        #expect(fed.allSatisfy { $0.isEmpty })
        #expect(gate.chunksSeen == 100)
        #expect(gate.noiseFloorDecibels == -.infinity)
    }

    @Test func steadyWhitePinkRumblingOrBrownNoiseAtMinus30DecibelsFeedsNothingFromTheFirstChunk() {
        // Settling time is zero when the noise is there from the start: the
        // floor is the quietest level so far, so it is learnt from frame one.
        // The floor is of high-passed sound, so it is under the noise's RMS by
        // how much of the noise is below 160 Hz: under 1 dB for white noise,
        // about 18 dB for brown noise.
        let cases: [([Double], ClosedRange<Double>)] = [
            (GateSignal.whiteNoise(seconds: 10, decibels: -30, seed: 1), -31.5 ... -30),
            (GateSignal.pinkNoise(seconds: 10, decibels: -30, seed: 2), -36 ... -33),
            (GateSignal.rumble(seconds: 10, decibels: -30, seed: 11), -40 ... -35),
            (GateSignal.brownNoise(seconds: 10, decibels: -30, seed: 13), -51 ... -46),
        ]
        for (noise, floorRange) in cases {
            let gate = EnergySpeechGate()
            let fed = GateSignal.run(gate, GateSignal.pcm(noise))
            #expect(fed.allSatisfy { $0.isEmpty })
            #expect(gate.speechOnsets == 0)
            let floor = gate.noiseFloorDecibels ?? 0
            #expect(floorRange.contains(floor), "floor \(floor) dBFS")
        }
    }

    @Test func rumbleOrPinkNoiseThatStartsAfterSilenceIsAbsorbedWithinTheFloorWindowPlusTheHangover() {
        // Rumble passes the zero-crossing cue (pink noise is on its edge), so
        // the floor must absorb it: within 1.0 s (floor window) + 1.0 s
        // (hangover) + one chunk, even though the floor was digital silence.
        let start = GateSignal.count(2)
        for (noise, onsets) in [(GateSignal.rumble(seconds: 8, decibels: -30, seed: 3), 1...1),
                                (GateSignal.pinkNoise(seconds: 8, decibels: -30, seed: 12), 0...1)] {
            let gate = EnergySpeechGate()
            let fed = GateSignal.run(gate, GateSignal.pcm(GateSignal.mixed(GateSignal.silence(seconds: 10), noise, at: start)))
            let buffers = fed.flatMap { $0 }
            #expect(onsets.contains(gate.speechOnsets))
            #expect(buffers.allSatisfy { $0.endSample <= Int64(start + GateSignal.count(2.1)) })
            #expect(fed.suffix(59).allSatisfy { $0.isEmpty }) // from 4.1 s on
        }
    }

    @Test func whiteNoiseThatStartsSuddenlyNeverOpensTheGate() {
        // The floor still says "silence" for a second; the zero-crossing cue is what keeps hiss out.
        let noise = GateSignal.whiteNoise(seconds: 8, decibels: -30, seed: 4)
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, GateSignal.pcm(GateSignal.mixed(GateSignal.silence(seconds: 10), noise, at: GateSignal.count(2))))
        #expect(fed.allSatisfy { $0.isEmpty })
        #expect(gate.speechOnsets == 0)
    }

    @Test func speechAfterSilenceIsAdmittedFromThreeTenthsOfASecondBeforeItsFirstSample() throws {
        let samples = speechAfter(GateSignal.silence(seconds: 7))
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, samples)
        let buffers = fed.flatMap { $0 }
        let onsetChunk = try #require(fed.firstIndex { !$0.isEmpty })
        let first = try #require(buffers.first)
        #expect(gate.speechOnsets == 1)
        // The onset is heard within 0.2 s of the first sample; the pre-roll
        // reaches 0.3 s before the audio of the first voiced 30 ms level,
        // which starts at most 30 ms before the burst (and not after it: the
        // sin² envelope passes −55 dBFS within the first 10 ms).
        #expect(Int64(onsetChunk * AudioFormat.chunkSamples) <= Int64(burstStart + GateSignal.count(0.2)))
        let lead = Double(Int64(burstStart) - first.startSample) / GateSignal.rate
        #expect(lead >= 0.3 && lead <= 0.33, "the admitted audio starts \(lead) s before the burst")
        #expect(fed[onsetChunk].last?.startSample == Int64(onsetChunk * AudioFormat.chunkSamples))
        #expect(fed[onsetChunk].allSatisfy { $0.samples.count <= AudioFormat.chunkSamples })
        expectContiguous(buffers)
        // What was admitted is the audio itself, at its own time.
        for buffer in buffers {
            let start = Int(buffer.startSample)
            #expect(buffer.samples == Array(samples[start..<start + buffer.samples.count]))
        }
    }

    @Test func speechFromTheVeryFirstSampleIsAdmittedFromTheFirstSample() throws {
        // A file that starts talking at once: there is nothing to pre-roll,
        // so the gate must open on the first chunks and lose none of them.
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, GateSignal.pcm(GateSignal.mixed(GateSignal.silence(seconds: 3),
                                                                       GateSignal.speech(seconds: 1, decibels: -20), at: 0)))
        let buffers = fed.flatMap { $0 }
        #expect(buffers.first?.startSample == 0)
        #expect(gate.speechOnsets == 1)
        expectContiguous(buffers)
    }

    @Test func fiveSecondsOfSpeechWithShallowDipsStayOneOnsetWithEveryChunkAdmitted() {
        // Syllables that dip only 20 dB (a reverberant room): the floor rises
        // to the dips after a second, but speech stays 10 dB above them.
        let start = GateSignal.count(1)
        let signal = GateSignal.mixed(GateSignal.silence(seconds: 8),
                                      GateSignal.speech(seconds: 5, decibels: -20, dipDecibels: 20), at: start)
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, GateSignal.pcm(signal))
        #expect(gate.speechOnsets == 1)
        #expect(fed[11..<60].allSatisfy { !$0.isEmpty }) // every chunk of the speech after the onset
        expectContiguous(fed.flatMap { $0 })
    }

    @Test func theGateClosesOneHangoverAfterTheSpeechAndAShorterHangoverClosesItSooner() throws {
        let samples = speechAfter(GateSignal.silence(seconds: 7))
        for hangover in [1.0, 0.5] {
            let gate = EnergySpeechGate(hangoverSeconds: hangover)
            let fed = GateSignal.run(gate, samples)
            let last = try #require(fed.flatMap { $0 }.last)
            let tail = Double(last.endSample - Int64(burstEnd)) / GateSignal.rate
            // The envelope fades for ~0.1 s before the burst's end, and chunks are 0.1 s.
            #expect(tail >= hangover - 0.15 && tail <= hangover + 0.1, "closed \(tail) s after speech with \(hangover) s hangover")
            #expect(!gate.isOpen)
            #expect(fed.suffix(20).allSatisfy { $0.isEmpty })
        }
    }

    @Test func aTenMillisecondClickDoesNotOpenTheGateButATenthOfASecondOfTheSameToneDoes() {
        for (seconds, opens) in [(0.01, false), (0.15, true)] {
            for background in [GateSignal.silence(seconds: 4), GateSignal.pinkNoise(seconds: 4, decibels: -45, seed: 5)] {
                let gate = EnergySpeechGate()
                let signal = GateSignal.mixed(background, GateSignal.tone(seconds: seconds), at: GateSignal.count(2.05))
                let fed = GateSignal.run(gate, GateSignal.pcm(signal))
                #expect(gate.speechOnsets == (opens ? 1 : 0), "\(seconds) s tone")
                #expect(fed.allSatisfy { $0.isEmpty } == !opens)
            }
        }
    }

    @Test func speechOverSteadyNoiseAtFifteenDecibelsSNROpensTheGateAndKeepsItsOnset() throws {
        // Brown noise's 10 ms power flickers by 17 dB; high-passed, little
        // enough that the gate still closes one hangover after the speech.
        for noise in [GateSignal.pinkNoise(seconds: 7, decibels: -35, seed: 6),
                      GateSignal.whiteNoise(seconds: 7, decibels: -35, seed: 7),
                      GateSignal.brownNoise(seconds: 7, decibels: -35, seed: 14)] {
            let gate = EnergySpeechGate()
            let fed = GateSignal.run(gate, speechAfter(noise))
            let buffers = fed.flatMap { $0 }
            let first = try #require(buffers.first)
            #expect(gate.speechOnsets == 1)
            #expect(first.startSample <= Int64(burstStart - GateSignal.count(0.2)))
            #expect(first.startSample >= Int64(burstStart - GateSignal.count(0.4)))
            expectContiguous(buffers)
            #expect(fed.suffix(20).allSatisfy { $0.isEmpty })
        }
    }

    @Test func theGateOnlyReadsTheRing() {
        let samples = speechAfter(GateSignal.silence(seconds: 7))
        let gate = EnergySpeechGate()
        var ring = SampleRing(seconds: Ear.ringSeconds)
        var opened = false
        for chunk in GateSignal.chunks(samples) {
            ring.append(contentsOf: chunk.samples)
            let before = (ring.tail(ring.capacity), ring.count, ring.totalAppended)
            let wasOpen = gate.isOpen
            _ = gate.admit(chunk, ring: ring)
            if gate.isOpen && !wasOpen { opened = true }
            #expect(ring.tail(ring.capacity) == before.0 && ring.count == before.1 && ring.totalAppended == before.2)
        }
        #expect(opened) // the onset, the one call that reads the ring, was among them
    }

    @Test func countersCountChunksOnsetsAndPreRollBuffers() {
        // Two words 3.5 s apart: two onsets. Each word's first voiced frame is
        // 60 ms before its onset chunk, so each pre-roll is 0.36 s: 60 ms + 3 × 100 ms.
        let word = GateSignal.speech(seconds: 0.5, decibels: -20)
        let signal = GateSignal.mixed(GateSignal.mixed(GateSignal.silence(seconds: 8), word, at: GateSignal.count(1.03)),
                                      word, at: GateSignal.count(4.53))
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, GateSignal.pcm(signal))
        #expect(gate.chunksSeen == 80)
        #expect(gate.speechOnsets == 2)
        #expect(gate.preRollBuffersAdmitted == 8)
        #expect(gate.chunksAdmitted == fed.filter { !$0.isEmpty }.count)
        #expect(fed.reduce(0) { $0 + $1.count } == gate.chunksAdmitted + 8)
    }

    @Test func aPreRollNeverRepeatsAudioAlreadyFed() throws {
        // The second word starts 1.2 s after the first ends, just after the
        // gate closed: its pre-roll would reach back into fed hangover audio.
        let word = GateSignal.speech(seconds: 0.5, decibels: -20)
        let secondWord = GateSignal.count(2.73)
        let signal = GateSignal.mixed(GateSignal.mixed(GateSignal.silence(seconds: 6), word, at: GateSignal.count(1.03)),
                                      word, at: secondWord)
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, GateSignal.pcm(signal))
        let opened = try #require(fed.firstIndex { !$0.isEmpty })
        let closed = try #require(fed[opened...].firstIndex { $0.isEmpty })
        let firstRunEnd = try #require(fed[closed - 1].last?.endSample)
        #expect(gate.speechOnsets == 2)
        #expect(firstRunEnd > Int64(secondWord - GateSignal.count(0.3))) // the overlap this test is about
        // Contiguous across both runs: the second pre-roll starts exactly where the first run ended.
        expectContiguous(fed.flatMap { $0 })
    }

    @Test func aPreRollDoesNotReachAcrossAGapInTheStream() throws {
        // 2 s of silence, then the source skips 10 s (an overrun) and speech
        // starts right after the gap: the ring's older audio is not "before" it.
        let gapChunk = 20, skipped = Int64(GateSignal.count(10))
        let samples = GateSignal.pcm(GateSignal.mixed(GateSignal.silence(seconds: 5),
                                                      GateSignal.speech(seconds: 1, decibels: -20), at: GateSignal.count(2)))
        let gate = EnergySpeechGate()
        var ring = SampleRing(seconds: Ear.ringSeconds)
        var buffers: [AudioChunk] = []
        for (index, var chunk) in GateSignal.chunks(samples).enumerated() {
            if index >= gapChunk { chunk.startSample += skipped }
            ring.append(contentsOf: chunk.samples)
            buffers += gate.admit(chunk, ring: ring)
        }
        let first = try #require(buffers.first)
        #expect(first.startSample == Int64(gapChunk * AudioFormat.chunkSamples) + skipped)
        expectContiguous(buffers)
    }

    @Test func resetClosesTheGateAndForgetsTheFloorButKeepsTheCounters() {
        let gate = EnergySpeechGate()
        let samples = GateSignal.pcm(GateSignal.mixed(GateSignal.pinkNoise(seconds: 2.5, decibels: -40, seed: 8),
                                                      GateSignal.speech(seconds: 1, decibels: -20), at: GateSignal.count(1.5)))
        _ = GateSignal.run(gate, samples)
        #expect(gate.isOpen)
        #expect(gate.noiseFloorDecibels != nil)
        gate.reset()
        #expect(!gate.isOpen)
        #expect(gate.noiseFloorDecibels == nil)
        #expect(gate.speechOnsets == 1 && gate.chunksSeen == 25)
    }

    @Test func aQuietRoomWhoseMicrophoneComesUpWithADCOffsetFeedsNothing() {
        // Digital silence, then −60 dBFS of hiss on a +2,000 offset (−24 dBFS if
        // the mean counted as sound): under the −55 dBFS minimum, so nothing,
        // even though the floor is still digital silence when it starts.
        let start = GateSignal.count(2)
        let hiss = GateSignal.pcm(GateSignal.whiteNoise(seconds: 4, decibels: -60, seed: 9)).map { $0 + 2_000 }
        let gate = EnergySpeechGate()
        let fed = GateSignal.run(gate, [Int16](repeating: 0, count: start) + hiss)
        #expect(fed.allSatisfy { $0.isEmpty })
    }

    @Test func anHourOfSteadyNoiseIsCountedChunkByChunkAndFeedsNothing() {
        // An hour is 36,000 chunks; one second of noise replayed that many times.
        // The floor must not creep up to the noise and open the gate over an hour.
        // (The time it takes is printed, not asserted: a shared core's speed is not behaviour.)
        let second = GateSignal.chunks(GateSignal.pcm(GateSignal.pinkNoise(seconds: 1, decibels: -40, seed: 10)))
        let gate = EnergySpeechGate()
        var ring = SampleRing(seconds: Ear.ringSeconds)
        ring.append(contentsOf: second.flatMap(\.samples))
        let elapsed = ContinuousClock().measure {
            for pass in 0..<3_600 {
                for var chunk in second {
                    chunk.startSample += Int64(pass * GateSignal.count(1))
                    _ = gate.admit(chunk, ring: ring)
                }
            }
        }
        print("energy gate: an hour of chunks in \(elapsed) (debug build)")
        #expect(gate.chunksSeen == 36_000 && gate.chunksAdmitted == 0)
        #expect(gate.speechOnsets == 0 && gate.preRollBuffersAdmitted == 0)
    }
}
