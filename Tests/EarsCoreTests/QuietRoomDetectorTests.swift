import Testing
@testable import EarsCore

/// The quiet-room detector on synthetic rooms, and where the ear sends the
/// heads' audio with it.
@Suite struct QuietRoomDetectorTests {
    private func heard(_ signal: [Double]) -> QuietRoomDetector {
        var detector = QuietRoomDetector()
        for chunk in GateSignal.chunks(GateSignal.pcm(signal)) { detector.observe(chunk.samples) }
        return detector
    }

    @Test("a room whose noise sits at -65 dBFS is quiet, one at -35 dBFS is not, and speech over the quiet floor keeps it quiet")
    func quietAndNoisyRooms() {
        #expect(heard(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: -65, seed: 1)).isQuiet)
        #expect(!heard(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: -35, seed: 1)).isQuiet)
        // Talk without a pause for 6 s of the window: its own dips never reach the floor.
        let window = QuietRoomDetector.windowSeconds
        let talk = GateSignal.mixed(GateSignal.pinkNoise(seconds: window + 4, decibels: -65, seed: 2),
                                    GateSignal.speech(seconds: 6, decibels: -20, dipDecibels: 40), at: GateSignal.count(window - 2))
        let detector = heard(talk)
        #expect(detector.isQuiet)
        #expect((detector.floorDecibels ?? 0) < QuietRoomDetector.quietBelowDecibels)
    }

    @Test("the room counts as noisy until a whole window was heard")
    func noisyUntilAWindowWasHeard() {
        let early = heard(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds - 0.5, decibels: -70, seed: 3))
        #expect(!early.isQuiet && early.floorDecibels == nil)
    }

    @Test("a fan that starts makes the room noisy within a window, and it turns quiet again after the fan stops")
    func aFanComesAndGoes() {
        var detector = QuietRoomDetector()
        func hear(_ signal: [Double]) {
            for chunk in GateSignal.chunks(GateSignal.pcm(signal)) { detector.observe(chunk.samples) }
        }
        hear(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: -65, seed: 4))
        #expect(detector.isQuiet)
        hear(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 0.2, decibels: -38, seed: 5))
        #expect(!detector.isQuiet)
        hear(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 0.2, decibels: -65, seed: 6))
        #expect(detector.isQuiet)
    }

    @Test("a floor between the two lines keeps the state it had: no flapping")
    func hysteresis() {
        let between = (QuietRoomDetector.quietBelowDecibels + QuietRoomDetector.noisyAboveDecibels) / 2
        var fromQuiet = heard(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: -65, seed: 7))
        var fromNoisy = heard(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: -35, seed: 7))
        for chunk in GateSignal.chunks(GateSignal.pcm(GateSignal.whiteNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: between, seed: 8))) {
            fromQuiet.observe(chunk.samples)
            fromNoisy.observe(chunk.samples)
        }
        // White noise's 30 ms levels stay within a dB of its mean: the floor lands between the lines.
        let floor = fromQuiet.floorDecibels ?? 0
        #expect(floor > QuietRoomDetector.quietBelowDecibels && floor < QuietRoomDetector.noisyAboveDecibels, "floor \(floor)")
        #expect(fromQuiet.isQuiet && !fromNoisy.isQuiet)
    }

    @Test("with a quiet-room detector the heads hear a quiet room as captured and a noisy one denoised; the acoustic engine always hears it denoised")
    func theEarRoutesTheHeadsAudioByTheRoom() throws {
        for (decibels, quiet) in [(-65.0, true), (-35.0, false)] {
            let main = ScriptedTranscriber(), heads = ScriptedTranscriber()
            let ear = Ear(transcriber: main, suppressor: Halving(), rawTranscriber: heads, rawHearsDenoised: true,
                          quietRoom: QuietRoomDetector(), monotonicSeconds: { 0 })
            try ear.start()
            let samples = GateSignal.pcm(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: decibels, seed: 9))
            for chunk in GateSignal.chunks(samples) { _ = try ear.take(chunk) }
            let last = Array(samples.suffix(1600))
            #expect(heads.fedSamples.last == (quiet ? last : last.map { $0 / 2 }), "\(decibels) dBFS")
            #expect(main.fedSamples.last == last.map { $0 / 2 })
        }
    }

    @Test("an ear of trained models alone hears a quiet room as captured too, and its heard ring says so")
    func aTrainedOnlyEarHearsTheQuietRoomRaw() throws {
        let heads = ScriptedTranscriber()
        let ear = Ear(transcriber: heads, suppressor: Halving(), quietRoom: QuietRoomDetector(), monotonicSeconds: { 0 })
        try ear.start()
        let samples = GateSignal.pcm(GateSignal.pinkNoise(seconds: QuietRoomDetector.windowSeconds + 1, decibels: -65, seed: 10))
        for chunk in GateSignal.chunks(samples) { _ = try ear.take(chunk) }
        #expect(heads.fedSamples.last == Array(samples.suffix(1600)))
        #expect(ear.heardRing.tail(1600) == Array(samples.suffix(1600)))
    }
}

/// A "suppressor" that halves every sample, so a test can tell which audio went where.
private final class Halving: NoiseSuppressor {
    let label = "halving"
    func denoise(_ samples: [Int16]) -> [Int16] { samples.map { $0 / 2 } }
    func reset() {}
}
