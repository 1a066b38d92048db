import EarsNeural

/// The negative windows a first head got wrong, given again and heavier to
/// the heads trained after it. Pure: the head is any scorer of a window.
///
/// Two sources: the negative windows the first round trained on, and
/// speech only mined (`TrainingClip.minedOnly`), whose windows no round fits
/// on — each is made, scored and dropped unless kept, so hours of such
/// speech never sit in memory as windows.
package enum HardNegativeMining {
    /// A negative window a first head scores above this (0…1) is mined.
    package static let miningScore: Float = 0.2
    /// The weight of a mined window (a plain window weighs 1).
    package static let minedWeight: Float = 4

    /// The negative examples of `examples` that `score` puts above
    /// `miningScore`, again at `minedWeight`; positives are never mined.
    package static func mine(_ examples: [WakeExample], score: ([Float]) -> Float) -> [WakeExample] {
        examples.filter { $0.label < 0.5 && score($0.window) > miningScore }.map { example in
            WakeExample(window: example.window, label: 0, weight: minedWeight)
        }
    }

    /// Every window of `clips` (all negative: speech only mined) that
    /// `score` puts above `miningScore`, labelled 0 at `minedWeight`, in clip
    /// and window order.
    package static func mine(_ clips: [ClipFeatures], labelling: TrainingWindows,
                             score: ([Float]) -> Float) -> [WakeExample] {
        var mined: [WakeExample] = []
        for clip in clips {
            for window in labelling.windows(embeddingCount: clip.embeddings.count, positive: false,
                                            speechEndSample: clip.speechEndSample) {
                let input = labelling.input(clip.embeddings, lastEmbedding: window.lastEmbedding)
                if score(input) > miningScore {
                    mined.append(WakeExample(window: input, label: 0, weight: minedWeight))
                }
            }
        }
        return mined
    }
}
