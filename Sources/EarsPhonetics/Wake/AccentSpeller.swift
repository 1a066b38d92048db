/// Spells English text the way a speaker of another language would read it
/// aloud: each word's English phones (CMU dictionary, then letter-to-sound)
/// written in that language's spelling, so a festival voice of that language
/// (a recorded Czech, Finnish or Italian speaker) says the English words
/// with its own vocal tract and its own accent ("hey jarvis" → Czech
/// "hej džárvis", Finnish "hei dzaarvis", Italian "ei giarvis").
///
/// Why: a head trained on the few recorded English speakers the engines have
/// learns them as much as the phrase (docs/training.md, issue 20); a speaker
/// of another language saying the phrase is a new vocal tract and a new
/// accent — what a real room has.
///
/// Pure: no I/O beyond the pronouncer. Output is lowercase in the language's
/// own letters (Czech and Finnish use letters outside ASCII: a festival voice
/// wants them in its own 8-bit charset, `FestivalCharset` in EarsSynth).
package struct AccentSpeller: Sendable {
    /// The languages spelled: Czech, Finnish, Italian.
    package static let languages: Set<String> = ["cs", "fi", "it"]

    /// Asked first for each word.
    package let pronouncer: any Pronouncer
    /// The last resort for words the pronouncer does not know.
    private let fallback = LetterToSoundPronouncer()

    /// A speller that asks `pronouncer` first and guesses from letters after.
    package init(pronouncer: any Pronouncer) {
        self.pronouncer = pronouncer
    }

    /// `text` respelled for `language`, word by word; a word's trailing
    /// punctuation (`,` `.` `!` `?` `...`) is kept, so intonation and pauses
    /// survive. Nil when `language` is not in `languages` or a word holds
    /// anything but ASCII letters and apostrophes (nothing to pronounce it by).
    package func spell(_ text: String, language: String) -> String? {
        guard Self.languages.contains(language) else { return nil }
        var words: [String] = []
        for token in text.lowercased().split(separator: " ", omittingEmptySubsequences: true) {
            let core = String(token.prefix { $0.isLetter || $0 == "'" })
            let tail = String(token.dropFirst(core.count))
            guard !core.isEmpty, tail.allSatisfy({ ",.!?".contains($0) }),
                  let phones = pronouncer.phones(for: core) ?? fallback.phones(for: core) else { return nil }
            words.append(Self.spell(phones: phones, language: language) + tail)
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// ARPAbet `phones` (stress digits and extensions tolerated) written in
    /// `language`'s spelling; unknown phones are skipped.
    package static func spell(phones: [String], language: String) -> String {
        let names = phones.flatMap(ARPAbet.expand).map { ARPAbet.phones[$0] }
        var out = ""
        for (position, name) in names.enumerated() {
            let next = position + 1 < names.count ? names[position + 1] : nil
            let previous = position > 0 ? names[position - 1] : nil
            switch language {
            case "cs": out += czech(name, after: previous)
            case "fi": out += finnish(name)
            default: out += italian(name, before: next)
            }
        }
        return out
    }

    // MARK: per language

    /// Czech: phonemic spelling with long vowels marked; `y` instead of `i`
    /// after d, t, n (Czech softens "di", "ti", "ni").
    private static func czech(_ phone: String, after previous: String?) -> String {
        let hard = previous == "D" || previous == "T" || previous == "N"
        switch phone {
        case "AA": return "á"
        case "AO": return "ó"
        case "AH": return "a"
        case "AE": return "e"
        case "AW": return "au"
        case "AY": return "aj"
        case "OW": return "ou"
        case "OY": return "oj"
        case "UH": return "u"
        case "UW": return "ú"
        case "ER": return "er"
        case "EH": return "e"
        case "EY": return "ej"
        case "IH": return hard ? "y" : "i"
        case "IY": return hard ? "ý" : "í"
        case "CH": return "č"
        case "JH": return "dž"
        case "TH": return "t"
        case "DH": return "d"
        case "SH": return "š"
        case "ZH": return "ž"
        case "HH": return "h"
        case "NG": return "ng"
        case "W": return "v"
        case "Y": return "j"
        default: return phone.lowercased()
        }
    }

    /// Finnish: phonemic spelling, long vowels doubled; no š or ž in its
    /// voices' charset, so the English sibilants become s and ts.
    private static func finnish(_ phone: String) -> String {
        switch phone {
        case "AA": return "aa"
        case "AO": return "oo"
        case "AH": return "a"
        case "AE": return "ä"
        case "AW": return "au"
        case "AY": return "ai"
        case "OW": return "ou"
        case "OY": return "oi"
        case "UH": return "u"
        case "UW": return "uu"
        case "ER": return "ör"
        case "EH": return "e"
        case "EY": return "ei"
        case "IH": return "i"
        case "IY": return "ii"
        case "CH": return "ts"
        case "JH": return "dz"
        case "TH": return "t"
        case "DH": return "d"
        case "SH", "ZH", "Z": return "s"
        case "HH": return "h"
        case "NG": return "ng"
        case "W": return "v"
        case "Y": return "j"
        default: return phone.lowercased()
        }
    }

    /// Italian: c and g hard or soft by the vowel after them (k → "ch"
    /// before e/i, ch → "ci" before a/o/u), no h sound, w and y as u and i.
    private static func italian(_ phone: String, before next: String?) -> String {
        let front = next.map { ["EH", "EY", "IH", "IY", "AE"].contains($0) } ?? false
        let vowel = next.map { ARPAbet.vowels.contains($0) } ?? false
        switch phone {
        case "AA", "AH": return "a"
        case "AO", "OW": return "o"
        case "AE", "EH": return "e"
        case "AW": return "au"
        case "AY": return "ai"
        case "OY": return "oi"
        case "UH", "UW": return "u"
        case "ER": return "er"
        case "EY": return "ei"
        case "IH", "IY": return "i"
        case "K": return front ? "ch" : "c"
        case "G": return front ? "gh" : "g"
        case "CH": return front ? "c" : (vowel ? "ci" : "c")
        case "JH": return front ? "g" : (vowel ? "gi" : "g")
        case "SH": return front ? "sc" : (vowel ? "sci" : "sc")
        case "ZH", "Z": return "s"
        case "TH": return "t"
        case "DH": return "d"
        case "HH": return ""
        case "NG": return "ng"
        case "W": return "u"
        case "Y": return "i"
        default: return phone.lowercased()
        }
    }
}
