/// A small rule-based English letter-to-sound guesser: the fallback for words
/// no dictionary knows (names, new words, engine typos).
///
/// It reads the word left to right and at each place takes the first rule that
/// fits: word-start clusters (kn, wr, gn, ps, x), word endings (-le, -ed, -es,
/// -mb, -ey), multi-letter spellings (tion, igh, tch, dge, ch, sh, th, ph, ck,
/// ng, qu, ee, ea, ai, ay, oo, ou, oi, au, aw, oa, ew, ie…), r-controlled vowels
/// (ar, or, er/ir/ur), then single letters: c and g go soft before e/i/y,
/// doubled consonants sound once, a vowel before one consonant and another
/// vowel is long (which also covers magic e) — but such an a is AA in a word
/// that ends in a sounded vowel (a, i, o, u), mostly names and loan words
/// ("nabu" → N AA B UW, as flite, festival and espeak-ng say it, not N EY B UW;
/// "lava", "sakura") —, a final e after another vowel is
/// silent, a final y is IY (AY in one-vowel words like "my"), s between vowels
/// is Z.
///
/// Limits, by design: it knows nothing of stress, so reduced vowels come out
/// full ("eliot" → IY L IY AA T, not EH L IY AH T) and the open-syllable rule
/// often lengthens a short vowel ("city" → S AY T IY); exceptions are not
/// listed (give, get, come, one, two…); ow/ough/ea pick one reading each; only
/// ASCII letters are accepted (apostrophes are skipped), anything else is nil.
/// The output is meant to be sound-alike-plausible for the phonetic matcher, not
/// correct: the cost tables forgive the vowel mistakes it makes most.
package final class LetterToSoundPronouncer: Pronouncer {
    /// A stateless pronouncer; share one freely.
    package init() {}

    /// A guessed pronunciation of `word`, or nil if it is empty or holds anything
    /// but ASCII letters and apostrophes. Never nil for a non-empty letter word.
    package func phones(for word: String) -> [String]? {
        var letters: [UInt8] = []
        letters.reserveCapacity(word.utf8.count)
        for byte in word.utf8 {
            switch byte {
            case Letter.a...Letter.z: letters.append(byte)
            case Letter.upperA...Letter.upperZ: letters.append(byte | Letter.lowercaseBit)
            case Letter.apostrophe: continue
            default: return nil
            }
        }
        guard !letters.isEmpty else { return nil }
        var reader = Reader(letters: letters)
        return reader.read()
    }
}

/// ASCII codes the rules refer to.
private enum Letter {
    static let a = UInt8(ascii: "a"), z = UInt8(ascii: "z")
    static let upperA = UInt8(ascii: "A"), upperZ = UInt8(ascii: "Z")
    static let apostrophe = UInt8(ascii: "'")
    /// ORing this bit into an ASCII uppercase letter lowercases it.
    static let lowercaseBit: UInt8 = 0x20
}

/// One pass over a lowercase letter word, appending phones as rules fire.
private struct Reader {
    let w: [UInt8]
    var i = 0
    var out: [String] = []

    init(letters: [UInt8]) {
        w = letters
        out.reserveCapacity(letters.count)
    }

    mutating func read() -> [String] {
        while i < w.count {
            if takeWordStart() || takeEnding() || takeRControlled() || takeSpelling() { continue }
            takeSingle()
        }
        return out
    }

    // MARK: rules, most specific first

    /// Silent first letters of kn-, wr-, gn-, ps-, pn- and the Z of a leading x.
    mutating func takeWordStart() -> Bool {
        guard i == 0, w.count > 1 else { return false }
        for (spelling, phones) in Reader.wordStarts where has(spelling) {
            emit(phones, consuming: spelling.utf8.count)
            return true
        }
        return false
    }

    /// Endings whose sound depends on what precedes them.
    mutating func takeEnding() -> Bool {
        let rest = w.count - i
        guard rest == 2 || rest == 3, i > 0 else { return false }
        let before = w[i - 1]
        func ends(_ spelling: String) -> Bool { spelling.utf8.count == rest && has(spelling) }
        if ends("le") && !isVowel(i - 1) { emit(["AH", "L"], consuming: 2); return true }
        if ends("mb") { emit(["M"], consuming: 2); return true }
        if ends("gue") { emit(["G"], consuming: 3); return true }
        if ends("que") { emit(["K"], consuming: 3); return true }
        if ends("ey") { emit([hasVowel(before: i) ? "IY" : "EY"], consuming: 2); return true }
        guard rest == 2, hasVowel(before: i), i > 1 else { return false }
        if has("ed") {
            // -ed is IH D after t/d, T after a voiceless sound, D otherwise.
            let sound = before == ascii("t") || before == ascii("d") ? ["IH", "D"]
                : Reader.voiceless.contains(before) ? ["T"] : ["D"]
            emit(sound, consuming: 2)
            return true
        }
        if has("es") {
            // -es is IH Z after a hissing sound, else the e is silent.
            let hissing = Reader.hissing.contains(before) || (before == ascii("h") && (w[i - 2] == ascii("c") || w[i - 2] == ascii("s")))
            emit(hissing ? ["IH", "Z"] : Reader.voiceless.contains(before) ? ["S"] : ["Z"], consuming: 2)
            return true
        }
        return false
    }

