/// Asks several pronouncers in turn; the first that knows a word answers.
///
/// The usual chain is a dictionary first and `LetterToSoundPronouncer` last,
/// so every ASCII word gets some pronunciation. The chain lists the words of
/// its dictionary members (`PronouncingDictionary`), so a sound-alike
/// generator can take the same chain the daemon uses.
package final class PronouncerChain: PronouncingDictionary {
    /// The pronouncers, most trusted first.
    package let members: [any Pronouncer]

    /// A chain that asks `members` in order.
    package init(_ members: [any Pronouncer]) {
        self.members = members
    }

    /// The first non-nil answer of the members, or nil if none knows `word`.
    package func phones(for word: String) -> [String]? {
        for member in members {
            if let phones = member.phones(for: word) { return phones }
        }
        return nil
    }

    /// The words of the members that are `PronouncingDictionary`s, in word
    /// order; a word two members list comes from the earlier one. Members that
    /// cannot list (letter-to-sound rules) add nothing.
    package func entries(phoneCounts: ClosedRange<Int>) -> [DictionaryEntry] {
        let lists = members.compactMap { ($0 as? any PronouncingDictionary)?.entries(phoneCounts: phoneCounts) }
        guard lists.count > 1 else { return lists.first ?? [] }
        var seen = Set<String>()
        var merged: [DictionaryEntry] = []
        for list in lists {
            for entry in list where seen.insert(entry.word).inserted { merged.append(entry) }
        }
        return merged.sorted { $0.word.utf8.lexicographicallyPrecedes($1.word.utf8) }
    }
}
