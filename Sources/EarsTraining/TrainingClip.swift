/// One clip of a training plan: what to say, in which voice, how to roughen
/// it, what it teaches (positive or which kind of negative) and which split it
/// belongs to. A pure value made by `TrainingPlan`.
package struct TrainingClip: Sendable, Hashable {
    /// What a negative clip is.
    package enum NegativeKind: String, Sendable, Hashable, CaseIterable {
        /// A text that sounds close to the phrase (`SoundAlikeGenerator`'s neighbours and sentences).
        case soundAlike
        /// One word of a several-word phrase, alone ("cordelia").
        case phraseWordAlone
        /// One word of the phrase inside a short sentence ("i asked cordelia").
        case phraseWordsInSentence
        /// The phrase's first words going on into other words ("hey, your
        /// business will"): the start of a call that is not one, which
        /// heads that learned "hey" + any name woke on (docs/training.md).
        case phraseStartGoesOn
        /// Unrelated speech (a fortune), spoken by an English voice.
        case otherSpeech
        /// Background noise with no speech at all.
        case noiseOnly
    }

    /// What the clip teaches.
    package enum Role: Sendable, Hashable {
        /// The wake phrase: the detector must fire.
        case positive
        /// Something else: the detector must stay quiet.
        case negative(NegativeKind)

        /// True for `.positive`.
        package var isPositive: Bool { self == .positive }
        /// A short stable name: "positive" or the negative kind's raw value.
        package var name: String {
            switch self {
            case .positive: "positive"
            case let .negative(kind): kind.rawValue
            }
        }
    }

    /// Which part of training a clip serves.
    package enum Split: String, Sendable, Hashable, CaseIterable {
        /// Fitted on.
        case train
        /// Watched for early stopping; its speakers are not trained on.
        case validation
        /// Reported figures only; its speakers (a whole engine when there are
        /// two or more) are never trained or validated on.
        case heldOut
    }

    /// The clip's place in the plan (0-based), also its place in synthesized output.
    package var index: Int
    /// Positive or which negative.
    package var role: Role
    /// The text to say; empty for noise-only clips. Never logged.
    package var text: String
    /// The voice that says it; nil for noise-only clips.
    package var voice: SynthVoice?
    /// How the synthesized audio is roughened.
    package var augmentation: Augmentation
    /// Train, validation or held out.
    package var split: Split
    /// Length of a noise-only clip in seconds; 0 for speech clips (their length is the speech's).
    package var noiseSeconds: Double
    /// Words said by the same voice right after `text`
    /// (`Augmentation.continuationGapSeconds` later), as a person goes on
    /// after the phrase ("hey cordelia, turn the lights off"); empty for
    /// none. The clip's labelled end stays the end of `text`. Never logged.
    package var continuation: String
    /// Other speech that no training round fits on: in the train split only
    /// the first head's mistakes on it are added (`TrainingBudget.minedSpeech`);
    /// in the validation split only the threshold's choice hears it
    /// (`TrainingBudget.thresholdSpeech`).
    package var minedOnly: Bool
    /// Words of `text` said with their stress on another syllable than the
    /// engine puts it (`StressShift`: words the dictionary lacks, espeak-ng
    /// voices only); nil: as the engine says them.
    package var stressShift: StressShift?

    /// A clip as given.
    package init(index: Int, role: Role, text: String, voice: SynthVoice?, augmentation: Augmentation,
                split: Split, noiseSeconds: Double = 0, continuation: String = "", minedOnly: Bool = false,
                stressShift: StressShift? = nil) {
        self.index = index
        self.role = role
        self.text = text
        self.voice = voice
        self.augmentation = augmentation
        self.split = split
        self.noiseSeconds = noiseSeconds
        self.continuation = continuation
        self.minedOnly = minedOnly
        self.stressShift = stressShift
    }
}
