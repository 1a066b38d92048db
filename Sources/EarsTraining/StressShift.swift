import EarsPhonetics

/// A positive clip whose words the pronouncing dictionary lacks carry their
/// stress on another syllable than the engine would put it.
///
/// Why: a made-up name has no stress anyone agreed on. Each engine's
/// letter-to-sound rules guess one, and a person may put it on either
/// syllable; a head trained on one engine's guess misses the other. Heard
/// on "okay nabu": espeak-ng says NAH-boo, festival na-BOO (its lexicon
/// stresses the second syllable), and the model trained without festival
/// scored festival's kal voice 0.49 where festival respelled "nahbu" (stress
/// first) scored 0.96 (issue 20; the measurement is in docs/training.md). So a share of espeak-ng's positives
/// (`TrainingPlan.stressShiftShare`; espeak-ng is the engine that takes
/// phonemes, `[[…]]`) say those words with the stress moved.
///
/// The clip keeps only which words and which other syllable
/// (`pick`); the phonemes come from the voice at synthesis time
/// (`espeak-ng -x`), since en-us and en-gb spell them differently, and
/// `restressed(_:pick:)` moves the mark.
package struct StressShift: Sendable, Hashable {
    /// The folded words to say with the stress moved (the phrase's words
    /// the dictionary lacks).
    package var words: [String]
    /// Which syllable takes the primary stress: among the word's syllables
    /// other than the one the engine stressed, the `pick % (count - 1)`th.
    package var pick: Int

    /// A shift of `words` to the `pick`ed other syllable.
    package init(words: [String], pick: Int) {
        self.words = words
        self.pick = pick
    }

    /// espeak-ng's primary stress mark in its phoneme mnemonics (`-x`, `[[…]]`).
    package static let primaryMark: Character = "'"
    /// espeak-ng's secondary stress mark.
    package static let secondaryMark: Character = ","

    /// The words of `words` that no dictionary in `pronouncer` knows (a
    /// `PronouncingDictionary`; letter-to-sound guesses do not count), in
    /// order, each once. A pronouncer that is no dictionary knows nothing.
    package static func unknownWords(_ words: [String], pronouncer: any Pronouncer) -> [String] {
        var unknown: [String] = []
        for word in words where !unknown.contains(word) && !pronouncer.dictionaryKnows(word) {
            unknown.append(word)
        }
        return unknown
    }

    /// The vowel nuclei of an espeak-ng English phoneme string, in order:
    /// each a run that starts at a vowel letter (`a A e E i I o O u U V @ 3`,
    /// or `0`, the "lot" vowel) and goes on through vowel letters, length
    /// and variant marks (`:`, `#`, `-`, digits, `L` of `@L`), so a
    /// diphthong (`eI`, `oU`) is one nucleus.
    package static func nuclei(_ phonemes: String) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var index = phonemes.startIndex
        while index < phonemes.endIndex {
            let character = phonemes[index]
            guard vowelLetters.contains(character) || character == "0" else {
                index = phonemes.index(after: index)
                continue
            }
            let start = index
            var previous = character
            index = phonemes.index(after: index)
            while index < phonemes.endIndex {
                let next = phonemes[index]
                let goesOn = vowelLetters.contains(next) || nucleusMarks.contains(next) || next.isNumber
                    || (next == "L" && previous == "@")
                guard goesOn else { break }
                previous = next
                index = phonemes.index(after: index)
            }
            found.append(start..<index)
        }
        return found
    }

    private static let vowelLetters: Set<Character> = ["a", "A", "e", "E", "i", "I", "o", "O", "u", "U", "V", "@", "3"]
    private static let nucleusMarks: Set<Character> = [":", "#", "-"]

    /// `phonemes` (one word, as `espeak-ng -x` writes it) with the primary
    /// stress moved to another syllable: the engine's primary becomes a
    /// secondary stress and the `pick % (count - 1)`th of the other
    /// syllables takes the primary mark (a secondary mark it had goes).
    /// A word of one syllable, or without a primary mark, comes back as it is.
    package static func restressed(_ phonemes: String, pick: Int) -> String {
        let nuclei = nuclei(phonemes)
        guard nuclei.count > 1, let mark = phonemes.firstIndex(of: primaryMark) else { return phonemes }
        let stressed = nuclei.firstIndex { $0.lowerBound > mark } ?? 0
        let others = nuclei.indices.filter { $0 != stressed }
        let target = nuclei[others[((pick % others.count) + others.count) % others.count]].lowerBound
        var out = ""
        var index = phonemes.startIndex
        while index < phonemes.endIndex {
            let character = phonemes[index]
            let next = phonemes.index(after: index)
            if index == target {
                out.append(primaryMark)
            }
            if character == primaryMark {
                out.append(secondaryMark)
            } else if character == secondaryMark, next == target {
                // the syllable taking the primary stress loses its secondary mark
            } else {
                out.append(character)
            }
            index = next
        }
        return out
    }

    /// `text` with each of `words` (matched whole, ignoring case) replaced by
    /// `[[` its restressed phonemes `]]`, espeak-ng's inline phoneme input;
    /// `phonemes(word)` gives a word's phonemes as the voice would say them
    /// (nil: that word is left as written).
    package func apply(to text: String, phonemes: (String) -> String?) -> String {
        var out: [Substring] = []
        for token in text.split(separator: " ", omittingEmptySubsequences: false) {
            let letters = token.drop { !$0.isLetter }
            let word = letters.prefix { $0.isLetter || $0 == "'" }
            let folded = word.lowercased()
            guard !word.isEmpty, words.contains(folded), let said = phonemes(folded) else {
                out.append(token)
                continue
            }
            let lead = token[..<letters.startIndex], trail = token[word.endIndex...]
            out.append(Substring(lead + "[[" + Self.restressed(said, pick: pick) + "]]" + trail))
        }
        return out.joined(separator: " ")
    }
}
