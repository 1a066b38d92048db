/// Something that sounds close to a wake phrase without being it: a text to
/// say (or synthesize) when testing that the detector does not fire, made by
/// `SoundAlikeGenerator`.
package struct SoundAlike: Sendable, Equatable {
    /// How a sound-alike was made.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The phrase with one word swapped for a dictionary word one or two
        /// phone edits away ("hey cornelia" for "hey cordelia").
        case neighbour
        /// One word of a several-word phrase, alone ("cordelia").
        case word
        /// A carrier sentence holding a neighbour ("hey cornelia, nice to see you").
        case sentence
    }

    /// The text, folded (lowercase words, single spaces; a sentence may hold a comma).
    package var text: String
    /// The text's sounds, word by word, as the phonetic matcher spells it.
    package var sounds: SoundSequence
    /// How far it sounds from the phrase, in `PhoneticCost` units (rounded to
    /// 0.001 so that equal edits compare equal): for a neighbour the weighted
    /// edit cost of the swapped word; for a word alone the cost of losing the
    /// phrase's other words; for a sentence its neighbour's cost (the carrier
    /// words are not counted: they lie outside the phrase).
    package var cost: Double
    /// How it was made.
    package var kind: Kind

    /// A sound-alike as given.
    package init(text: String, sounds: SoundSequence, cost: Double, kind: Kind) {
        self.text = text
        self.sounds = sounds
        self.cost = cost
        self.kind = kind
    }
}
