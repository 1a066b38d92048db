/// Scores a written phrase form against recent transcript text. The letter
/// scorer is the built-in one; a phonetic scorer compares sounds instead.
public protocol PhraseScorer: AnyObject {
    /// Prepares a phrase form once (spelling, pronunciation) for repeated scoring.
    func prepare(_ form: String) -> PreparedForm
    /// Best score 0…1 of `form` in `before` + `newest` whose match ends inside
    /// `newest` (so old words never fire twice). `before` may be empty.
    func score(_ form: PreparedForm, before: String, newest: String) -> Double
}

/// A phrase form made ready by a `PhraseScorer`; opaque to the detector.
public struct PreparedForm: @unchecked Sendable {
    // @unchecked: the payload is written once at preparation and only read after.
    public let payload: Any
    public init(_ payload: Any) { self.payload = payload }
}