    /// ar → AA R, or → AO R, er/ir/ur/yr → ER, when no vowel follows the r.
    mutating func takeRControlled() -> Bool {
        guard i + 1 < w.count, w[i + 1] == ascii("r"), isVowel(i) else { return false }
        let after = letter(i + 2)
        guard after != ascii("r"), !(i + 2 < w.count && isVowel(i + 2)) else { return false }
        switch w[i] {
        case ascii("a"): emit(["AA", "R"], consuming: 2)
        case ascii("o"): emit(["AO", "R"], consuming: 2)
        default: emit(["ER"], consuming: 2)
        }
        return true
    }

    /// Multi-letter spellings that sound the same wherever they stand.
    mutating func takeSpelling() -> Bool {
        if has("gh") { emit(i == 0 ? ["G"] : [], consuming: 2); return true }
        if has("ow") {
            // "down", "owl" have AW; "show", "bowl" OW: guess by the next letter.
            let next = letter(i + 2)
            emit([next == ascii("n") || next == ascii("l") ? "AW" : "OW"], consuming: 2)
            return true
        }
        for (spelling, phones) in Reader.spellings where has(spelling) {
            emit(phones, consuming: spelling.utf8.count)
            return true
        }
        return false
    }

    /// One letter, by its neighbours.
    mutating func takeSingle() {
        let c = w[i]
        if i > 0, c == w[i - 1], !isVowel(i), !(c == ascii("c") && isSoftening(i + 1)) {
            i += 1 // a doubled consonant sounds once
            return
        }
        if isVowel(i) { emit([vowel()], consuming: 1); return }
        switch c {
        case ascii("c"): emit([isSoftening(i + 1) ? "S" : "K"], consuming: 1)
        case ascii("g"): emit([isSoftening(i + 1) ? "JH" : "G"], consuming: 1)
        case ascii("s"):
            let between = i > 0 && isVowel(i - 1) && i + 1 < w.count && isVowel(i + 1)
            let voicedEnd = i == w.count - 1 && i > 0 && Reader.voiced.contains(w[i - 1])
            emit([between || voicedEnd ? "Z" : "S"], consuming: 1)
        case ascii("h"): emit(i == 0 || (i + 1 < w.count && isVowel(i + 1)) ? ["HH"] : [], consuming: 1)
        case ascii("y"): emit(["Y"], consuming: 1)
        default: emit(Reader.consonants[c] ?? [], consuming: 1)
        }
    }

    /// The sound of the vowel letter at `i`: silent, long or short.
    func vowel() -> String {
        let c = w[i]
        let last = i == w.count - 1
        if last && c == ascii("e") && hasVowel(before: i) { return "" }
        if last {
            if c == ascii("y") { return hasVowel(before: i) ? "IY" : "AY" }
            return Reader.final[c] ?? "AH"
        }
        if isVowel(i + 1) { return c == ascii("i") ? "IY" : Reader.long[c] ?? "AH" } // two vowels that are no digraph
        if c == ascii("a"), letter(i + 1) == ascii("l"), [ascii("l"), ascii("k"), ascii("t")].contains(letter(i + 2)) {
            return "AO" // all, talk, salt
        }
        // One consonant (or a consonant digraph) then a vowel: an open, long syllable.
        let consonantLength = Reader.consonantDigraphs.contains { has($0, at: i + 1) } ? 2 : 1
        let after = i + 1 + consonantLength
        if letter(i + 1) != ascii("x"), after < w.count, isVowel(after), !isVowel(i + 1) {
            if c == ascii("a"), endsInSoundedVowel { return "AA" }
            return Reader.long[c] ?? "AH"
        }
        return Reader.short[c] ?? "AH"
    }

    // MARK: helpers

    mutating func emit(_ phones: [String], consuming length: Int) {
        for phone in phones where !phone.isEmpty { out.append(phone) }
        i += length
    }

    func letter(_ k: Int) -> UInt8 { k >= 0 && k < w.count ? w[k] : 0 }

