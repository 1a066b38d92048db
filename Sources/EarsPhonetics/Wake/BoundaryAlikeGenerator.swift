/// Makes near-misses that move the phrase's word boundaries: its
/// distinctive word said as two other words ("okay now boo" for "okay nabu",
/// "hey my craft" for "hey mycroft"), or inside a longer word ("okay
/// nabokov", "hey microsoft"). Negatives for `ears train`, beside
/// `SoundAlikeGenerator`'s one-word swaps.
///
/// Why: the trained heads' near-miss wakes in the benchmark were mostly of
/// these two kinds, which a one-word swap never makes (docs/training.md,
/// the lever table). They are generated from the pronouncing dictionary
/// alone — no benchmark sentence is read — so the benchmark's hand-written
/// near-misses stay a test of them.
///
/// Two kinds (`SoundAlike.Kind`):
///
/// 1. `.resegmented`: the distinctive word's sounds cut in two, each part
///    replaced by a dictionary word at most `maximumEditsPerPart` unit
///    edits from it, costing at least `minimumResegmentedCost` in all (a
///    pair with no edit, "nah boo" for "nabu", *is* the phrase, and one a
///    cheap vowel away, "cordy leah", is the phrase as voices say it).
/// 2. `.longerWord`: a dictionary word at least `minimumExtraPhones` longer
///    that holds the distinctive word's sounds within `maximumEdits(for:)`
///    unit edits somewhere inside it, and never exactly ("cordelias" would
///    be the phrase followed by a sound).
///
/// The distinctive word is the phrase's longest, the last on a tie (as
/// `DetectorFactory.distinct` picks it); the phrase's other words stay.
/// Only words spelled in English phones get any; Korean phrases get none.
/// Each kind is ranked as `SoundAlikeRanking` ranks neighbours: sound cost
/// plus `SoundAlikeRanking.rarityWeight` × each word's rarity (−log10 of
/// how often it is said, when a frequency is given), so "okay gnaw bay"
/// gives way to words a person says; a word appears in at most
/// `usesPerWord` resegmented alikes. Deterministic: the same dictionary,
/// frequencies and phrase give the same list, ties by text.
package struct BoundaryAlikeGenerator: Sendable {
    /// Alikes of each kind returned when the caller does not say.
    package static let defaultCount = 12
    /// Unit edits allowed between a part of the word and the word said for it.
    package static let maximumEditsPerPart = 2
    /// Cheapest resegmented alike (in `PhoneticCost` units): the rule
    /// `DetectorFactory.distinct` applies to `ears train`'s one-word swaps
    /// (1.2), for the same reason — nearer ones are the phrase as the
    /// engines say it, and as negatives they taught heads to miss it.
    package static let minimumResegmentedCost = 1.2
    /// Phones each part of a cut word keeps, at least.
    package static let minimumPartPhones = 2
    /// Letters a word said for a part has, at least ("my" for M AY).
    package static let minimumPartLetters = 2
    /// Phones a longer word has beyond the distinctive word's, at least.
    package static let minimumExtraPhones = 2
    /// Phones a longer word has beyond the distinctive word's, at most: a
    /// much longer word hides the phrase's sounds among others.
    package static let maximumExtraPhones = 5
    /// Letters a longer word has, at least.
    package static let minimumLongerWordLetters = 3
    /// Candidate sound sequences kept for each part of a cut before pairing.
    static let candidatesPerPart = 40
    /// Resegmented alikes one word may appear in, at most.
    package static let usesPerWord = 2

    /// Lists the words to try and answers for the phrase's own words.
    package let dictionary: any PronouncingDictionary
    /// Weighs the edits.
    package let costs: SoundCosts
    /// Spells the phrase and the alikes.
    private let speller: PhoneticSpeller

    /// A generator over `dictionary`, weighing edits with `costs`.
    package init(dictionary: any PronouncingDictionary, costs: SoundCosts = .standard) {
        self.dictionary = dictionary
        self.costs = costs
        speller = PhoneticSpeller(pronouncer: dictionary)
    }

    /// Unit edits a longer word may have against a distinctive word of
    /// `phones` phones: one for a short word, two from six phones on.
    package static func maximumEdits(for phones: Int) -> Int { phones >= 6 ? 2 : 1 }

    /// At most `count` resegmented alikes, then at most `count` longer-word
    /// alikes of `phrase`, each kind best first (none for a phrase whose
    /// distinctive word has fewer than `2 × minimumPartPhones` phones or is
    /// not spelled in English phones). `log10Frequency` answers how often a
    /// word is said (nil: unknown, `SoundAlikeRanking.unknownLog10Frequency`);
    /// without it every word is as common as every other.
    package func alikes(of phrase: String, count: Int = BoundaryAlikeGenerator.defaultCount,
                        log10Frequency: (String) -> Double? = { _ in 0 }) -> [SoundAlike] {
        let words = TextNormalizer.fold(phrase).split(separator: " ").map(String.init)
        let longest = words.map(\.count).max() ?? 0
        guard count > 0, let position = words.lastIndex(where: { $0.count == longest }) else { return [] }
        let sounds = speller.sounds(ofWord: Substring(words[position]))
        guard sounds.count >= 2 * Self.minimumPartPhones, sounds.allSatisfy({ $0.kind == .phone }) else { return [] }
        func alike(_ said: String, cost: Double, kind: SoundAlike.Kind) -> SoundAlike {
            var copy = words
            copy[position] = said
            let text = copy.joined(separator: " ")
            return SoundAlike(text: text, sounds: speller.spell(folded: text), cost: Self.rounded(cost), kind: kind)
        }
        let ownWords = Set(words)
        let rarity = { (word: String) in
            SoundAlikeRanking.rarityWeight * -(log10Frequency(word) ?? SoundAlikeRanking.unknownLog10Frequency)
        }
        let resegmented = cuts(of: sounds, ownWords: ownWords, rarity: rarity).prefix(count).map { alike($0.said, cost: $0.cost, kind: .resegmented) }
        let longer = longerWords(holding: sounds, ownWords: ownWords, rarity: rarity).prefix(count).map { alike($0.said, cost: $0.cost, kind: .longerWord) }
        return resegmented + longer
    }

    // MARK: searching

    /// A word (or two) said for the distinctive word, and how far it sounds from it.
    private struct Candidate {
        var said: String
        var cost: Double
        var edits: Int
        /// Cost plus the words' weighted rarity: lower comes first.
        var score: Double
        /// The word's phones (empty for a pair).
        var phones: [Sound] = []
    }

    /// `found` best first, one word per pronunciation: the better scored
    /// (more common) spelling, then the shorter, then the first in byte order
    /// ("ne" and "knee" are one sound, and a voice says the plainer one more
    /// surely).
    private static func oneSpellingEach(_ found: [Candidate]) -> [Candidate] {
        var bySound: [[Sound]: Candidate] = [:]
        for candidate in found {
            if let known = bySound[candidate.phones], !plainer(candidate, than: known) { continue }
            bySound[candidate.phones] = candidate
        }
        return bySound.values.sorted(by: better)
    }

    /// Better scored, then shorter, then first in byte order.
    private static func plainer(_ a: Candidate, than b: Candidate) -> Bool {
        if a.score != b.score { return a.score < b.score }
        return a.said.utf8.count != b.said.utf8.count ? a.said.utf8.count < b.said.utf8.count
            : a.said.utf8.lexicographicallyPrecedes(b.said.utf8)
    }

    /// Every cut of `sounds` into two parts, each said as a dictionary word.
    private func cuts(of sounds: [Sound], ownWords: Set<String>, rarity: (String) -> Double) -> [Candidate] {
        let limit = Self.maximumEditsPerPart
        let lengths = (Self.minimumPartPhones - limit)...(sounds.count - Self.minimumPartPhones + limit)
        let entries = dictionary.entries(phoneCounts: max(1, lengths.lowerBound)...max(1, lengths.upperBound))
            .filter { Self.looksCommon($0, letters: Self.minimumPartLetters, ownWords: ownWords) }
        var found: [String: Candidate] = [:]
        for cut in Self.minimumPartPhones...(sounds.count - Self.minimumPartPhones) {
            let left = best(entries, near: Array(sounds[..<cut]), rarity: rarity)
            let right = best(entries, near: Array(sounds[cut...]), rarity: rarity)
            for l in left {
                for r in right where l.cost + r.cost >= Self.minimumResegmentedCost {
                    let said = l.said + " " + r.said
                    let pair = Candidate(said: said, cost: l.cost + r.cost, edits: l.edits + r.edits, score: l.score + r.score)
                    if let known = found[said], known.score <= pair.score { continue }
                    found[said] = pair
                }
            }
        }
        // Best first, each word in at most `usesPerWord` of them.
        var uses: [Substring: Int] = [:]
        return found.values.sorted(by: Self.better).filter { pair in
            let words = pair.said.split(separator: " ")
            guard words.allSatisfy({ uses[$0, default: 0] < Self.usesPerWord }) else { return false }
            for word in words { uses[word, default: 0] += 1 }
            return true
        }
    }

    /// The `candidatesPerPart` entries closest to `part` (whole-word alignment).
    private func best(_ entries: [DictionaryEntry], near part: [Sound], rarity: (String) -> Double) -> [Candidate] {
        let limit = Self.maximumEditsPerPart
        var found: [Candidate] = []
        for entry in entries where abs(entry.phones.count - part.count) <= limit {
            let (edits, cost) = align(part, inside: entry.phones, freeEnds: false)
            if edits <= limit {
                found.append(Candidate(said: entry.word, cost: cost, edits: edits, score: cost + rarity(entry.word), phones: entry.phones))
            }
        }
        return Array(Self.oneSpellingEach(found).prefix(Self.candidatesPerPart))
    }

    /// Dictionary words that hold `sounds` (within the edit allowance) with more around them.
    private func longerWords(holding sounds: [Sound], ownWords: Set<String>, rarity: (String) -> Double) -> [Candidate] {
        let limit = Self.maximumEdits(for: sounds.count)
        let lengths = (sounds.count + Self.minimumExtraPhones)...(sounds.count + Self.maximumExtraPhones)
        var found: [Candidate] = []
        for entry in dictionary.entries(phoneCounts: lengths)
        where Self.looksCommon(entry, letters: Self.minimumLongerWordLetters, ownWords: ownWords) {
            let (edits, cost) = align(sounds, inside: entry.phones, freeEnds: true)
            if edits >= 1, edits <= limit {
                found.append(Candidate(said: entry.word, cost: cost, edits: edits, score: cost + rarity(entry.word), phones: entry.phones))
            }
        }
        return Self.oneSpellingEach(found)
    }

    /// Unit edits and weighted cost of turning `pattern` into `text`; with
    /// `freeEnds`, into some stretch of `text` (what lies before and after it
    /// costs nothing). The two are minimised apart, as `SoundAlikeGenerator`
    /// does: edits decide "close enough", costs rank.
    func align(_ pattern: [Sound], inside text: [Sound], freeEnds: Bool) -> (edits: Int, cost: Double) {
        var edits = [Int](repeating: 0, count: text.count + 1)
        var weights = [Double](repeating: 0, count: text.count + 1)
        if !freeEnds {
            for j in 1...max(1, text.count) where j <= text.count {
                edits[j] = j
                weights[j] = weights[j - 1] + costs.indel(text[j - 1])
            }
        }
        for sound in pattern {
            var nextEdits = edits, nextWeights = weights
            nextEdits[0] = edits[0] + 1
            nextWeights[0] = weights[0] + costs.indel(sound)
            for j in 1...max(1, text.count) where j <= text.count {
                let same = sound == text[j - 1]
                nextEdits[j] = min(edits[j - 1] + (same ? 0 : 1), edits[j] + 1, nextEdits[j - 1] + 1)
                nextWeights[j] = min(weights[j - 1] + costs.substitution(sound, text[j - 1]),
                                     weights[j] + costs.indel(sound), nextWeights[j - 1] + costs.indel(text[j - 1]))
            }
            edits = nextEdits
            weights = nextWeights
        }
        return freeEnds ? (edits.min() ?? 0, weights.min() ?? 0) : (edits[text.count], weights[text.count])
    }

    /// Score, then text: a total order, so output never depends on scan order.
    private static func better(_ a: Candidate, _ b: Candidate) -> Bool {
        a.score != b.score ? a.score < b.score : a.said.utf8.lexicographicallyPrecedes(b.said.utf8)
    }

    /// Spelled only with a–z, no apostrophe, at least `letters` long, and not one of the phrase's words.
    private static func looksCommon(_ entry: DictionaryEntry, letters: Int, ownWords: Set<String>) -> Bool {
        !entry.hadApostrophe && !ownWords.contains(entry.word) && entry.word.utf8.count >= letters
            && entry.word.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }

    /// Costs to 0.001, so sums of the same edits in another order tie exactly.
    private static func rounded(_ cost: Double) -> Double { (cost * 1000).rounded() / 1000 }
}
