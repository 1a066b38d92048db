import Foundation
import Testing
@testable import EarsCore
@testable import EarsTraining

/// Mean power per DFT bin over the bins between `low` and `high` Hz, averaged
/// over 1024-sample segments (a plain DFT: slow but obviously right).
private func bandPower(_ samples: [Float], low: Double, high: Double) -> Double {
    let size = 1024
    let binHz = Double(NoiseGenerator.sampleRate) / Double(size)
    let bins = Array(Int((low / binHz).rounded())..<Int((high / binHz).rounded()))
    var total = 0.0, count = 0
    var start = 0
    while start + size <= samples.count {
        for bin in bins {
            var re = 0.0, im = 0.0
            let step = 2 * Double.pi * Double(bin) / Double(size)
            for n in 0..<size {
                let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(size))
                let x = Double(samples[start + n]) * window
                re += x * cos(step * Double(n))
                im -= x * sin(step * Double(n))
            }
            total += re * re + im * im
            count += 1
        }
        start += size
    }
    return total / Double(count)
}

/// The slope in dB per octave between the octave bands 250–500, 500–1000,
/// 1000–2000 and 2000–4000 Hz (per-bin power density), averaged.
private func slopePerOctave(_ samples: [Float]) -> Double {
    let bands = [250.0, 500, 1000, 2000, 4000]
    let powers = zip(bands, bands.dropFirst()).map { bandPower(samples, low: $0, high: $1) }
    let steps = zip(powers, powers.dropFirst()).map { 10 * log10($1 / $0) }
    return steps.reduce(0, +) / Double(steps.count)
}

@Suite struct NoiseGeneratorTests {
    @Test("pink noise falls about 3 dB per octave, white is flat, brown falls about 6")
    func spectra() {
        var generator = NoiseGenerator(seed: 3)
        let count = 16 * 1024
        let pink = slopePerOctave(generator.noise(.pink, count: count))
        let white = slopePerOctave(generator.noise(.white, count: count))
        let brown = slopePerOctave(generator.noise(.brown, count: count))
        #expect(abs(pink + 3) < 1, "pink slope \(pink) dB/octave")
        #expect(abs(white) < 1, "white slope \(white) dB/octave")
        #expect(abs(brown + 6) < 1.5, "brown slope \(brown) dB/octave")
    }

    @Test("noise is seeded and normalized")
    func seededAndNormalized() {
        var a = NoiseGenerator(seed: 9), b = NoiseGenerator(seed: 9), c = NoiseGenerator(seed: 10)
        let first = a.noise(.pink, count: 8000)
        #expect(first == b.noise(.pink, count: 8000))
        #expect(first != c.noise(.pink, count: 8000))
        let rms = (first.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(first.count)).squareRoot()
        #expect(abs(rms - NoiseGenerator.noiseRMS) < 1e-4)
    }

    @Test("mixing achieves the SNR within 0.5 dB over the speech's active part", arguments: [0.0, 5, 12.5, 20])
    func signalToNoise(snr: Double) {
        // "Speech": a 300 Hz tone burst with silence around it, so a plain RMS
        // over the whole clip would be wrong by the silent share.
        let speech: [Float] = (0..<32000).map { n in
            (8000..<24000).contains(n) ? Float(0.3 * sin(2 * Double.pi * 300 * Double(n) / 16000)) : 0
        }
        var generator = NoiseGenerator(seed: 5)
        let noise = generator.noise(.white, count: 12000) // shorter: looped
        let mixed = NoiseGenerator.mix(speech: speech, noise: noise, snrDecibels: snr)
        let added = zip(mixed, speech).map { Double($0 - $1) }
        let noiseRMS = (added.reduce(0) { $0 + $1 * $1 } / Double(added.count)).squareRoot()
        let speechRMS = NoiseGenerator.activeRMS(speech)
        #expect(abs(speechRMS - 0.3 / 2.0.squareRoot()) < 0.005, "active part only")
        let achieved = 20 * log10(speechRMS / noiseRMS)
        #expect(abs(achieved - snr) < 0.5, "achieved \(achieved) dB for \(snr) dB")
    }

    @Test("babble is made of the given speech; with none it falls back to noise")
    func babble() {
        var generator = NoiseGenerator(seed: 1)
        let voice: [Int16] = (0..<4000).map { Int16(8000 * sin(Double($0) / 5)) }
        let babble = generator.noise(.babble, count: 10000, speech: [voice, voice])
        #expect(babble.count == 10000)
        let fallback = generator.noise(.babble, count: 100)
        #expect(fallback.contains { $0 != 0 })
    }

    @Test("gain and Int16 conversion: +6 dB doubles, full scale clips")
    func gainAndClip() {
        let doubled = NoiseGenerator.gain([0.25], decibels: 20 * log10(2))
        #expect(abs(doubled[0] - 0.5) < 1e-6)
        #expect(NoiseGenerator.int16([2, -2, 0.5]) == [32767, -32768, 16384])
    }
}

@Suite struct AugmentationTests {
    @Test("random augmentations stay in range and are seeded")
    func ranges() {
        var generator = SeededGenerator(seed: 11)
        var again = SeededGenerator(seed: 11)
        var kinds = Set<Augmentation.NoiseKind?>()
        var warped = 0, roomed = 0
        for _ in 0..<500 {
            let a = Augmentation.random(using: &generator)
            #expect(a == Augmentation.random(using: &again))
            #expect(Augmentation.tempoRange.contains(a.tempo))
            #expect(Augmentation.pitchRangeCents.contains(a.pitchCents))
            #expect(Augmentation.reverbRange.contains(a.reverbPercent))
            #expect(Augmentation.gainRangeDecibels.contains(a.gainDecibels))
            #expect(Augmentation.signalToNoiseRangeDecibels.contains(a.signalToNoiseDecibels))
            #expect(a.formantFactor == 1 || FormantWarp.factorRange.contains(a.formantFactor))
            if let room = a.room {
                #expect(RoomImpulseResponse.rt60RangeSeconds.contains(room.rt60Seconds))
                #expect(a.reverbPercent == 0, "a clip in a simulated room gets no sox reverb on top")
            }
            kinds.insert(a.noise)
            warped += a.formantFactor == 1 ? 0 : 1
            roomed += a.room == nil ? 0 : 1
        }
        #expect(kinds.count == Augmentation.NoiseKind.allCases.count + 1, "every kind and none")
        let expectedWarped = Augmentation.formantChance * 500, expectedRoomed = Augmentation.roomChance * 500
        #expect(abs(Double(warped) - expectedWarped) <= 50, "\(warped) of 500 warped, chance \(Augmentation.formantChance)")
        #expect(abs(Double(roomed) - expectedRoomed) <= 50, "\(roomed) of 500 in a room, chance \(Augmentation.roomChance)")
        var noBabble = SeededGenerator(seed: 2)
        for _ in 0..<200 { #expect(Augmentation.random(using: &noBabble, allowBabble: false).noise != .babble) }
    }

    @Test("sox arguments: none for no change, tempo, pitch and reverb in order")
    func soxArguments() {
        #expect(Augmentation.none.soxEffectArguments.isEmpty && !Augmentation.none.needsSoxEffects)
        let a = Augmentation(tempo: 0.9, pitchCents: -200, reverbPercent: 30)
        #expect(a.soxEffectArguments == ["tempo", "-s", "0.900", "pitch", "-200", "reverb", "30", "50", "40"])
    }
}