    /// Whether the word ends in a vowel letter that is sounded (a, i, o, u):
    /// a loan word or a name ("nabu", "lava", "sakura"), whose open-syllable
    /// a is AA rather than English EY.
    var endsInSoundedVowel: Bool { [ascii("a"), ascii("i"), ascii("o"), ascii("u")].contains(w.last ?? 0) }

    /// a e i o u always; y when it is not first and no vowel follows it.
    func isVowel(_ k: Int) -> Bool {
        let c = letter(k)
        if Reader.plainVowels.contains(c) { return true }
        return c == ascii("y") && k > 0 && !Reader.plainVowels.contains(letter(k + 1))
    }

    func hasVowel(before k: Int) -> Bool { (0..<k).contains { isVowel($0) } }

    /// e, i and y soften a preceding c or g.
    func isSoftening(_ k: Int) -> Bool { [ascii("e"), ascii("i"), ascii("y")].contains(letter(k)) }

    func has(_ spelling: String) -> Bool { has(spelling, at: i) }

    func has(_ spelling: String, at start: Int) -> Bool {
        var k = start
        for byte in spelling.utf8 {
            guard k < w.count, w[k] == byte else { return false }
            k += 1
        }
        return true
    }

    // MARK: tables

    static let wordStarts: [(String, [String])] = [
        ("kn", ["N"]), ("wr", ["R"]), ("gn", ["N"]), ("ps", ["S"]), ("pn", ["N"]), ("x", ["Z"]),
    ]
    /// Longest first, so "tion" wins over "ti" and "tch" over "ch".
    static let spellings: [(String, [String])] = [
        ("tion", ["SH", "AH", "N"]), ("sion", ["ZH", "AH", "N"]), ("ough", ["AO"]), ("augh", ["AO"]),
        ("eigh", ["EY"]), ("tch", ["CH"]), ("igh", ["AY"]), ("sch", ["S", "K"]), ("dge", ["JH"]),
        ("ook", ["UH", "K"]), ("rh", ["R"]),
        ("ch", ["CH"]), ("sh", ["SH"]), ("th", ["TH"]), ("ph", ["F"]), ("wh", ["W"]), ("ck", ["K"]),
        ("ng", ["NG"]), ("nk", ["NG", "K"]), ("qu", ["K", "W"]), ("x", ["K", "S"]),
        ("ee", ["IY"]), ("ea", ["IY"]), ("ai", ["EY"]), ("ay", ["EY"]), ("ei", ["EY"]), ("ey", ["EY"]),
        ("oo", ["UW"]), ("ou", ["AW"]), ("oi", ["OY"]), ("oy", ["OY"]), ("au", ["AO"]), ("aw", ["AO"]),
        ("oa", ["OW"]), ("ew", ["UW"]), ("eu", ["UW"]), ("ie", ["IY"]), ("ui", ["UW"]), ("ue", ["UW"]),
    ]
    /// Two letters that act as one consonant when deciding whether a syllable is open.
    static let consonantDigraphs = ["th", "ch", "sh", "ph"]
    static let plainVowels: Set<UInt8> = Set("aeiou".utf8)
    static let long: [UInt8: String] = table(["a": "EY", "e": "IY", "i": "AY", "o": "OW", "u": "UW", "y": "AY"])
    /// A vowel letter ending a word: "pizza", "he", "taxi", "hello", "guru".
    static let final: [UInt8: String] = table(["a": "AH", "e": "IY", "i": "IY", "o": "OW", "u": "UW"])
    static let short: [UInt8: String] = table(["a": "AE", "e": "EH", "i": "IH", "o": "AA", "u": "AH", "y": "IH"])
    static let consonants: [UInt8: [String]] = table([
        "b": ["B"], "d": ["D"], "f": ["F"], "j": ["JH"], "k": ["K"], "l": ["L"], "m": ["M"], "n": ["N"],
        "p": ["P"], "q": ["K"], "r": ["R"], "t": ["T"], "v": ["V"], "w": ["W"], "z": ["Z"],
    ])
    /// Letters ending in a voiceless sound (an -s or -ed after them is voiceless too).
    static let voiceless: Set<UInt8> = Set("pkfth".utf8)
    /// Letters ending in a voiced consonant (a final s after them is Z).
    static let voiced: Set<UInt8> = Set("bdglmnrvw".utf8)
    /// Letters ending in a hissing sound (-es after them is a syllable).
    static let hissing: Set<UInt8> = Set("sxz".utf8)

    static func table<Value>(_ byLetter: [Character: Value]) -> [UInt8: Value] {
        Dictionary(uniqueKeysWithValues: byLetter.map { (ascii($0.key), $0.value) })
    }
}

/// The ASCII code of a one-letter literal.
private func ascii(_ character: Character) -> UInt8 { character.asciiValue ?? 0 }
