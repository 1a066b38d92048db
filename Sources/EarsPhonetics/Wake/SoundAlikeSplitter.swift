/// Makes the near-misses a phone-for-phone swap cannot: a phrase word said as
/// two other words ("okay nabu" → "okay now boot", "hey jarvis" → "hey jar
/// is", "hey cordelia" → "hey called delia"), as people run words together
/// in speech.
///
/// A split of a word of n phones is two dictionary words whose phones are
/// each within `editsPerPart` edits of the word's first k and last n − k
/// phones (each half at least `minimumPartPhones` long), so the words said
/// together are at most 2 edits from the word — the same reach as
/// `SoundAlikeGenerator`'s neighbours. A split whose halves are the word's
/// phones exactly ("nah boo" for N AA B UW) is acoustically the phrase and is
/// never returned. A word the dictionary lacks is read as the generator reads
/// it (`SoundAlikeGenerator.readings`: each vowel but a final open one also
/// as a schwa), and a split costs what its closest reading gives.
///
/// Why: the benchmark's near-miss sentences that woke trained heads were
/// mostly words run together or cut apart ("a lexicon", "jar of"), which the
/// neighbours (one word for one word, at most two phone edits) never make,
/// and a long name has almost no neighbours at all ("cordelia": one,
/// "cornelia"), so its head had heard a single near-miss.
///
/// The dictionary has no word frequencies; `vocabulary`, when given, keeps
/// only halves that are words of it (training passes the words of the
/// fortunes it reads, so the halves are words people say). Deterministic:
/// the same dictionary, phrase and vocabulary give the same list.
package struct SoundAlikeSplitter: Sendable {
    /// Splits returned when the caller does not say.
    package static let defaultCount = 20
    /// Fewest phones in either half of the split word.
    package static let minimumPartPhones = 2
    /// Most phone edits between a half and its dictionary word.
    package static let editsPerPart = 1
    /// Most splits that share a word (either half), so one common word
    /// ("is", "the") cannot fill the list.
    package static let usesPerWord = 2
    /// Dictionary words kept per half before pairing, cheapest first: bounds
    /// the pairs tried (a two-phone half has hundreds of one-edit words).
    package static let candidatesPerHalf = 40

    /// Lends the dictionary, its readings of unknown words and the edit costs.
    package let generator: SoundAlikeGenerator
    /// Spells the texts returned.
    private let speller: PhoneticSpeller

    /// A splitter over `generator`'s dictionary and costs.
    package init(generator: SoundAlikeGenerator) {
        self.generator = generator
        speller = PhoneticSpeller(pronouncer: generator.dictionary)
    }

    /// One word of the phrase replaced by two: where, by what, at which cost.
    private struct Split: Hashable {
        var position: Int
        var first: String
        var second: String
    }

    /// Where a word is cut: its position, which of its readings, and the phones before the cut.
    private struct Cut: Hashable {
        var position: Int
        var reading: Int
        var headPhones: Int
    }

    /// At most `count` splits of `phrase`'s words costing at least
    /// `minimumCost` (`PhoneticCost` units; always more than 0), cheapest
    /// first (ties by text), of kind `.split`; no half is one of the phrase's
    /// own words, and no word serves more than `usesPerWord` splits. Empty
    /// for a phrase without a word of `2 × minimumPartPhones` English phones.
    package func splits(of phrase: String, count: Int = SoundAlikeSplitter.defaultCount,
                        minimumCost: Double = 0, vocabulary: Set<String>? = nil) -> [SoundAlike] {
        let words = TextNormalizer.fold(phrase).split(separator: " ").map(String.init)
        let sounds = words.map { speller.sounds(ofWord: Substring($0)) }
        let shortest = 2 * Self.minimumPartPhones
        let readings: [[[Sound]]] = words.indices.map { position in
            let phones = sounds[position]
            guard phones.count >= shortest, phones.allSatisfy({ $0.kind == .phone }) else { return [] }
            return generator.readings(of: words[position], sounds: phones)
        }
        let cuts = readings.indices.flatMap { position in
            readings[position].indices.flatMap { reading in
                let length = readings[position][reading].count
                return (Self.minimumPartPhones...(length - Self.minimumPartPhones)).map {
                    Cut(position: position, reading: reading, headPhones: $0)
                }
            }
        }
        guard count > 0, let longest = readings.flatMap({ $0.map(\.count) }).max() else { return [] }
        let halves = self.halves(cuts: cuts, readings: readings, longestWord: longest,
                                 ownWords: Set(words), vocabulary: vocabulary)
        var best: [Split: Double] = [:]
        for cut in cuts {
            for head in halves.heads[cut, default: []] {
                for tail in halves.tails[cut, default: []] {
                    let cost = SoundAlikeGenerator.rounded(head.cost + tail.cost)
                    let split = Split(position: cut.position, first: head.word, second: tail.word)
                    best[split] = min(best[split] ?? .infinity, cost)
                }
            }
        }
        // A split is as close as its closest reading and cut: one that any
        // reading says exactly (cost 0) is the phrase, never a negative.
        let ranked = best.filter { $0.value > 0 && $0.value >= minimumCost }.map { split, cost in
            (split: split, cost: cost, text: Self.text(words, split))
        }.sorted { $0.cost != $1.cost ? $0.cost < $1.cost : $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) }
        var uses: [String: Int] = [:]
        var chosen: [SoundAlike] = []
        for candidate in ranked where chosen.count < count {
            let (first, second) = (candidate.split.first, candidate.split.second)
            guard uses[first, default: 0] < Self.usesPerWord, uses[second, default: 0] < Self.usesPerWord else { continue }
            uses[first, default: 0] += 1
            uses[second, default: 0] += 1
            chosen.append(SoundAlike(text: candidate.text, sounds: speller.spell(folded: candidate.text),
                                     cost: candidate.cost, kind: .split))
        }
        return chosen
    }

    /// A dictionary word close to one half of a cut word, and how close.
    private struct Half {
        var word: String
        var cost: Double
    }

    /// For every cut, the dictionary words near its head and near its tail,
    /// the cheapest `candidatesPerHalf` of each (ties by word).
    private func halves(cuts: [Cut], readings: [[[Sound]]], longestWord: Int, ownWords: Set<String>,
                        vocabulary: Set<String>?) -> (heads: [Cut: [Half]], tails: [Cut: [Half]]) {
        var heads: [Cut: [Half]] = [:], tails: [Cut: [Half]] = [:]
        let fewest = max(1, Self.minimumPartPhones - Self.editsPerPart)
        let most = longestWord - Self.minimumPartPhones + Self.editsPerPart
        guard fewest <= most else { return ([:], [:]) }
        for entry in generator.dictionary.entries(phoneCounts: fewest...most)
        where !ownWords.contains(entry.word) && SoundAlikeGenerator.looksCommon(entry, ownWords: ownWords)
            && vocabulary.map({ $0.contains(entry.word) }) ?? true {
            for cut in cuts {
                let phones = readings[cut.position][cut.reading]
                if let cost = generator.editCost(from: Array(phones[..<cut.headPhones]), to: entry.phones, limit: Self.editsPerPart) {
                    heads[cut, default: []].append(Half(word: entry.word, cost: cost))
                }
                if let cost = generator.editCost(from: Array(phones[cut.headPhones...]), to: entry.phones, limit: Self.editsPerPart) {
                    tails[cut, default: []].append(Half(word: entry.word, cost: cost))
                }
            }
        }
        let cheapest = { (list: [Half]) -> [Half] in
            Array(list.sorted { $0.cost != $1.cost ? $0.cost < $1.cost : $0.word.utf8.lexicographicallyPrecedes($1.word.utf8) }
                .prefix(Self.candidatesPerHalf))
        }
        return (heads.mapValues(cheapest), tails.mapValues(cheapest))
    }

    /// The folded phrase with the split's word replaced by its two words.
    private static func text(_ words: [String], _ split: Split) -> String {
        var copy = words
        copy[split.position] = split.first + " " + split.second
        return copy.joined(separator: " ")
    }
}
