/// Makes sound-alikes of a wake phrase from a pronouncing dictionary: texts
/// that sound close to the phrase but are not it, to test that the detector
/// stays quiet (negatives for `ears scan` and the benchmark).
///
/// Three kinds, in this order (`SoundAlike.Kind`):
///
/// 1. Neighbours: the phrase with one word replaced by a dictionary word
///    within `maximumEdits` phone substitutions, insertions or deletions of it
///    ("hey cordelia" → "hey cornelia", "okay juniper" → "okay jupiter"). They
///    are ranked by the weighted edit cost of the swap (`SoundCosts`: a close
///    substitution such as D/T costs less than D/K, so the cheaper, the more
///    alike). Selection takes the cheapest of each word in turn (round robin
///    over the phrase's words), so a short word with dozens of cheap
///    neighbours ("hey": "he", "say", "hi") cannot crowd out the name; the
///    chosen ones are then listed cheapest first, ties by text. A phrase
///    word the dictionary lacks (a made-up name, spelled by letter-to-sound
///    rules) is also read with each vowel but a final open one reduced to a
///    schwa, since its stress is anyone's guess; a neighbour costs what its
///    closest reading does (`readings(of:sounds:)`).
/// 2. Words alone: each distinct word of a several-word phrase ("cordelia").
/// 3. Sentences: each of `carriers` holding a neighbour: the cheapest
///    neighbour of each word in turn, the longest word first, so the first
///    sentence swaps the name ("hey cornelia, nice to see you").
///
/// Never returned: the phrase itself, and homophones, words with exactly the
/// phrase word's phones, or a reading's ("hay" for "hey"): acoustically they *are* the phrase,
/// so they would be wrong as negatives. `homophones(of:)` lists them instead.
///
/// Word frequency is unknown, so common-looking words are preferred by
/// filtering: only entries spelled with the letters a–z (no digits,
/// apostrophes, dots or hyphens), at least `minimumWordLength` letters unless
/// the word is in the phrase. Alternate pronunciations ("word(2)") are never
/// seen: the dictionary keeps the first.
///
/// Only English words get neighbours: the dictionary's phones are English.
/// A Hangul (Korean) word is spelled in jamo and has none, so a Korean phrase
/// gets only its words alone (and a one-word Korean phrase nothing).
///
/// Cost: one `entries(phoneCounts:)` pass over the dictionary per call, then a
/// small edit-distance table per entry within `maximumEdits` phones of a
/// phrase word's length. For "hey cordelia" on the 134k-word PocketSphinx
/// dictionary that is about 60k tables of at most 10 × 10 cells.
package struct SoundAlikeGenerator: Sendable {
    /// Neighbours returned when the caller does not say.
    package static let defaultCount = 20
    /// Most phone edits (substitutions, insertions, deletions) between a
    /// phrase word and its replacement.
    package static let maximumEdits = 2
    /// Shortest dictionary word (in letters) used as a replacement, unless it
    /// is one of the phrase's own words: one- and two-letter entries are mostly
    /// abbreviations and letter names.
    package static let minimumWordLength = 3
    /// The carrier sentences; `{}` stands for the neighbour.
    package static let carriers = ["{}, nice to see you", "did you ask {} about it", "i think {} is here"]

    /// Lists the words to try and answers for the phrase's own words.
    package let dictionary: any PronouncingDictionary
    /// Weighs the edits.
    package let costs: SoundCosts
    /// Spells phrases and sentences (the dictionary, then letter-to-sound rules).
    private let speller: PhoneticSpeller

    /// A generator over `dictionary`, weighing edits with `costs`.
    package init(dictionary: any PronouncingDictionary, costs: SoundCosts = .standard) {
        self.dictionary = dictionary
        self.costs = costs
        speller = PhoneticSpeller(pronouncer: dictionary)
    }

    /// Sound-alikes of `phrase`: at most `count` neighbours (cheapest first),
    /// then the words alone, then up to `carriers.count` sentences (none when
    /// `count` is 0). Deterministic: the same dictionary and phrase always give
    /// the same list.
    package func soundAlikes(of phrase: String, count: Int = SoundAlikeGenerator.defaultCount) -> [SoundAlike] {
        let search = self.search(phrase)
        let chosen = select(search.neighbours, count: max(0, count))
        let neighbours = chosen.map { swap in
            let text = search.text(replacing: swap.position, with: swap.word)
            return SoundAlike(text: text, sounds: speller.spell(folded: text), cost: swap.cost, kind: .neighbour)
        }
        var words: [SoundAlike] = []
        if search.words.count > 1 {
            var seen = Set<String>()
            for (position, word) in search.words.enumerated() where seen.insert(word).inserted {
                let lost = search.sounds.indices.filter { search.words[$0] != word }
                    .flatMap { search.sounds[$0] }.reduce(0) { $0 + costs.indel($1) }
                words.append(SoundAlike(text: word, sounds: SoundSequence(words: [search.sounds[position]]),
                                        cost: SoundAlikeGenerator.rounded(lost), kind: .word))
            }
        }
        let sentences = zip(SoundAlikeGenerator.carriers, carried(chosen, in: search).map { neighbours[$0] }).map { carrier, neighbour in
            let text = carrier.replacing("{}", with: neighbour.text)
            return SoundAlike(text: text, sounds: speller.spell(folded: TextNormalizer.fold(text)),
                              cost: neighbour.cost, kind: .sentence)
        }
        return neighbours + words + sentences
    }

    /// The phrase with one word swapped for a different word of identical
    /// phones ("hay cordelia" for "hey cordelia"), sorted: sound-alikes that
    /// are acoustically the phrase, kept apart from the negatives.
    package func homophones(of phrase: String) -> [String] {
        let search = self.search(phrase)
        return search.homophones.map { search.text(replacing: $0.position, with: $0.word) }.sorted()
    }

    /// Weighted cost of turning `a` into `b`, or nil when that takes more
    /// than `maximumEdits` edits (counted unweighted). Package-internal so the
    /// tests can check the distance directly.
    package func editCost(from a: [Sound], to b: [Sound]) -> Double? {
        let limit = SoundAlikeGenerator.maximumEdits
        guard abs(a.count - b.count) <= limit else { return nil }
        // Two tables side by side: unit edits decide "close enough", weighted
        // costs rank. Rows are over `b`; one row of each is kept.
        var edits = Array(0...b.count)
        var weights = [0.0]
        for sound in b { weights.append(weights[weights.count - 1] + costs.indel(sound)) }
        var nextEdits = edits, nextWeights = weights
        for i in 1...max(1, a.count) where i <= a.count {
            let sound = a[i - 1]
            nextEdits[0] = i
            nextWeights[0] = weights[0] + costs.indel(sound)
            var rowMinimum = nextEdits[0]
            for j in 1...max(1, b.count) where j <= b.count {
                let same = sound == b[j - 1]
                nextEdits[j] = min(edits[j - 1] + (same ? 0 : 1), edits[j] + 1, nextEdits[j - 1] + 1)
                nextWeights[j] = min(weights[j - 1] + costs.substitution(sound, b[j - 1]),
                                     weights[j] + costs.indel(sound), nextWeights[j - 1] + costs.indel(b[j - 1]))
                rowMinimum = min(rowMinimum, nextEdits[j])
            }
            if rowMinimum > limit { return nil } // edits never shrink down the table
            swap(&edits, &nextEdits)
            swap(&weights, &nextWeights)
        }
        return edits[b.count] <= limit ? weights[b.count] : nil
    }

    // MARK: searching

    /// One word of the phrase swapped for a dictionary word.
    private struct Swap {
        var position: Int
        var word: String
        var cost: Double
    }

    /// The phrase taken apart, and what the dictionary offers for each word.
    private struct Search {
        /// The folded phrase's words.
        var words: [String] = []
        /// Each word's sounds.
        var sounds: [[Sound]] = []
        /// Neighbours of each word (index = position), unsorted.
        var neighbours: [[Swap]] = []
        /// Homophones of any word.
        var homophones: [Swap] = []

        /// The folded phrase with word `position` replaced by `word`.
        func text(replacing position: Int, with word: String) -> String {
            var copy = words
            copy[position] = word
            return copy.joined(separator: " ")
        }
    }

    private func search(_ phrase: String) -> Search {
        var search = Search()
        search.words = TextNormalizer.fold(phrase).split(separator: " ").map(String.init)
        search.sounds = search.words.map { speller.sounds(ofWord: Substring($0)) }
        search.neighbours = Array(repeating: [], count: search.words.count)
        // Only words spelled in English phones can have English neighbours.
        let searchable = search.sounds.indices.filter { position in
            !search.sounds[position].isEmpty && search.sounds[position].allSatisfy { $0.kind == .phone }
        }
        guard let shortest = searchable.map({ search.sounds[$0].count }).min(),
              let longest = searchable.map({ search.sounds[$0].count }).max() else { return search }
        let limit = SoundAlikeGenerator.maximumEdits
        let ownWords = Set(search.words)
        let readings = search.words.indices.map { position in
            searchable.contains(position) ? self.readings(of: search.words[position], sounds: search.sounds[position]) : []
        }
        for entry in dictionary.entries(phoneCounts: max(1, shortest - limit)...(longest + limit))
        where SoundAlikeGenerator.looksCommon(entry, ownWords: ownWords) {
            for position in searchable where entry.word != search.words[position] {
                if readings[position].contains(entry.phones) {
                    search.homophones.append(Swap(position: position, word: entry.word, cost: 0))
                } else if let cost = readings[position].compactMap({ editCost(from: $0, to: entry.phones) }).min() {
                    search.neighbours[position].append(Swap(position: position, word: entry.word,
                                                            cost: SoundAlikeGenerator.rounded(cost)))
                }
            }
        }
        return search
    }

    /// The ways a phrase word may be said, as `search` compares them: its
    /// phones, and for a word of two or more vowels that the dictionary
    /// lacks, each reading with one of its vowels reduced to a schwa (AH) —
    /// a vowel a consonant follows: a word's final open vowel keeps its
    /// quality unstressed, as in "menu" or "haiku".
    ///
    /// Why: a made-up name's stress is the speaker's guess (`StressShift`),
    /// and the vowel left unstressed is said as a schwa: festival says
    /// "nabu" na-BOO, "nuh-boo", where the letter-to-sound rules read
    /// N AA B UW, and "mycroft" is "my-cruft" as "cockroft" is. Against the
    /// rules' reading alone, "okay abou" (AH B UW) and "hey mikrut" were far
    /// enough from the phrase to be its negatives and its contest's
    /// competitors. A neighbour is as close as its closest reading.
    private func readings(of word: String, sounds: [Sound]) -> [[Sound]] {
        guard !dictionary.dictionaryKnows(word), let schwa = Sound.phone("AH") else { return [sounds] }
        let vowels = sounds.indices.filter { sounds[$0].isVowel }
        guard vowels.count > 1 else { return [sounds] }
        var readings = [sounds]
        for index in vowels where sounds[index] != schwa && index < sounds.count - 1 {
            var reduced = sounds
            reduced[index] = schwa
            readings.append(reduced)
        }
        return readings
    }

    /// The cheapest of each word in turn, at most `count`, listed cheapest first.
    private func select(_ perWord: [[Swap]], count: Int) -> [Swap] {
        let ranked = perWord.map { $0.sorted(by: SoundAlikeGenerator.cheaper) }
        var chosen: [Swap] = []
        var round = 0
        while chosen.count < count, ranked.contains(where: { $0.count > round }) {
            // Within a round the cheaper picks go first, so a cut mid-round keeps them.
            let picks = ranked.compactMap { $0.count > round ? $0[round] : nil }.sorted(by: SoundAlikeGenerator.cheaper)
            chosen.append(contentsOf: picks.prefix(count - chosen.count))
            round += 1
        }
        return chosen.sorted(by: SoundAlikeGenerator.cheaper)
    }

    /// Indices into `chosen` for the carrier sentences: the cheapest swap of
    /// each word in turn, longest word (in sounds) first, so the sentences
    /// carry the name ("hey cornelia, …") before the greeting ("he cordelia, …").
    private func carried(_ chosen: [Swap], in search: Search) -> [Int] {
        let positions = search.words.indices.sorted { a, b in
            search.sounds[a].count != search.sounds[b].count ? search.sounds[a].count > search.sounds[b].count : a < b
        }
        let byPosition = positions.map { position in chosen.indices.filter { chosen[$0].position == position } }
        var picked: [Int] = []
        var round = 0
        while picked.count < SoundAlikeGenerator.carriers.count, byPosition.contains(where: { $0.count > round }) {
            picked.append(contentsOf: byPosition.compactMap { $0.count > round ? $0[round] : nil })
            round += 1
        }
        return Array(picked.prefix(SoundAlikeGenerator.carriers.count))
    }

    /// Cost, then word, then position: a total order, so output never depends on scan order.
    private static func cheaper(_ a: Swap, _ b: Swap) -> Bool {
        if a.cost != b.cost { return a.cost < b.cost }
        if a.word != b.word { return a.word.utf8.lexicographicallyPrecedes(b.word.utf8) }
        return a.position < b.position
    }

    /// Spelled only with a–z, no apostrophe, and long enough (or one of the phrase's words).
    private static func looksCommon(_ entry: DictionaryEntry, ownWords: Set<String>) -> Bool {
        guard !entry.hadApostrophe,
              entry.word.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return false }
        return entry.word.utf8.count >= minimumWordLength || ownWords.contains(entry.word)
    }

    /// Costs to 0.001, so sums of the same edits in another order tie exactly.
    private static func rounded(_ cost: Double) -> Double {
        (cost * 1000).rounded() / 1000
    }
}
