/// How much audio a training plan asks for: the size knob behind
/// `ears train --minutes`. Counts of clips per role, all derived from the
/// number of positive utterances so that the class balance stays fixed as the
/// budget grows.
package struct TrainingBudget: Sendable, Hashable {
    /// Positives in the default plan: 1500 positives made 4725 clips, about
    /// 2 hours of audio, synthesized and augmented in about 75 s on 2 shared
    /// cores (release build, measured: docs/training.md; 5100 clips since
    /// the phrase-start negatives, 7350 with the speech only mined, which
    /// `minedSpeechPerPositive` counts). Synthesis could
    /// afford twice that within 3 minutes, but feature extraction scales with
    /// the audio's length, so this leaves most of a 10-minute training for
    /// features and fitting.
    package static let defaultPositives = 1500
    /// The default `--minutes` of a whole training run.
    package static let defaultMinutes = 10.0
    /// Negatives of each sound-alike text kind per positive.
    package static let soundAlikesPerPositive = 1.0
    /// Phrase words alone per positive (several-word phrases only).
    package static let wordsAlonePerPositive = 0.25
    /// Phrase words in sentences per positive (several-word phrases only).
    package static let wordsInSentencesPerPositive = 0.25
    /// The phrase's first words going on into other words, per positive
    /// (several-word phrases only).
    package static let phraseStartsPerPositive = 0.25
    /// Fortunes (other speech, a few seconds each) per positive.
    package static let otherSpeechPerPositive = 0.5
    /// Noise-only clips per positive.
    package static let noiseOnlyPerPositive = 0.15
    /// Fortunes per positive that only the mining step hears
    /// (`TrainingClip.minedOnly`): the first head scores every window of
    /// them and the ones it gets wrong join the later rounds. Why: the heads'
    /// false wakes in the benchmark fall mostly on the voices they trained on,
    /// on sentences their ~800 trained-on fortunes never covered; every
    /// window of several times that speech would cost each training round
    /// as much more, its mistakes cost only a forward pass.
    package static let minedSpeechPerPositive = 1.5
    /// Fortunes per positive read by the validation split's speakers that
    /// only the threshold's choice hears (`TrainingClip.minedOnly` in the
    /// validation split; about 45 minutes in the default plan, 50 with the
    /// validation's own share). Why: the validation voices' other speech was
    /// 75 fortunes, about 9 minutes, in which a threshold well below the
    /// heads' tail still showed no false wake, and the benchmark's hours of
    /// speech then woke them several times an hour (docs/training.md).
    package static let thresholdSpeechPerPositive = 0.5

    /// Positive utterances.
    package var positives: Int
    /// Sound-alike utterances.
    package var soundAlikes: Int
    /// Phrase words alone.
    package var wordsAlone: Int
    /// Phrase words in sentences.
    package var wordsInSentences: Int
    /// The phrase's first words going on into other words.
    package var phraseStarts: Int
    /// Fortunes spoken.
    package var otherSpeech: Int
    /// Noise-only clips.
    package var noiseOnly: Int
    /// Fortunes only mined (train-split speakers, never a round's examples).
    package var minedSpeech: Int
    /// Fortunes only for the threshold's choice (validation-split speakers,
    /// never a round's examples nor mined).
    package var thresholdSpeech: Int

    /// A budget of `positives` with the other counts in the fixed ratios above.
    package init(positives: Int) {
        let count = max(1, positives)
        func scaled(_ ratio: Double) -> Int { max(1, Int((Double(count) * ratio).rounded())) }
        self.positives = count
        soundAlikes = scaled(Self.soundAlikesPerPositive)
        wordsAlone = scaled(Self.wordsAlonePerPositive)
        wordsInSentences = scaled(Self.wordsInSentencesPerPositive)
        phraseStarts = scaled(Self.phraseStartsPerPositive)
        otherSpeech = scaled(Self.otherSpeechPerPositive)
        noiseOnly = scaled(Self.noiseOnlyPerPositive)
        minedSpeech = scaled(Self.minedSpeechPerPositive)
        thresholdSpeech = scaled(Self.thresholdSpeechPerPositive)
    }

    /// The budget for a whole training run of `minutes`: the default at
    /// `defaultMinutes`, scaled linearly (synthesis time is linear in the
    /// clip count), at least 50 positives.
    package static func forMinutes(_ minutes: Double) -> TrainingBudget {
        let scaled = Double(defaultPositives) * max(0, minutes) / defaultMinutes
        return TrainingBudget(positives: max(50, Int(scaled.rounded())))
    }

    /// Every clip the budget asks for, when the phrase has several words.
    package var totalClips: Int { positives + soundAlikes + wordsAlone + wordsInSentences + phraseStarts + otherSpeech + noiseOnly + minedSpeech + thresholdSpeech }
}
