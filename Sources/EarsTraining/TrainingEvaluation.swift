import EarsCore
import EarsNeural
/// One synthesized clip as the trainer sees it after the front end: what it
/// is, which split it is in, and its embeddings. Holds no audio.
package struct ClipFeatures: Sendable {
    /// Positive or which negative.
    package var role: TrainingClip.Role
    /// Train, validation or held out.
    package var split: TrainingClip.Split
    /// How the clip was roughened (its noise and SNR decide its condition).
    package var augmentation: Augmentation
    /// One embedding per step, oldest first.
    package var embeddings: [[Float]]
    /// Where its speech ends, in samples from the clip's start; nil for noise alone.
    package var speechEndSample: Int?
    /// The clip's length in seconds.
    package var seconds: Double
    /// No training round fits on it (`TrainingClip.minedOnly`): mined in the
    /// train split, only for the threshold in the validation split.
    package var minedOnly: Bool

    package init(role: TrainingClip.Role, split: TrainingClip.Split, augmentation: Augmentation, embeddings: [[Float]],
                speechEndSample: Int?, seconds: Double, minedOnly: Bool = false) {
        self.role = role
        self.split = split
        self.augmentation = augmentation
        self.embeddings = embeddings
        self.speechEndSample = speechEndSample
        self.seconds = seconds
        self.minedOnly = minedOnly
    }
}

