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
/// alternates named `word(2)`; `#` starts a comment. Only a word's first
/// pronunciation is kept: the keyphrase search reads no other.
package struct DictionaryExcerpt: Sendable, Equatable {
    /// Each word found, lowercased, with its phones (`["K", "AO", "R", …]`).
    package let phones: [String: [String]]

    /// The entries of `words` (lowercase) in `text`, a dictionary file's contents.
    package init(text: String, words: Set<String>) {
        var found: [String: [String]] = [:]
        guard !words.isEmpty else {
            phones = [:]
            return
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first, first != "#" else { continue }
            // Cheap test before splitting: the line must start with a wanted word.
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            let word = fields[0].lowercased()
            guard words.contains(word), found[word] == nil else { continue }
            found[word] = fields.dropFirst().map(String.init)
            if found.count == words.count { break }
        }
        phones = found
    }

    /// The entries of `words` in the dictionary file at `path`; throws
    /// `modelMissing` naming the file when it cannot be read.
    package init(path: String, words: Set<String>) throws(TranscriberError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .modelMissing(engine: "pocketsphinx", path: path, install: PocketSphinxModel.installHint)
        }
        self.init(text: String(decoding: data, as: UTF8.self), words: words)
    }
}
