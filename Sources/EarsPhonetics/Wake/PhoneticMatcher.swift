/// Sound-alike matching of a written phrase inside transcript text.
///
/// Both sides are spelled as sounds (`PhoneticSpeller`: dictionary phones for
/// English, jamo for Hangul, letters for anything else) and aligned the way
/// `LetterMatcher` aligns letters: the phrase may sit anywhere in the text
/// (approximate substring matching, Sellers' algorithm, free start and end),
/// and the cost is the cheapest way of turning some stretch of the text into
/// the phrase. Unlike letters, edits are weighted by how close two sounds are
/// (`SoundCosts`): AO for AA is cheap, K for a vowel is not, a lost schwa or
/// HH costs less than a lost consonant, and a sound repeated across a word
/// gap ("cord delia") is nearly free to drop. Word boundaries are ignored, so "hey
/// card eliot", "cake or deli on" and "a record eliot" all line up with "hey
/// cordelia".
///
/// Score = max(0, 1 − cost / mass), where mass is the cost of losing every
/// phrase sound (the sum of their `indel` costs). 1 is an exact occurrence; 0
/// is no better than hearing none of the phrase. Mass is used rather than the
/// plain sound count so that "matched nothing" scores exactly 0 and a phrase's
/// cheap sounds (HH, schwas) weigh as little in the score as they do in the
/// cost.
///
/// Two rules keep stale words from firing when the text is the previous
/// final piece + the newest one (`earliestEndWord`). A match ends on a text
/// sound that is *matched* (substituted, possibly followed by phrase sounds the
/// text lacks), never on one it skips: skipping text at the end only ever adds
/// cost, except to reach into the new words. And the new words must carry at
/// least `minimumNewShare` of the phrase's mass: "hey cordelia" + "what's for
/// dinner" can otherwise end on the AH of "what's" after skipping two cheap
/// sounds and score 0.84, although the phrase was said in the old words.
/// (With `earliestEndWord` 0 the share rule just asks that a quarter of the
/// phrase be matched at all; less is reported as no match.)
///
/// Cost: one pass over a (phrase sounds + 1) column per text sound, so
/// O(phrase × text) with three small arrays: a 10-sound phrase in a 250-sound
/// text (seven pieces of speech) takes about 45 µs in a release build (0.6 ms
/// debug). Spelling a 12-word piece (a dictionary binary search per word) costs
/// about as much, so spell the phrase once and each piece once, and join.
package struct PhoneticMatcher: Sendable {
    /// Default share (0…1) of the phrase's mass that must be matched inside the
    /// newest words. Below the share of a phrase's last word for any sensible
    /// phrase ("cordelia" is 0.86 of "hey cordelia", "피파" 0.37 of "코델리아
    /// 피파"), above the one or two sounds a stale match borrows.
    package static let defaultMinimumNewShare = 0.25

    /// The best match of a phrase in a text.
    package struct Match: Sendable, Equatable {
        /// 0…1; 1 is an exact occurrence.
        package var score: Double
        /// The alignment cost, in `PhoneticCost` units.
        package var cost: Double
        /// Index (in the text's sounds) of the first sound the match spans.
        package var startSymbol: Int
        /// Index (in the text's sounds) just past the match; the sound before it is matched.
        package var endSymbol: Int
        /// Word (text numbering) of the first sound the match spans.
        package var startWord: Int
        /// Word (text numbering) of the last sound the match spans.
        package var endWord: Int
        /// Share (0…1) of the phrase's mass matched against sounds of words at
        /// or after `earliestEndWord`.
        package var newShare: Double
    }

    /// Turns text into sounds.
    package let speller: PhoneticSpeller
    /// The edit costs.
    package let costs: SoundCosts

    /// A matcher that pronounces English with `pronouncer` (then letter-to-sound
    /// rules) and weighs edits with `costs`.
    package init(pronouncer: any Pronouncer, costs: SoundCosts = .standard) {
        speller = PhoneticSpeller(pronouncer: pronouncer)
        self.costs = costs
    }

    /// The sounds of raw `text`: folded (`TextNormalizer.fold`), then spelled.
    /// Call once per phrase and once per transcript piece.
    package func spell(_ text: String) -> SoundSequence {
        speller.spell(folded: TextNormalizer.fold(text))
    }

    /// Cost of losing every sound of `phrase`: the score's denominator.
    package func mass(of phrase: SoundSequence) -> Double {
        indels(phrase.sounds).reduce(0, +)
    }

    /// Insertion/deletion cost of each sound, a repeat of the sound before it
    /// costing at most `PhoneticCost.repeatedIndel`.
    private func indels(_ sounds: [Sound]) -> [Double] {
        sounds.indices.map { k in
            let cost = costs.indel(sounds[k])
            return k > 0 && sounds[k] == sounds[k - 1] ? min(cost, PhoneticCost.repeatedIndel) : cost
        }
    }

    /// Best match of `phrase` in `text` that ends on a sound of word
    /// `earliestEndWord` or later (text numbering) and matches at least
    /// `minimumNewShare` of the phrase's mass there. Typical use: text =
    /// `previous + newest`, `earliestEndWord = previous.wordCount`. Among equal
    /// scores the earliest end wins. Nil if the phrase has no sounds or no
    /// allowed end exists.
    package func bestMatch(of phrase: SoundSequence, in text: SoundSequence, earliestEndWord: Int = 0,
                          minimumNewShare: Double = PhoneticMatcher.defaultMinimumNewShare) -> Match? {
        let p = phrase.sounds, t = text.sounds
        let m = p.count
        guard m > 0, let firstNew = text.wordIndex.firstIndex(where: { $0 >= earliestEndWord }) else { return nil }
        let insert = indels(p) // a phrase sound the text lacks
        let delete = indels(t) // a text sound the phrase lacks
        let mass = insert.reduce(0, +)
        guard mass > 0 else { return nil }
        // column[i]: the cheapest alignment of p[0..<i] with text ending at the
        // current position; ended[i]: the same, restricted to alignments whose
        // last text sound is matched (only phrase insertions after it).
        var previous = [Cell](repeating: Cell(cost: 0, start: 0, newMass: 0), count: m + 1)
        for i in 1...m { previous[i].cost = previous[i - 1].cost + insert[i - 1] }
        var column = previous
        var ended = previous
        var best: Match?
        for j in 1...t.count {
            let sound = t[j - 1]
            let isNew = j - 1 >= firstNew
            column[0] = Cell(cost: 0, start: j, newMass: 0) // the match may start anywhere
            ended[0] = Cell.unreachable
            for i in 1...m {
                var matched = previous[i - 1]
                matched.cost += costs.substitution(p[i - 1], sound)
                if isNew { matched.newMass += insert[i - 1] }
                var trailing = ended[i - 1]
                trailing.cost += insert[i - 1]
                ended[i] = trailing.cost < matched.cost ? trailing : matched
                var skipped = previous[i]
                skipped.cost += delete[j - 1]
                var lacking = column[i - 1]
                lacking.cost += insert[i - 1]
                let cell = skipped.cost < ended[i].cost ? skipped : ended[i]
                column[i] = lacking.cost < cell.cost ? lacking : cell
            }
            let end = ended[m]
            if isNew, end.newMass >= minimumNewShare * mass {
                let score = max(0, 1 - end.cost / mass)
                if best == nil || score > best!.score {
                    best = Match(score: score, cost: end.cost, startSymbol: end.start, endSymbol: j,
                                 startWord: text.wordIndex[end.start], endWord: text.wordIndex[j - 1],
                                 newShare: end.newMass / mass)
                }
            }
            swap(&previous, &column)
        }
        return best
    }

    /// Convenience: the score of `phrase` anywhere in `text`, 0…1 (spells both each call).
    package func score(of phrase: String, in text: String) -> Double {
        bestMatch(of: spell(phrase), in: spell(text))?.score ?? 0
    }
}

/// One alignment in the table: its cost, where in the text it began, and how
/// much phrase mass it matched against new words.
private struct Cell {
    static let unreachable = Cell(cost: .infinity, start: 0, newMass: 0)
    var cost: Double
    var start: Int
    var newMass: Double
}
