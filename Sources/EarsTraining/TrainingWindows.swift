/// Which windows of a synthesized clip teach what: the labelling of
/// `ears train`'s examples. Pure.
///
/// A clip's embeddings come from the shared front end, one every
/// `samplesPerEmbedding` samples; embedding *k* covers the audio up to sample
/// `(k + 1) * samplesPerEmbedding` (`SpeechEmbedder`). A head sees a window of
/// `windowEmbeddings` consecutive embeddings and must answer "the phrase has
/// just been said". So, for a clip of the phrase whose speech ends at sample
/// `e`:
/// - the windows ending in the `positiveSteps` steps from `positiveDelaySteps`
///   after `e` on are positives (the spotter fires on the peak among
///   them): each holds a little of what follows the phrase, so a longer
///   word that begins with the phrase ("alexis" for "alexa") can be told
///   from the phrase itself; the windows between `e` and them are not used;
/// - windows ending `partialGapSteps` or more steps before `e` are negatives:
///   they hold only the start of the phrase ("hey cor…"), which must not wake;
/// - the windows in between and after are not used (they are neither clearly
///   the phrase nor clearly not).
/// Every window of a negative clip is a negative; its windows from
/// `hardLeadSteps` before the speech's end to `hardSteps` after it (a
/// sound-alike just said, or a word the phrase is the start of, just short
/// of its last sound) get `hardWeight`.
package struct TrainingWindows: Sendable, Equatable {
    /// Embeddings per window (the head's input length).
    package var windowEmbeddings = 16
    /// Audio samples per embedding step.
    package var samplesPerEmbedding = 1280
    /// Steps whose windows are positives (4 = 0.32 s), from `positiveDelaySteps` after the speech end.
    package var positiveSteps = 4
    /// Steps after the speech end before the first positive window (1 = 0.08 s of what follows).
    package var positiveDelaySteps = 1
    /// Windows ending this many steps or more before the speech end are partial-phrase negatives.
    package var partialGapSteps = 5
    /// Windows of a negative clip ending at its speech end and this many steps after weigh `hardWeight`.
    package var hardSteps = 4
    /// Steps before a negative clip's speech end whose windows weigh `hardWeight` too.
    package var hardLeadSteps = 2
    /// Weight of those windows (sound-alikes just said are what false wakes are made of).
    package var hardWeight: Float = 3
    /// Take every `negativeStride`-th window of a negative clip (1: all).
    package var negativeStride = 1

    /// The default labelling.
    package init() {}

    /// The index of the first embedding that covers sample `endSample`.
    package func embeddingIndex(coveringSample endSample: Int) -> Int {
        max(0, (endSample + samplesPerEmbedding - 1) / samplesPerEmbedding - 1)
    }

    /// One labelled window: the index of its last embedding, its label (1:
    /// the phrase, 0: not) and its weight.
    package struct Window: Sendable, Equatable {
        package var lastEmbedding: Int
        package var label: Float
        package var weight: Float
    }

    /// The windows of a clip of `embeddingCount` embeddings. `positive`:
    /// whether the clip says the phrase; `speechEndSample`: where its speech
    /// ends (nil when unknown: a negative's windows then all weigh 1).
    package func windows(embeddingCount: Int, positive: Bool, speechEndSample: Int?) -> [Window] {
        let first = windowEmbeddings - 1
        guard embeddingCount > first else { return [] }
        let end = speechEndSample.map(embeddingIndex(coveringSample:))
        if positive {
            guard let end else { return [] }
            var result: [Window] = []
            for last in first..<embeddingCount {
                if last >= end + positiveDelaySteps && last < end + positiveDelaySteps + positiveSteps {
                    result.append(Window(lastEmbedding: last, label: 1, weight: 1))
                } else if last <= end - partialGapSteps {
                    result.append(Window(lastEmbedding: last, label: 0, weight: 1))
                }
            }
            return result
        }
        return stride(from: first, to: embeddingCount, by: max(1, negativeStride)).map { last in
            let hard = end.map { last >= $0 - hardLeadSteps && last < $0 + hardSteps } ?? false
            return Window(lastEmbedding: last, label: 0, weight: hard ? hardWeight : 1)
        }
    }

    /// The flattened input of the window ending at `lastEmbedding`
    /// (`windowEmbeddings` × dimension values, oldest first).
    package func input(_ embeddings: [[Float]], lastEmbedding: Int) -> [Float] {
        var values: [Float] = []
        values.reserveCapacity(windowEmbeddings * (embeddings.first?.count ?? 0))
        for index in (lastEmbedding - windowEmbeddings + 1)...lastEmbedding { values += embeddings[index] }
        return values
    }
}
