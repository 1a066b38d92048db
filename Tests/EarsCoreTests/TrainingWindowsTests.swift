import Testing
@testable import EarsCore
@testable import EarsTraining

/// The labelling of `ears train`'s examples: which window of a clip teaches
/// "the phrase was just said", which teaches "not yet" or "not at all", and
/// what the head is given as input.
@Suite struct TrainingWindowsTests {
    /// Default labelling: windows of 16 embeddings, 1280 samples a step,
    /// 4 positive steps from one step after the end, a gap of 5 steps
    /// before the end, hard windows of weight 3 from 2 steps before the end to 4 after.
    let labelling = TrainingWindows()

    /// A clip whose speech ends exactly where embedding 29 ends (30 × 1280 samples).
    let speechEndSample = 30 * 1280

    @Test("the embedding covering a sample is the first one whose audio reaches it")
    func theEmbeddingCoveringASampleIsTheFirstThatReachesIt() {
        #expect(labelling.embeddingIndex(coveringSample: 0) == 0)
        #expect(labelling.embeddingIndex(coveringSample: 1280) == 0)
        #expect(labelling.embeddingIndex(coveringSample: 1281) == 1)
        #expect(labelling.embeddingIndex(coveringSample: speechEndSample) == 29)
    }

    @Test("a positive clip's positives are the windows just after the speech end, each holding a step of what follows")
    func positivesSitJustAfterTheSpeechEnd() {
        let windows = labelling.windows(embeddingCount: 40, positive: true, speechEndSample: speechEndSample)
        let positives = windows.filter { $0.label == 1 }
        #expect(positives.map(\.lastEmbedding) == [30, 31, 32, 33])
        #expect(positives.allSatisfy { $0.weight == 1 })
        // The window ending on the phrase's last step (29) teaches nothing:
        // "alexa" there is also the start of "alexis".
        #expect(!windows.contains { $0.lastEmbedding == 29 })
    }

    @Test("without a delay the positives start at the speech end")
    func noDelayStartsAtTheEnd() {
        var undelayed = labelling
        undelayed.positiveDelaySteps = 0
        let positives = undelayed.windows(embeddingCount: 40, positive: true, speechEndSample: speechEndSample).filter { $0.label == 1 }
        #expect(positives.map(\.lastEmbedding) == [29, 30, 31, 32])
    }

    @Test("a positive clip's windows well before the speech end are partial-phrase negatives, and the ones in between are unused")
    func partialPhraseWindowsBeforeTheEndAreNegatives() {
        let windows = labelling.windows(embeddingCount: 40, positive: true, speechEndSample: speechEndSample)
        let negatives = windows.filter { $0.label == 0 }
        // The first full window ends on embedding 15; 29 − 5 = 24 is the last partial one.
        #expect(negatives.map(\.lastEmbedding) == Array(15...24))
        #expect(negatives.allSatisfy { $0.weight == 1 })
        // 25…29 (nearly the whole phrase) and 34… (well after it) teach nothing.
        let used = Set(windows.map(\.lastEmbedding))
        #expect(used.isDisjoint(with: [25, 26, 27, 28, 29, 34, 35, 39]))
    }

    @Test("a positive clip without a known speech end gives no windows")
    func aPositiveWithoutItsEndGivesNothing() {
        #expect(labelling.windows(embeddingCount: 40, positive: true, speechEndSample: nil).isEmpty)
    }

    @Test("a clip shorter than one window gives no windows")
    func aClipShorterThanAWindowGivesNothing() {
        #expect(labelling.windows(embeddingCount: 15, positive: true, speechEndSample: 10 * 1280).isEmpty)
        #expect(labelling.windows(embeddingCount: 15, positive: false, speechEndSample: nil).isEmpty)
    }

    @Test("every window of a negative clip is a negative, and those around its speech end weigh the hard weight")
    func negativeClipsAreNegativeEverywhereWithHardWeightsAtTheEnd() {
        let windows = labelling.windows(embeddingCount: 40, positive: false, speechEndSample: speechEndSample)
        #expect(windows.map(\.lastEmbedding) == Array(15..<40))
        #expect(windows.allSatisfy { $0.label == 0 })
        // From 2 steps before the end: a longer word's start ("alexi…") is hard too.
        #expect(windows.filter { $0.weight == labelling.hardWeight }.map(\.lastEmbedding) == [27, 28, 29, 30, 31, 32])
        #expect(windows.filter { $0.weight != labelling.hardWeight }.allSatisfy { $0.weight == 1 })
    }

    @Test("a negative clip without speech (noise alone) weighs every window 1")
    func noiseAloneHasNoHardWindows() {
        let windows = labelling.windows(embeddingCount: 30, positive: false, speechEndSample: nil)
        #expect(windows.count == 15)
        #expect(windows.allSatisfy { $0.label == 0 && $0.weight == 1 })
    }

    @Test("a negative stride keeps every n-th window of a negative clip")
    func aNegativeStrideThinsNegativeClips() {
        var thinned = labelling
        thinned.negativeStride = 3
        let windows = thinned.windows(embeddingCount: 25, positive: false, speechEndSample: nil)
        #expect(windows.map(\.lastEmbedding) == [15, 18, 21, 24])
    }

    @Test("the input of a window is its embeddings, the oldest first, ending on the window's last embedding")
    func theInputIsTheRightEmbeddingsOldestFirst() {
        // Embedding k is [k, k + 0.5]: every value says where it came from.
        let embeddings = (0..<40).map { [Float($0), Float($0) + 0.5] }
        let input = labelling.input(embeddings, lastEmbedding: 20)
        #expect(input.count == 16 * 2)
        let expected = (5...20).flatMap { [Float($0), Float($0) + 0.5] }
        #expect(input == expected)
    }

    @Test("the first full window's input starts at embedding zero")
    func theFirstWindowStartsAtTheFirstEmbedding() {
        let embeddings = (0..<16).map { [Float($0)] }
        #expect(labelling.input(embeddings, lastEmbedding: 15) == (0..<16).map(Float.init))
    }
}
