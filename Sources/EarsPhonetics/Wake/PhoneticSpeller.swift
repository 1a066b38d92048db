/// Spells folded text as sounds, word by word.
///
/// Per word (words are split on spaces): a word holding Hangul is taken apart
/// into jamo (`Hangul`); a word of ASCII letters is pronounced by the
/// pronouncer, then by `LetterToSoundPronouncer` if the pronouncer does not
/// know it; any other word (other scripts, digits) is its letters. No
/// Foundation here: this runs for every transcript piece.
package struct PhoneticSpeller: Sendable {
    /// Asked first for ASCII words, typically a `CMUDictionaryPronouncer`.
    package let pronouncer: any Pronouncer
    /// The last resort for ASCII words the pronouncer does not know.
    private let fallback = LetterToSoundPronouncer()

    /// A speller that asks `pronouncer` first and guesses from letters after.
    package init(pronouncer: any Pronouncer) {
        self.pronouncer = pronouncer
    }

    /// The sounds of `folded` (the output of `TextNormalizer.fold`: lowercase
    /// words separated by single spaces; extra spaces are tolerated).
    package func spell(folded: String) -> SoundSequence {
        var sequence = SoundSequence()
        for word in folded.split(separator: " ", omittingEmptySubsequences: true) {
            sequence.appendWord(sounds(ofWord: word))
        }
        return sequence
    }

    /// The sounds of one folded word.
    package func sounds(ofWord word: Substring) -> [Sound] {
        let scalars = Array(word.unicodeScalars)
        if scalars.contains(where: Hangul.isHangul) {
            return Hangul.sounds(of: scalars)
        }
        if scalars.allSatisfy(PhoneticSpeller.isASCIILetter) {
            let text = String(word)
            let names = pronouncer.phones(for: text) ?? fallback.phones(for: text) ?? []
            return names.flatMap { ARPAbet.expand($0).map(Sound.phone) }
        }
        return scalars.map(Sound.letter)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
