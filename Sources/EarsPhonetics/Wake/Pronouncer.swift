/// Turns a written word into the phones it is spoken with.
///
/// Phones are ARPAbet symbols the way the CMU pronouncing dictionary writes
/// them: uppercase, without stress digits ("cordelia" → K AO R D IY L IY AH).
/// The phonetic wake matcher compares these instead of letters, so a phrase
/// that an engine wrote as sound-alike words ("hey card eliot") still matches.
///
/// Conformers are classes so that one large dictionary is shared by every
/// matcher rather than copied, and `Sendable` because the matcher lives inside
/// the `Sendable` wake detector: `phones(for:)` may be called from any thread
/// at once, so conformers must be immutable or guard their own state.
package protocol Pronouncer: AnyObject, Sendable {
    /// The phones of `word`, or nil when this pronouncer does not know it.
    ///
    /// `word` is one folded word (`TextNormalizer.fold`: lowercase, no
    /// punctuation); conformers should still accept uppercase ASCII. A non-nil
    /// answer may use any name `ARPAbet.index(of:)` accepts (stress digits and
    /// the common ARPAbet extensions such as AX are tolerated).
    func phones(for word: String) -> [String]?
}

extension Pronouncer {
    /// Whether a pronouncing dictionary in this pronouncer (itself, or a
    /// member of a `PronouncerChain`, at any depth) knows `word`, a folded
    /// word. Letter-to-sound guesses do not count: a word only they answer
    /// is a made-up name whose stress nobody agreed on (`StressShift`,
    /// `SoundAlikeGenerator`'s reduced readings).
    package func dictionaryKnows(_ word: String) -> Bool {
        if let chain = self as? PronouncerChain {
            return chain.members.contains { $0.dictionaryKnows(word) }
        }
        return self is any PronouncingDictionary && phones(for: word) != nil
    }
}
