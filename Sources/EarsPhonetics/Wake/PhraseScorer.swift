/// Scores a written phrase form against recent transcript text.
///
/// Two scorers exist: `LetterScorer` (letters, the built-in default) and
/// `PhoneticScorer` (sounds). A scorer first turns each phrase form into its
/// `Prepared` value once (letters, a pronunciation), then scores that value
/// against every new piece of transcript.
///
/// The prepared form is a typed associated value rather than an opaque box,
/// so a scorer can never be handed another scorer's form and the forms are
/// `Sendable` by construction, not by promise. `WakeDetector` keeps one scorer
/// per detector and calls it from one thread, so a scorer may cache (hence a
/// class: the cache lives in the one shared instance).
package protocol PhraseScorer: AnyObject {
    /// A phrase form made ready for repeated scoring: what `prepare` computes once.
    associatedtype Prepared: Sendable

    /// Prepares a phrase form once (spelling, pronunciation) for repeated scoring.
    func prepare(_ form: String) -> Prepared

    /// Best score 0…1 of `form` in `before` + `newest` whose match ends inside
    /// `newest` (so old words never fire twice). `before` may be empty.
    func score(_ form: Prepared, before: String, newest: String) -> Double
}
