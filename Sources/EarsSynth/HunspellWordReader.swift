import Foundation

/// Reads a hunspell dictionary's word list (Debian hunspell-ko:
/// /usr/share/hunspell/ko.dic) into bare words, the vocabulary that
/// `NativeSentenceMaker` builds a Korean phrase's other speech from.
///
/// Why a spelling dictionary: Debian ships no Korean fortunes or corpus, and
/// a Korean detector that never heard Korean speech without its phrase wakes
/// on any Korean sentence (docs/benchmark-korean.md: 110 false wakes per hour
/// before this). hunspell-ko lists about 100,000 real Korean words and forms.
package enum HunspellWordReader {
    /// The Korean word list hunspell-ko installs.
    package static let koreanDictionary = "/usr/share/hunspell/ko.dic"
    /// What to run when `koreanDictionary` is missing.
    package static let koreanInstallCommand = "sudo apt-get install hunspell-ko"

    /// The words of the `.dic` file at `path`: each line's text before its
    /// affix flags (`word/flags`), the first line (the entry count) and blank
    /// lines skipped, duplicates dropped, in file order, in Unicode's
    /// composed form (hunspell-ko spells its words in separate jamo, which
    /// espeak-ng and a syllable check want joined). Empty when the file is
    /// missing or unreadable.
    package static func words(in path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return words(fromDictionary: text)
    }

    /// `words(in:)` on the file's text.
    package static func words(fromDictionary text: String) -> [String] {
        var seen = Set<String>()
        var words: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let entry = line.trimmingCharacters(in: .whitespaces)
            // The first line is the approximate entry count, not a word.
            if index == 0, Int(entry) != nil { continue }
            // A slash starts the affix flags; "\/" would be a literal slash, which Korean entries never hold.
            guard let word = entry.split(separator: "/", maxSplits: 1).first.map({ String($0).precomposedStringWithCanonicalMapping }),
                  !word.isEmpty else { continue }
            if seen.insert(word).inserted { words.append(word) }
        }
        return words
    }
}
