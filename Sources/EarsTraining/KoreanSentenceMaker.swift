import EarsCore
import EarsPhonetics

/// Korean speech that is not the phrase, for a Korean phrase's other-speech
/// negatives: short sentences of real Korean words (a spelling dictionary's,
/// `HunspellWordReader`) with particles and endings, read by the phrase's
/// own Korean voices. Pure and seeded.
///
/// Why: a Korean phrase's other speech used to be English fortunes read by
/// English voices, so the only Korean speech its head ever heard was the
/// phrase (and six carrier sentences): it learnt "a Korean voice" as much as
/// the phrase and woke on Korean conversation (docs/benchmark-korean.md).
/// The sentences mean nothing, but their syllables, word lengths and
/// prosody are Korean, which is what the head must learn to tell apart.
package enum KoreanSentenceMaker {
    /// Words in a sentence.
    package static let wordsPerSentence: ClosedRange<Int> = 3...7
    /// Syllables of a word kept from the dictionary.
    package static let syllablesPerWord: ClosedRange<Int> = 1...5
    /// Share of the words before the last that take a particle.
    package static let particleShare = 0.5
    /// Share of sentences whose last word takes a verb ending.
    package static let endingShare = 0.6
    /// Particles put after a word (subject, topic, object, place, "and", "too", "of").
    package static let particles = ["은", "는", "이", "가", "을", "를", "에", "에서", "도", "와", "하고", "의"]
    /// Endings put after the last word.
    package static let endings = ["요", "다", "야", "어요", "습니다", "지", "네"]

    /// Whether `character` is one precomposed Hangul syllable (`Hangul.isSyllable`).
    package static func isHangulSyllable(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && Hangul.isSyllable(character.unicodeScalars.first!)
    }

    /// The words of `dictionary` fit to say: Hangul syllables only, 1 to 5 of
    /// them, none holding a word of `phrase`. Pieces of a phrase word stay
    /// ("델리" of "코델리아"): near-misses a head must learn to refuse.
    package static func vocabulary(_ dictionary: [String], avoiding phrase: String) -> [String] {
        let phraseWords = phrase.split(separator: " ").map(String.init)
        return dictionary.filter { word in
            syllablesPerWord.contains(word.count) && word.allSatisfy(isHangulSyllable)
                && !phraseWords.contains { word.contains($0) }
        }
    }

    /// `count` distinct sentences (fewer when the vocabulary cannot make that
    /// many) from `vocabulary`, seeded. None holds a word of `phrase`, even
    /// across a word boundary (the sentence is checked with its spaces taken out).
    package static func sentences(from vocabulary: [String], avoiding phrase: String, count: Int, seed: UInt64) -> [String] {
        guard !vocabulary.isEmpty, count > 0 else { return [] }
        let phraseWords = phrase.split(separator: " ").map(String.init)
        var generator = SeededGenerator(seed: seed ^ 0x4B4F_5245_414E)
        var seen = Set<String>()
        var sentences: [String] = []
        // Bounded: a tiny vocabulary cannot make `count` distinct sentences.
        for _ in 0..<(count * 4) where sentences.count < count {
            let length = generator.int(in: wordsPerSentence)
            var words: [String] = []
            for position in 0..<length {
                var word = generator.pick(vocabulary)
                if position < length - 1, generator.unit() < particleShare { word += generator.pick(particles) }
                if position == length - 1, generator.unit() < endingShare { word += generator.pick(endings) }
                words.append(word)
            }
            let sentence = words.joined(separator: " ") + generator.pick([".", ".", "?", "!"])
            let joined = sentence.filter { $0 != " " }
            guard !phraseWords.contains(where: { joined.contains($0) }), seen.insert(sentence).inserted else { continue }
            sentences.append(sentence)
        }
        return sentences
    }
}
