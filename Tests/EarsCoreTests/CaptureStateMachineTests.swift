import Testing
@testable import EarsCore

@Suite struct CaptureStateMachineTests {
    private let chunk = [Int16](repeating: 100, count: AudioFormat.chunkSamples)
    private let ringFull = AudioFormat.samples(inSeconds: Ear.ringSeconds)

    private func appended(_ actions: [CaptureStateMachine.Action]) -> Int {
        actions.reduce(0) { total, action in
            if case let .append(samples) = action { return total + samples.count }
            return total
        }
    }

    @Test func aWakeStartsWithTheLastThreeSecondsOfTheRing() {
        var machine = CaptureStateMachine()
        #expect(machine.trigger(.wake, availableSamples: ringFull) == [.start(source: .wake, preRollSamples: 48_000)])
        #expect(machine.isCapturing)
    }

    @Test("a wake decoded late takes the audio since its chunk into the pre-roll, within the ring")
    func aLateWakeTakesTheAudioSinceItsChunkIntoThePreRoll() {
        var machine = CaptureStateMachine()
        // The ear found the wake 0.4 s behind the microphone: 3 s before the
        // waking chunk's end plus the 0.4 s read since.
        #expect(machine.trigger(.wake, availableSamples: ringFull, lateSamples: 6_400)
            == [.start(source: .wake, preRollSamples: 54_400)])
        var late = CaptureStateMachine()
        // Never more than the ring holds.
        #expect(late.trigger(.wake, availableSamples: ringFull, lateSamples: 16_000)
            == [.start(source: .wake, preRollSamples: ringFull)])
    }

    @Test func aTapStartsWithTheLastThreeTenthsOfASecond() {
        var machine = CaptureStateMachine()
        #expect(machine.trigger(.tap, availableSamples: ringFull) == [.start(source: .tap, preRollSamples: 4_800)])
    }

    @Test func aCaptureNeverExceedsTwentySecondsEvenIfTheSpeakerNeverStops() {
        var machine = CaptureStateMachine()
        var total = 48_000
        _ = machine.trigger(.wake, availableSamples: ringFull)
        var stopped: CaptureStateMachine.StopReason?
        for _ in 0..<400 where stopped == nil {
            let actions = machine.chunk(chunk, hadSpeech: true)
            total += appended(actions)
            for case let .stop(reason) in actions { stopped = reason }
        }
        #expect(stopped == .cap)
        #expect(total == 20 * 16_000)
        #expect(machine.capturedSamplesTotal == 320_000)
        #expect(!machine.isCapturing)
    }

    @Test func theCapCanBeLoweredButNeverRaisedPastSixtySeconds() {
        #expect(CaptureLimits(maximumSeconds: 5).maximumSamples == 80_000)
        #expect(CaptureLimits(maximumSeconds: 600).maximumSeconds == 60)
    }

    @Test func eightTenthsOfASecondOfSilenceEndTheCapture() {
        var machine = CaptureStateMachine()
        _ = machine.trigger(.wake, availableSamples: ringFull)
        for _ in 0..<10 { #expect(!machine.chunk(chunk, hadSpeech: true).contains(.stop(.silence))) }
        for step in 0..<8 {
            let actions = machine.chunk(chunk, hadSpeech: false)
            #expect(actions.contains(.stop(.silence)) == (step == 7), "step \(step)")
        }
        #expect(!machine.isCapturing)
    }

    @Test func speechResetsTheSilenceCount() {
        var machine = CaptureStateMachine()
        _ = machine.trigger(.wake, availableSamples: ringFull)
        for _ in 0..<5 {
            for _ in 0..<7 { _ = machine.chunk(chunk, hadSpeech: false) }
            _ = machine.chunk(chunk, hadSpeech: true)
        }
        #expect(machine.isCapturing)
    }

    @Test func aWakeDuringACaptureExtendsNothingAndIsCounted() {
        var machine = CaptureStateMachine(limits: CaptureLimits(maximumSeconds: 4))
        _ = machine.trigger(.wake, availableSamples: ringFull)
        #expect(machine.trigger(.wake, availableSamples: ringFull).isEmpty)
        #expect(machine.trigger(.tap, availableSamples: ringFull).isEmpty)
        #expect(machine.ignoredTriggers == 2)
        var total = 48_000
        var stopped = false
        while !stopped {
            let actions = machine.chunk(chunk, hadSpeech: true)
            total += appended(actions)
            stopped = actions.contains(.stop(.cap))
        }
        #expect(total == 64_000)
        #expect(machine.captures == 1)
    }

    @Test func aShortRingGivesOnlyWhatItHolds() {
        var machine = CaptureStateMachine()
        #expect(machine.trigger(.wake, availableSamples: 1_000) == [.start(source: .wake, preRollSamples: 1_000)])
    }

    @Test func chunksOutsideACaptureAreIgnored() {
        var machine = CaptureStateMachine()
        #expect(machine.chunk(chunk, hadSpeech: true).isEmpty)
        #expect(machine.abandon().isEmpty)
    }

    @Test func abandoningEndsARunningCapture() {
        var machine = CaptureStateMachine()
        _ = machine.trigger(.tap, availableSamples: ringFull)
        #expect(machine.abandon() == [.stop(.abandoned)])
        #expect(!machine.isCapturing)
    }

    @Test func newLimitsApplyToTheNextCaptureNotTheRunningOne() {
        var machine = CaptureStateMachine()
        _ = machine.trigger(.wake, availableSamples: ringFull)
        machine.setLimits(CaptureLimits(maximumSeconds: 3.5))
        // The running capture keeps its 20 s cap: 3 s pre-roll + 1 s is not the end.
        var stopped = false
        for _ in 0..<10 { stopped = stopped || machine.chunk(chunk, hadSpeech: true).contains(.stop(.cap)) }
        #expect(!stopped)
        _ = machine.abandon()
        _ = machine.trigger(.wake, availableSamples: ringFull)
        var samples = 48_000
        while machine.isCapturing { samples += appended(machine.chunk(chunk, hadSpeech: true)) }
        #expect(samples == 56_000)
    }
}
