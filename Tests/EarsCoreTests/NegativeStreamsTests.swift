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

    @Test("the pause between two sentences is kept of the quiet around them, often a second or more")
    func pausesComeFromTheQuietAroundTheSentences() {
        // Each clip: 1.3 s of quiet (0), 0.5 s of speech (1), 0.6 s of quiet.
        var clips: [TrainingClip] = []
        for index in 0..<60 {
            var clip = speech(index)
            clip.augmentation.leadSeconds = 1.3
            clip.augmentation.trailSeconds = 0.6
            clips.append(clip)
        }
        let one = [Int16](repeating: 0, count: 20_800) + [Int16](repeating: 1, count: 8_000) + [Int16](repeating: 0, count: 9_600)
        let joined = NegativeStreams.join(clips, audio: clips.map { _ in one }, seed: 3)
        var pauses: [Double] = []
        for samples in joined.audio {
            var run = 0
            var seenSpeech = false
            for sample in samples {
                if sample == 0 { run += 1; continue }
                if seenSpeech && run > 0 { pauses.append(Double(run) / 16_000) }
                seenSpeech = true
                run = 0
            }
        }
        #expect(pauses.count == 50, "five pauses in each of ten streams of six")
        #expect(pauses.allSatisfy { $0 >= 0.1 - 1e-3 && $0 <= 1.9 + 1e-3 })
        let long = pauses.filter { $0 >= 1 }.count
        #expect(long >= 15 && long <= 35, "about half start after a second of quiet: \(long) of 50")
    }
}
