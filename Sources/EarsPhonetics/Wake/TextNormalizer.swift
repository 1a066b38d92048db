import Foundation

/// Folds text so that spelling accidents do not matter to the detector:
/// Unicode compatibility normalization (NFKC), case folding, punctuation and
/// symbols to spaces, runs of spacing to one space.
package enum TextNormalizer {
    /// The folded form of `text`: lowercase words separated by single spaces.
    package static func fold(_ text: String) -> String {
        let nfkc = text.precomposedStringWithCompatibilityMapping
        let folded = nfkc.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
        var out = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in folded.unicodeScalars {
            if isWordScalar(scalar) {
                out.append(scalar)
                lastWasSpace = false
            } else if !lastWasSpace {
                // Apostrophes join ("what's" stays one word); everything else splits.
                if scalar == "'" || scalar == "\u{2019}" { continue }
                out.append(" ")
                lastWasSpace = true
            }
        }
        var result = String(out)
        if result.hasSuffix(" ") { result.removeLast() }
        return result
    }

    /// The folded words of `text`.
    package static func words(_ text: String) -> [String] {
        fold(text).split(separator: " ").map(String.init)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let props = scalar.properties
        return props.isAlphabetic || props.numericType != nil
            || props.generalCategory == .nonspacingMark || props.generalCategory == .spacingMark
    }
}
