/// Letter-level scoring (`PhraseMatcher`): folded text, spaces removed.
public final class LetterScorer: PhraseScorer {
    public init() {}

    public func prepare(_ form: String) -> PreparedForm { PreparedForm(PhraseMatcher.letters(form)) }

    public func score(_ form: PreparedForm, before: String, newest: String) -> Double {
        guard let phrase = form.payload as? [Character] else { return 0 }
        let old = PhraseMatcher.letters(before)
        let new = PhraseMatcher.letters(newest)
        guard !new.isEmpty else { return 0 }
        return PhraseMatcher.bestMatch(of: phrase, in: old + new, earliestEnd: old.count + 1)?.score ?? 0
    }
}
