/// A phrase the detector listens for, as written text.
package struct WakePhrase: Sendable, Equatable {
    /// The phrase as the user wrote it, e.g. "hey cordelia". Wakes report this text.
    package var text: String
    /// Lowest score (0…1) that counts as a wake.
    package var threshold: Double
    /// Other written forms that count as the same phrase, e.g. "cordelia pippa".
    package var aliases: [String]

    /// A phrase `text` that wakes at a score of `threshold` (0…1) or more, also when written as one of `aliases`.
    package init(text: String, threshold: Double = WakeDetector.defaultThreshold, aliases: [String] = []) {
        self.text = text
        self.threshold = threshold
        self.aliases = aliases
    }

    /// The phrase and its aliases, the phrase first.
    package var forms: [String] { [text] + aliases }
}
