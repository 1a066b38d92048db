import EarsCore
import Foundation

/// The pronunciations of a few words, read from a PocketSphinx dictionary
/// file without loading the rest of it.
///
/// Why: a decoder given the whole en-us dictionary (134,000 words) holds
/// about 22 MB more than one given only the words it listens for (measured
/// with `ps_init` at 28.6 MB against 6.3 MB). A keyphrase spotter needs
/// only its phrases' words, and ears runs one spotter per stream (the
/// microphone and every Wyoming client), so the spotters start with an
/// empty dictionary and get their words from this excerpt
/// (docs/operations.md, memory).
///
/// The file format is one entry per line, `word phone phone …`, with
/// alternates named `word(2)`; `#` starts a comment. A word's first
/// pronunciation is `phones` (the keyphrase search reads no other); with
/// `alternates` the others are kept too, in file order, for searches that
/// try every pronunciation (the verifier's grammars).
package struct DictionaryExcerpt: Sendable, Equatable {
    /// Each word found, lowercased, with its phones (`["K", "AO", "R", …]`).
    package let phones: [String: [String]]
    /// Each word's other pronunciations, in file order, by the name the
    /// file gives them (`"jarvis(2)"`): empty unless asked for.
    package let alternates: [Alternate]

    /// A pronunciation after a word's first, named as the file names it.
    package struct Alternate: Sendable, Equatable {
        /// `"jarvis(2)"`: the word, then the pronunciation's number.
        package var name: String
        /// Its phones.
        package var phones: [String]
    }

    /// The entries of `words` (lowercase) in `text`, a dictionary file's
    /// contents; with `alternates`, their other pronunciations too (the
    /// whole file is read: an alternate need not follow its word).
    package init(text: String, words: Set<String>, alternates wantAlternates: Bool = false) {
        var found: [String: [String]] = [:]
        var others: [Alternate] = []
        guard !words.isEmpty else {
            phones = [:]
            alternates = []
            return
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first, first != "#" else { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            let name = fields[0].lowercased()
            let pronunciation = fields.dropFirst().map(String.init)
            if words.contains(name), found[name] == nil {
                found[name] = pronunciation
                if !wantAlternates && found.count == words.count { break }
            } else if wantAlternates, let base = Self.alternateBase(name), words.contains(base) {
                others.append(Alternate(name: name, phones: pronunciation))
            }
        }
        phones = found
        // An alternate of a word the file never gives plainly is dropped: PocketSphinx links it to nothing.
        alternates = others.filter { found[Self.alternateBase($0.name) ?? ""] != nil }
    }

    /// The entries of `words` in the dictionary file at `path` (and their
    /// alternates when asked); throws `modelMissing` naming the file when it cannot be read.
    package init(path: String, words: Set<String>, alternates: Bool = false) throws(TranscriberError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .modelMissing(engine: "pocketsphinx", path: path, install: PocketSphinxModel.installHint)
        }
        self.init(text: String(decoding: data, as: UTF8.self), words: words, alternates: alternates)
    }

    /// `"word"` for an alternate's name `"word(2)"`; nil for a plain word.
    static func alternateBase(_ name: String) -> String? {
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "("), open > name.startIndex else { return nil }
        return String(name[..<open])
    }
}
