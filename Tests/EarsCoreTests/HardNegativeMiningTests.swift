import Testing
@testable import EarsCore
@testable import EarsNeural
@testable import EarsTraining

/// A clip of `count` embeddings whose step `i` holds `values[i]` in every dimension.
private func clip(_ values: [Float], minedOnly: Bool = true) -> ClipFeatures {
    ClipFeatures(role: .negative(.otherSpeech), split: .train, augmentation: .none,
                 embeddings: values.map { [Float](repeating: $0, count: 96) }, speechEndSample: nil,
                 seconds: Double(values.count) * 0.08, minedOnly: minedOnly)
}

/// Scores a window by its last embedding's value: a head that is wrong
/// exactly where the speech says so.
private func lastValue(_ window: [Float]) -> Float { window.last ?? 0 }

@Suite struct HardNegativeMiningTests {
    @Test("negative examples scored above the mining score come back heavier; positives and low scores never do")
    func minesWrongNegatives() {
        let examples = [WakeExample(window: [0.9], label: 0), WakeExample(window: [0.1], label: 0),
                        WakeExample(window: [0.95], label: 1), WakeExample(window: [0.21], label: 0, weight: 3)]
        let mined = HardNegativeMining.mine(examples, score: lastValue)
        #expect(mined == [WakeExample(window: [0.9], label: 0, weight: HardNegativeMining.minedWeight),
                          WakeExample(window: [0.21], label: 0, weight: HardNegativeMining.minedWeight)])
    }

    @Test("speech only mined gives exactly its windows the head gets wrong, as negatives, in order")
    func minesOnlyTheWrongWindowsOfSpeech() {
        let labelling = TrainingWindows()
        let steps = labelling.windowEmbeddings + 4
        // The head is wrong on the windows ending at steps 16 and 18 only.
        var values = [Float](repeating: 0.05, count: steps)
        values[16] = 0.7
        values[18] = 0.3
        let mined = HardNegativeMining.mine([clip(values)], labelling: labelling, score: lastValue)
        #expect(mined.map { $0.window.last } == [0.7, 0.3])
        #expect(mined.allSatisfy { $0.label == 0 && $0.weight == HardNegativeMining.minedWeight })
        #expect(mined.allSatisfy { $0.window.count == labelling.windowEmbeddings * 96 })
    }

    @Test("speech the head gets right, or too short for a window, gives nothing")
    func rightOrShortGivesNothing() {
        let labelling = TrainingWindows()
        let quiet = clip([Float](repeating: 0.1, count: labelling.windowEmbeddings + 10))
        let short = clip([Float](repeating: 0.9, count: labelling.windowEmbeddings - 1))
        #expect(HardNegativeMining.mine([quiet, short], labelling: labelling, score: lastValue).isEmpty)
    }
}
