/// A pronouncer whose words can be listed: what `SoundAlikeGenerator` scans
/// for words that sound close to a phrase's words.
///
/// Conformers are immutable (as every `Pronouncer` must be safe to call from
/// any thread), so listing may run while other threads look words up.
public protocol PronouncingDictionary: Pronouncer {
    /// Every word whose pronunciation has a phone count in `phoneCounts`, one
    /// entry per word (the pronunciation `phones(for:)` answers), ordered by
    /// `word` (byte order). Cost: one pass over the whole dictionary, plus one
    /// allocation per returned entry, so ask for the narrowest range needed.
    func entries(phoneCounts: ClosedRange<Int>) -> [DictionaryEntry]
}

/// One word of a `PronouncingDictionary` with its pronunciation.
public struct DictionaryEntry: Sendable, Equatable {
    /// The word as looked up: lowercase, apostrophes removed ("we'll" → "well").
    public var word: String
    /// Whether the word was written with an apostrophe in the dictionary
    /// (a contraction or possessive, such as "we'll" or "cordelia's").
    public var hadApostrophe: Bool
    /// The pronunciation, one `Sound` (kind `.phone`) per phone.
    public var phones: [Sound]

    /// An entry for `word` pronounced `phones`.
    public init(word: String, hadApostrophe: Bool = false, phones: [Sound]) {
        self.word = word
        self.hadApostrophe = hadApostrophe
        self.phones = phones
    }
}
