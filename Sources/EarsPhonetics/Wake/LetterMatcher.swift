/// Tolerant matching of a written phrase inside transcript text.
///
/// Both sides are folded (`TextNormalizer`) and compared as letter strings
/// with spaces removed, so "hey cor delia" and "heycordelia" match "hey
/// cordelia". The phrase may sit anywhere in the text (approximate substring
/// matching, Sellers' algorithm): the cost is the fewest letter insertions,
/// deletions and substitutions that turn some stretch of the text into the
/// phrase, and the score is `1 - cost / phrase letters`, clamped to 0…1.
package enum LetterMatcher {
    /// The best match of a phrase in a text.
    package struct Match: Sendable, Equatable {
        /// 0…1; 1 is an exact occurrence.
        package var score: Double
        /// Index (in the text's letters, spaces removed) just past the match.
        package var endLetter: Int
    }

    /// Letters of `text` after folding, spaces removed.
    package static func letters(_ text: String) -> [Character] {
        Array(TextNormalizer.fold(text).filter { $0 != " " })
    }

    /// Best match of `phrase` in `text` whose end lies at or after letter
    /// `earliestEnd` of the text (so a caller can insist the match touches new
    /// words). Returns nil if the phrase or the allowed region is empty.
    package static func bestMatch(of phrase: [Character], in text: [Character], earliestEnd: Int = 0) -> Match? {
        let m = phrase.count
        guard m > 0, !text.isEmpty, earliestEnd <= text.count else { return nil }
        // column[i] = cost of matching phrase[0..<i] ending at the current text position.
        var previous = Array(0...m)
        var current = [Int](repeating: 0, count: m + 1)
        var best: Match?
        if earliestEnd == 0 {
            best = Match(score: 0, endLetter: 0)
        }
        for j in 1...text.count {
            current[0] = 0 // the match may start anywhere in the text
            for i in 1...m {
                let substitution = previous[i - 1] + (phrase[i - 1] == text[j - 1] ? 0 : 1)
                let deletion = previous[i] + 1 // a text letter the phrase lacks
                let insertion = current[i - 1] + 1 // a phrase letter the text lacks
                current[i] = min(substitution, deletion, insertion)
            }
            if j >= earliestEnd {
                let score = max(0, 1 - Double(current[m]) / Double(m))
                if best == nil || score > best!.score {
                    best = Match(score: score, endLetter: j)
                }
            }
            swap(&previous, &current)
        }
        return best
    }

    /// Convenience: the score of `phrase` anywhere in `text`, 0…1.
    package static func score(of phrase: String, in text: String) -> Double {
        bestMatch(of: letters(phrase), in: letters(text))?.score ?? 0
    }
}
