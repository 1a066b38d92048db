import EarsCore

/// Orders a phrase's neighbours (`SoundAlikeGenerator`) the way a person
/// would meet them: words people say often first, and every word of the
/// phrase varied in turn, not only the one with the most cheap neighbours.
///
/// Why: the generator ranks by sound alone, and a short word has dozens of
/// close but rare neighbours ("hey" → "schey", "seay", "hao"), so the one a
/// user needs ("hey cornelia") came twentieth. Here each neighbour's score is
/// its sound cost plus `rarityWeight` × its rarity (−log10 of how often the
/// word is said, from a language model's unigrams; a word the model lacks
/// counts as `unknownLog10Frequency`). Neighbours are grouped by the word
/// they replace, each group best first, and taken one group at a time
/// (the longest phrase word first); ties break by text.
package enum SoundAlikeRanking {
    /// Score per unit of rarity (one order of magnitude less frequent).
    package static let rarityWeight = 0.25
    /// log10 frequency given to a word the language model does not know.
    package static let unknownLog10Frequency = -9.0

    /// One neighbour with the word it swapped in.
    package struct Ranked: Sendable, Equatable {
        /// The neighbour as the generator made it.
        package var alike: SoundAlike
        /// Which word of the phrase it replaces (0-based).
        package var position: Int
        /// The word it puts there.
        package var word: String
        /// Cost plus weighted rarity: lower comes first.
        package var score: Double
    }

    /// `neighbours` of `phrase` (other kinds are dropped) ranked, at most
    /// `count`. `log10Frequency` answers how often a word is said (nil: unknown).
    package static func rank(_ neighbours: [SoundAlike], of phrase: String, count: Int,
                             log10Frequency: (String) -> Double?) -> [Ranked] {
        let words = phrase.split(separator: " ").map(String.init)
        var groups: [Int: [Ranked]] = [:]
        for alike in neighbours where alike.kind == .neighbour {
            let swapped = alike.text.split(separator: " ").map(String.init)
            guard swapped.count == words.count, let position = swapped.indices.first(where: { swapped[$0] != words[$0] }) else {
                continue
            }
            let rarity = -(log10Frequency(swapped[position]) ?? unknownLog10Frequency)
            groups[position, default: []].append(Ranked(alike: alike, position: position, word: swapped[position],
                                                        score: alike.cost + rarityWeight * rarity))
        }
        let order = groups.keys.sorted { a, b in words[a].count != words[b].count ? words[a].count > words[b].count : a < b }
        let sorted = order.map { position in groups[position]!.sorted { $0.score != $1.score ? $0.score < $1.score : $0.alike.text < $1.alike.text } }
        var picked: [Ranked] = []
        var round = 0
        while picked.count < count, sorted.contains(where: { $0.count > round }) {
            for group in sorted where group.count > round && picked.count < count { picked.append(group[round]) }
            round += 1
        }
        return picked
    }

    /// Carrier sentences (`SoundAlikeGenerator.carriers`) around the first
    /// neighbours of `ranked`, one each.
    package static func sentences(_ ranked: [Ranked]) -> [String] {
        zip(SoundAlikeGenerator.carriers, ranked).map { carrier, neighbour in
            carrier.replacing("{}", with: neighbour.alike.text)
        }
    }
}
