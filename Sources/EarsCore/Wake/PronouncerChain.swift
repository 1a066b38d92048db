/// Asks several pronouncers in turn; the first that knows a word answers.
///
/// The usual chain is a dictionary first and `LetterToSoundPronouncer` last,
/// so every ASCII word gets some pronunciation.
public final class PronouncerChain: Pronouncer {
    /// The pronouncers, most trusted first.
    public let members: [any Pronouncer]

    /// A chain that asks `members` in order.
    public init(_ members: [any Pronouncer]) {
        self.members = members
    }

    /// The first non-nil answer of the members, or nil if none knows `word`.
    public func phones(for word: String) -> [String]? {
        for member in members {
            if let phones = member.phones(for: word) { return phones }
        }
        return nil
    }
}
