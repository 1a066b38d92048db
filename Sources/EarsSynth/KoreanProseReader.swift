import Foundation

/// Reads Korean prose — sentences people wrote, not words strung together —
/// from the Korean Debian FAQ (Debian debian-faq-ko: its HTML pages under
/// /usr/share/doc/debian/FAQ/ko), for a Korean phrase's other speech.
///
/// Why: `KoreanSentenceMaker` strings real words together at random, which
/// sounds little like a person reading; a Korean head trained on it alone
/// woke 4.4 times an hour on a manual read aloud (docs/benchmark-korean.md).
/// The FAQ is another text than the benchmark's (the GIMP manual), so the
/// benchmark still measures speech the head never trained on.
package enum KoreanProseReader {
    /// Where debian-faq-ko puts its Korean pages.
    package static let faqDirectory = "/usr/share/doc/debian/FAQ/ko"
    /// What to run when `faqDirectory` is missing.
    package static let installCommand = "sudo apt-get install debian-faq-ko"
    /// Fewest Hangul syllables a kept sentence holds: headings and
    /// fragments ("12.2.3. 위키") are left out.
    package static let minimumSyllables = 8
    /// Least share of a kept sentence's letters (spaces aside) that are
    /// Hangul syllables: sentences mostly of commands, paths or English are
    /// left out (espeak-ng's Korean voice spells Latin letters one by one).
    package static let minimumHangulShare = 0.7
    /// Most words (spaced units) kept of one sentence, about 6 s of speech
    /// like a fortune's 18 English words.
    package static let maximumWords = 12

    /// The sentences of every `.html` file in `directory`, files in name
    /// order, repeats dropped. Empty when the directory is missing.
    package static func sentences(inDirectory directory: String = faqDirectory) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".html") }.sorted()
        var seen = Set<String>()
        var found: [String] = []
        for name in names {
            guard let page = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) else { continue }
            for sentence in sentences(fromHTML: page) where seen.insert(sentence).inserted {
                found.append(sentence)
            }
        }
        return found
    }

    /// The Korean sentences of one HTML page: scripts, styles and `<pre>`
    /// blocks (commands) dropped, tags removed, entities decoded, white space
    /// collapsed, split after `.`, `?` or `!` and at block tags (headings,
    /// paragraphs, list items, table cells); a sentence is kept when it has
    /// `minimumSyllables` and `minimumHangulShare`, cut to `maximumWords`.
    package static func sentences(fromHTML page: String) -> [String] {
        var text = page.replacingOccurrences(of: #"(?is)<(script|style|pre)\b.*?</\1>"#, with: " ", options: .regularExpression)
        // A block ends a sentence: a heading never runs into the paragraph after it.
        text = text.replacingOccurrences(of: #"(?i)</?(h[1-6]|p|li|div|br|title|td|th|dt|dd|tr|table|ul|ol|dl)\b[^>]*>"#,
                                         with: " \(blockBreak) ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression)
        text = decodeEntities(text)
        let words = text.split(whereSeparator: { $0.isWhitespace })
        var sentences: [String] = []
        var current: [Substring] = []
        for word in words {
            if word == blockBreak {
                if let kept = keep(current) { sentences.append(kept) }
                current = []
                continue
            }
            current.append(word)
            if let last = word.last, ".?!".contains(last) {
                if let kept = keep(current) { sentences.append(kept) }
                current = []
            }
        }
        if let kept = keep(current) { sentences.append(kept) }
        return sentences
    }

    /// Stands for a block tag between the words (a control character no page holds).
    private static let blockBreak = "\u{1}"

    /// `words` joined if they make a Korean sentence worth saying, else nil.
    static func keep(_ words: [Substring]) -> String? {
        let sentence = words.prefix(maximumWords).joined(separator: " ")
        let letters = sentence.unicodeScalars.filter { !$0.properties.isWhitespace }
        let syllables = letters.filter { (0xAC00...0xD7A3).contains($0.value) }.count
        guard syllables >= minimumSyllables, Double(syllables) >= minimumHangulShare * Double(letters.count) else { return nil }
        return sentence
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric
    /// entities decoded; others left as they are.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";") {
                let name = after[..<semicolon]
                var decoded: String?
                if let value = named[String(name)] {
                    decoded = value
                } else if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                }
                if let decoded {
                    out += decoded
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
