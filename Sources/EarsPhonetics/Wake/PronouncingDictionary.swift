/// A pronouncer whose words can be listed: what `SoundAlikeGenerator` scans
/// for words that sound close to a phrase's words.
///
/// Conformers are immutable (as every `Pronouncer` must be safe to call from
/// any thread), so listing may run while other threads look words up.
package protocol PronouncingDictionary: Pronouncer {
    /// Every word whose pronunciation has a phone count in `phoneCounts`, one
    /// entry per word (the pronunciation `phones(for:)` answers), ordered by
    /// `word` (byte order). Cost: one pass over the whole dictionary, plus one
    /// allocation per returned entry, so ask for the narrowest range needed.
    func entries(phoneCounts: ClosedRange<Int>) -> [DictionaryEntry]
}

/// One word of a `PronouncingDictionary` with its pronunciation.
package struct DictionaryEntry: Sendable, Equatable {
    /// The word as looked up: lowercase, apostrophes removed ("we'll" → "well").
    package var word: String
    /// Whether the word was written with an apostrophe in the dictionary
    /// (a contraction or possessive, such as "we'll" or "cordelia's").
    package var hadApostrophe: Bool
    /// The pronunciation, one `Sound` (kind `.phone`) per phone.
    package var phones: [Sound]

    /// An entry for `word` pronounced `phones`.
    package init(word: String, hadApostrophe: Bool = false, phones: [Sound]) {
        self.word = word
        self.hadApostrophe = hadApostrophe
        self.phones = phones
    }
}
