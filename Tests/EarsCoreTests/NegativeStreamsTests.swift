import Testing
@testable import EarsCore
@testable import EarsTraining

private func speech(_ index: Int, split: TrainingClip.Split = .train, minedOnly: Bool = false) -> TrainingClip {
    var augmentation = Augmentation.none
    augmentation.leadSeconds = 0.01
    augmentation.trailSeconds = 0.01
    return TrainingClip(index: index, role: .negative(.otherSpeech), text: "a fortune", voice: nil,
                        augmentation: augmentation, split: split, minedOnly: minedOnly)
}

@Suite struct NegativeStreamsTests {
    @Test("other speech is joined into running speech, six at most, within one split")
    func joinsWithinASplit() {
        let clips = (0..<8).map { speech($0) } + [speech(8, split: .validation)]
        let audio = clips.map { _ in [Int16](repeating: 1, count: 1_600) }
        let joined = NegativeStreams.join(clips, audio: audio, seed: 1)
        #expect(joined.clips.map(\.index) == [0, 6, 8])
        #expect(joined.clips.map(\.split) == [.train, .train, .validation])
    }

    @Test("speech only mined is never joined with speech a round trains on, so it stays out of every round")
    func minedSpeechStaysApart() {
        let clips = [speech(0), speech(1), speech(2, minedOnly: true), speech(3, minedOnly: true), speech(4)]
        let audio = clips.map { _ in [Int16](repeating: 1, count: 1_600) }
        let joined = NegativeStreams.join(clips, audio: audio, seed: 1)
        #expect(joined.clips.map(\.index) == [0, 2, 4])
        #expect(joined.clips.map(\.minedOnly) == [false, true, false])
        #expect(joined.audio.count == 3)
    }
}