/// How a trained head does on clips, decided the way the daemon decides
/// (`NeuralWakeSpotter` over each clip as a fresh stream): the figures a
/// model is stored with, and the choice of its threshold. Pure.
package enum TrainingEvaluation {
    /// A positive counts as heard when a detection ends this long before its speech end or later…
    package static let earlySeconds = 0.3
    /// …and no later than this after it.
    package static let lateSeconds = 1.0
    /// Thresholds considered, lowest first. The top reaches 0.9995 (log-odds
    /// 7.6) because a head whose validation speech still wakes it at 0.998
    /// ("okay nabu", the Korean phrase) otherwise stops at the grid's end, not
    /// where the rule would put it (docs/training.md, the lever table).
    package static let candidateThresholds: [Float] = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998,
                                                       0.999, 0.9995]
    /// False wakes per hour of the validation voices' other speech and noise
    /// a chosen threshold may show, counted whole (`quiet(_:)`): in the
    /// default plan's ~50 minutes none, in a larger budget's hours one per
    /// hour. Issue 20's target is 0.5 per hour; demanding none over hours
    /// would read the threshold off one or two peaks of the tail, where
    /// recall falls fastest (docs/training.md).
    package static let falseWakesPerHourAllowance = 1.0
    /// Sound-alike clips allowed to wake at the chosen threshold. Issue 11's
    /// target is 2%; held to that, the heads measured so far lose most of
    /// their calls (docs/training.md), so the rule trades a few sound-alikes
    /// for recall and says so.
    package static let soundAlikeAllowance = 0.10

    /// What a head did on a set of clips at one threshold.
    package struct Figures: Sendable, Equatable {
        /// Positives heard / said, for clips without noise (or at 15 dB and above).
        package var clean = Tally()
        /// The same for clips with noise at 7.5 to 12.5 dB.
        package var near10dB = Tally()
        /// The same for clips with noise at 2.5 to 7.5 dB.
        package var near5dB = Tally()
        /// Every positive.
        package var allPositives = Tally()
        /// Detections in speech that is not the phrase and has none of its
        /// words (other speech) and in noise: what false wakes per hour mean.
        package var falseWakes = 0
        /// Seconds of that speech and noise.
        package var negativeSeconds = 0.0
        /// Sound-alike clips (a neighbour of the phrase, one of its words
        /// alone) that woke / sound-alike clips.
        package var soundAlikes = Tally()
        /// Sentences holding one of the phrase's words, or its first words going
        /// on into others, that woke / such sentences.
        package var wordsInSentences = Tally()

        /// False wakes per hour, nil without negative audio.
        package var falseWakesPerHour: Double? {
            negativeSeconds > 0 ? Double(falseWakes) * 3600 / negativeSeconds : nil
        }
    }

    /// A count of hits out of a total.
    package struct Tally: Sendable, Equatable {
        package var hits = 0
        package var total = 0
        /// hits / total, nil when there is nothing.
        package var rate: Double? { total > 0 ? Double(hits) / Double(total) : nil }
        package init(hits: Int = 0, total: Int = 0) {
            self.hits = hits
            self.total = total
        }
        /// Counts one more, a hit or not.
        package mutating func add(_ hit: Bool) {
            total += 1
            if hit { hits += 1 }
        }
    }

    /// The detections `head` at `threshold` makes on `clip`, as a fresh stream.
    package static func detections(_ head: WakeHead, threshold: Float, on clip: ClipFeatures) -> [NeuralWakeSpotter.Detection] {
        var spotter = NeuralWakeSpotter(phrases: [NeuralWakeSpotter.Phrase(name: "phrase", head: head, threshold: threshold)],
                                        dimension: head.dimension)
        return spotter.push(contentsOf: clip.embeddings)
    }

    /// Whether a detection marks `clip`'s phrase: its end within
    /// [`speechEnd - earlySeconds`, `speechEnd + lateSeconds`].
    package static func hears(_ clip: ClipFeatures, in detections: [NeuralWakeSpotter.Detection]) -> Bool {
        guard let end = clip.speechEndSample else { return false }
        let endSeconds = AudioFormat.seconds(ofSamples: Int64(end))
        return detections.contains { $0.endSeconds >= endSeconds - earlySeconds && $0.endSeconds <= endSeconds + lateSeconds }
    }

    /// `head`'s figures on `clips` at `threshold`.
    package static func figures(_ head: WakeHead, threshold: Float, clips: [ClipFeatures]) -> Figures {
        var figures = Figures()
        for clip in clips {
            let found = detections(head, threshold: threshold, on: clip)
            switch clip.role {
            case .positive:
                let heard = hears(clip, in: found)
                figures.allPositives.add(heard)
                switch RouteComparison.Condition(of: clip.augmentation) {
                case .clean: figures.clean.add(heard)
                case .near10dB: figures.near10dB.add(heard)
                case .near5dB: figures.near5dB.add(heard)
                case nil: break
                }
            case .negative(.soundAlike), .negative(.phraseWordAlone):
                figures.soundAlikes.add(!found.isEmpty)
            case .negative(.phraseWordsInSentence), .negative(.phraseStartGoesOn):
                figures.wordsInSentences.add(!found.isEmpty)
            case .negative(.otherSpeech), .negative(.noiseOnly):
                figures.falseWakes += found.count
                figures.negativeSeconds += clip.seconds
            }
        }
        return figures
    }

    /// The threshold a model is stored with: the lowest candidate at which
    /// `clips` (the validation voices) show at most
    /// `falseWakesPerHourAllowance` false wakes per hour of other speech and
    /// noise (and never one in less than an hour of it) and at most
    /// `soundAlikeAllowance` of sound-alikes wake; the highest candidate when
    /// none does. Lower thresholds hear more calls, so the lowest that keeps
    /// the negatives quiet is the one a person wants.
    package static func chooseThreshold(_ head: WakeHead, clips: [ClipFeatures]) -> (threshold: Float, figures: Figures) {
        var last: (Float, Figures)?
        for threshold in candidateThresholds {
            let result = figures(head, threshold: threshold, clips: clips)
            last = (threshold, result)
            if quiet(result) && (result.soundAlikes.rate ?? 0) <= soundAlikeAllowance { return (threshold, result) }
        }
        return last!
    }

    /// Whether `figures`' false wakes are within `falseWakesPerHourAllowance`:
    /// the count allowed is the allowance over the negatives' hours, rounded
    /// down, so less than an hour of them allows none.
    package static func quiet(_ figures: Figures) -> Bool {
        let allowed = Int((falseWakesPerHourAllowance * figures.negativeSeconds / 3600).rounded(.down))
        return figures.falseWakes <= allowed
    }
}
