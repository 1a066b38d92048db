/// Letter-level scoring (`LetterMatcher`): folded text, spaces removed.
///
/// Stateless; one instance can serve any number of detectors.
package final class LetterScorer: PhraseScorer {
    /// A phrase form's folded letters, spaces removed (`LetterMatcher.letters`).
    package typealias Prepared = [Character]

    /// A letter scorer (it keeps no state).
    package init() {}

    /// The folded letters of `form`.
    package func prepare(_ form: String) -> [Character] { LetterMatcher.letters(form) }

    /// Best letter score of `form` ending in `newest`'s letters, 0…1; 0 when
    /// `newest` has no letters.
    package func score(_ form: [Character], before: String, newest: String) -> Double {
        let old = LetterMatcher.letters(before)
        let new = LetterMatcher.letters(newest)
        guard !new.isEmpty else { return 0 }
        return LetterMatcher.bestMatch(of: form, in: old + new, earliestEnd: old.count + 1)?.score ?? 0
    }
}
