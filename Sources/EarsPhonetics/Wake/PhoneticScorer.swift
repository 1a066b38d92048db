/// Phrase scoring by sound: the phrase and the transcript are spelled as
/// phones (English, through a pronunciation dictionary with a letter-to-sound
/// fallback), jamo (Hangul) or folded letters (other scripts), and aligned
/// with `PhoneticMatcher`, whose substitution costs know which sounds are close.
/// So "hey card eliot" and "cake or deli on" come close to "hey cordelia".
///
/// The score is the larger of the sound score and the letter score, so an
/// exact written phrase is never scored lower than by letters alone.
///
/// Used from the audio thread only; it caches the spelling of the last text
/// it saw, because every phrase form is scored against the same new piece.
package final class PhoneticScorer: PhraseScorer {
    /// Builds the sound spelling and does the alignment.
    package let matcher: PhoneticMatcher
    private let letters = LetterScorer()
    private var cachedBefore = SpellingCache()
    private var cachedNewest = SpellingCache()

    /// Makes a scorer that pronounces words with `pronouncer`.
    package init(pronouncer: any Pronouncer) {
        matcher = PhoneticMatcher(pronouncer: pronouncer)
    }

    /// A phrase form, spelled in sounds and in letters.
    package struct Prepared: Sendable {
        /// The form's sounds (`PhoneticMatcher.spell`).
        package let sounds: SoundSequence
        /// The form's folded letters, for the letter score it never falls below.
        package let letters: LetterScorer.Prepared
    }

    /// Spells `form` in sounds and in letters.
    package func prepare(_ form: String) -> Prepared {
        Prepared(sounds: matcher.spell(form), letters: letters.prepare(form))
    }

    /// The larger of the sound score and the letter score of `form` ending in
    /// `newest`, 0…1.
    package func score(_ form: Prepared, before: String, newest: String) -> Double {
        let byLetters = letters.score(form.letters, before: before, newest: newest)
        let old = cachedBefore.spelling(of: before, with: matcher)
        let text = old + cachedNewest.spelling(of: newest, with: matcher)
        let bySound = matcher.bestMatch(of: form.sounds, in: text, earliestEndWord: old.wordCount)?.score ?? 0
        return max(byLetters, bySound)
    }
}

/// One remembered spelling: every phrase form is scored against the same text.
private struct SpellingCache {
    private var text: String?
    private var spelled = SoundSequence()

    mutating func spelling(of text: String, with matcher: PhoneticMatcher) -> SoundSequence {
        if text.isEmpty { return SoundSequence() }
        if text != self.text {
            self.text = text
            spelled = matcher.spell(text)
        }
        return spelled
    }
}
