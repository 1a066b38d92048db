/// Hangul in sounds: syllables taken apart into jamo by Unicode arithmetic,
/// with the two pronunciation rules that matter most for matching.
///
/// A precomposed syllable (U+AC00–U+D7A3) is `base + (lead × 21 + vowel) × 28
/// + tail`, so it splits into a leading consonant, a vowel and an optional
/// trailing consonant with no tables. Jamo become `Sound`s numbered
/// 0..<19 for consonants (in leading order; number 11, ㅇ, stands for the ng
/// sound, since a leading ㅇ is silent and makes no sound at all) and
/// 19..<40 for the 21 vowels.
///
/// Trailing consonants are spelled as they sound (standard pronunciation,
/// simplified): before a vowel-initial syllable of the same word the consonant
/// moves over and keeps its value (옷이 → 오시; both halves of a cluster, 읽어 →
/// 일거; ㅎ goes silent, 좋아 → 조아); elsewhere it falls to one of the seven
/// final sounds ㄱ ㄴ ㄷ ㄹ ㅁ ㅂ ㅇ (낫, 낮, 낯 all → 낟; 닭 → 닥). So spellings
/// that sound alike get the same symbols, which is what an engine confuses.
/// Not modelled: nasal assimilation (국물 → 궁물), tensing, ㅎ aspiration.
package enum Hangul {
    /// Number of consonant jamo sounds (the 19 leading consonants).
    package static let consonantCount = 19
    /// Number of vowel jamo.
    package static let vowelCount = 21
    /// Number of jamo sounds: consonants then vowels.
    package static let jamoCount = consonantCount + vowelCount

    /// Lead, vowel and tail: enough room per syllable in the common case.
    private static let maximumJamoPerSyllable = 3
    /// The consonant number of ㅇ: silent as a lead, the ng sound as a tail.
    static let ieung = 11

    private static let syllableBase: UInt32 = 0xAC00
    private static let syllableLast: UInt32 = 0xD7A3
    /// Tails per vowel, counting "no tail" as tail 0.
    private static let tailSlots: UInt32 = 28
    /// Conjoining jamo blocks (what NFKC turns compatibility jamo such as ㅋ into).
    private static let conjoiningLeads: ClosedRange<UInt32> = 0x1100...0x1112
    private static let conjoiningVowels: ClosedRange<UInt32> = 0x1161...0x1175
    private static let conjoiningTails: ClosedRange<UInt32> = 0x11A8...0x11C2
    /// Compatibility jamo of the 19 consonants in leading order, for display.
    private static let consonantLetters: [Character] = Array("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ")
    /// Compatibility jamo of the 21 vowels (U+314F–U+3163), for display.
    private static let vowelLetters: [Character] = Array("ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ")
    /// Compatibility jamo of the 27 tails (tail 1…27), for display.
    private static let tailLetters: [Character] = Array("ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ")

    /// How each tail sounds, in tail order (checked against `tailLetters` by
    /// the tests): moved before a vowel, and at a syllable's end.
    private static let tailSounds: [(tail: Character, beforeVowel: String, final: String)] = [
        ("ㄱ", "ㄱ", "ㄱ"), ("ㄲ", "ㄲ", "ㄱ"), ("ㄳ", "ㄱㅆ", "ㄱ"), ("ㄴ", "ㄴ", "ㄴ"), ("ㄵ", "ㄴㅈ", "ㄴ"),
        ("ㄶ", "ㄴ", "ㄴ"), ("ㄷ", "ㄷ", "ㄷ"), ("ㄹ", "ㄹ", "ㄹ"), ("ㄺ", "ㄹㄱ", "ㄱ"), ("ㄻ", "ㄹㅁ", "ㅁ"),
        ("ㄼ", "ㄹㅂ", "ㄹ"), ("ㄽ", "ㄹㅆ", "ㄹ"), ("ㄾ", "ㄹㅌ", "ㄹ"), ("ㄿ", "ㄹㅍ", "ㅂ"), ("ㅀ", "ㄹ", "ㄹ"),
        ("ㅁ", "ㅁ", "ㅁ"), ("ㅂ", "ㅂ", "ㅂ"), ("ㅄ", "ㅂㅆ", "ㅂ"), ("ㅅ", "ㅅ", "ㄷ"), ("ㅆ", "ㅆ", "ㄷ"),
        ("ㅇ", "ㅇ", "ㅇ"), ("ㅈ", "ㅈ", "ㄷ"), ("ㅊ", "ㅊ", "ㄷ"), ("ㅋ", "ㅋ", "ㄱ"), ("ㅌ", "ㅌ", "ㄷ"),
        ("ㅍ", "ㅍ", "ㅂ"), ("ㅎ", "", "ㄷ"),
    ]
    /// `tailSounds` as consonant numbers, indexed by tail − 1.
    private static let tails: [(beforeVowel: [Int], final: [Int])] = tailSounds.map { entry in
        (entry.beforeVowel.compactMap(number(ofJamo:)), entry.final.compactMap(number(ofJamo:)))
    }

    /// Whether the tail table lines up with Unicode's tail order (a self-check for tests).
    static var tailTableIsInUnicodeOrder: Bool {
        tailSounds.map(\.tail) == tailLetters
    }

    /// The jamo sound number of a compatibility letter (ㄱ…ㅎ, ㅏ…ㅣ), or nil.
    static func number(ofJamo letter: Character) -> Int? {
        if let consonant = consonantLetters.firstIndex(of: letter) { return consonant }
        return vowelLetters.firstIndex(of: letter).map { consonantCount + $0 }
    }

    /// Whether `scalar` is a precomposed Hangul syllable.
    package static func isSyllable(_ scalar: Unicode.Scalar) -> Bool {
        (syllableBase...syllableLast).contains(scalar.value)
    }

    /// Whether `scalar` is a syllable or a conjoining jamo (anything this type spells).
    package static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        isSyllable(scalar) || conjoiningLeads.contains(scalar.value)
            || conjoiningVowels.contains(scalar.value) || conjoiningTails.contains(scalar.value)
    }

    /// The canonical parts of a syllable: lead 0…18, vowel 0…20, tail 0…27
    /// (0 = none). Nil for anything but a precomposed syllable.
    package static func decompose(_ scalar: Unicode.Scalar) -> (lead: Int, vowel: Int, tail: Int)? {
        guard isSyllable(scalar) else { return nil }
        let index = scalar.value - syllableBase
        let tail = index % tailSlots
        let leadAndVowel = index / tailSlots
        return (Int(leadAndVowel) / vowelCount, Int(leadAndVowel) % vowelCount, Int(tail))
    }

    /// The canonical jamo of a syllable as compatibility letters, silent ㅇ
    /// included and no sound rules applied: 각 → ㄱ ㅏ ㄱ, 닭 → ㄷ ㅏ ㄺ.
    package static func jamoLetters(of scalar: Unicode.Scalar) -> [Character] {
        guard let parts = decompose(scalar) else { return [] }
        let head = [consonantLetters[parts.lead], vowelLetters[parts.vowel]]
        return parts.tail == 0 ? head : head + [tailLetters[parts.tail - 1]]
    }

    /// Display letter of jamo sound `number` (0..<jamoCount).
    static func letter(ofJamo number: Int) -> Character {
        number < consonantCount ? consonantLetters[number] : vowelLetters[number - consonantCount]
    }

    /// Whether jamo sound `number` is a vowel.
    static func isVowel(jamo number: Int) -> Bool { number >= consonantCount }

    /// The sounds of one word that contains Hangul. Syllables and conjoining
    /// jamo follow the rules above; any other scalar stands for itself.
    static func sounds(of word: [Unicode.Scalar]) -> [Sound] {
        var sounds: [Sound] = []
        sounds.reserveCapacity(word.count * maximumJamoPerSyllable)
        for (position, scalar) in word.enumerated() {
            if let parts = decompose(scalar) {
                if parts.lead != ieung { sounds.append(.jamo(parts.lead)) }
                sounds.append(.jamo(consonantCount + parts.vowel))
                guard parts.tail > 0 else { continue }
                let next = position + 1 < word.count ? decompose(word[position + 1]) : nil
                let movesOver = next?.lead == ieung
                let tail = tails[parts.tail - 1]
                for consonant in movesOver ? tail.beforeVowel : tail.final { sounds.append(.jamo(consonant)) }
            } else if conjoiningLeads.contains(scalar.value) {
                let lead = Int(scalar.value - conjoiningLeads.lowerBound)
                if lead != ieung { sounds.append(.jamo(lead)) }
            } else if conjoiningVowels.contains(scalar.value) {
                sounds.append(.jamo(consonantCount + Int(scalar.value - conjoiningVowels.lowerBound)))
            } else if conjoiningTails.contains(scalar.value) {
                for consonant in tails[Int(scalar.value - conjoiningTails.lowerBound)].final {
                    sounds.append(.jamo(consonant))
                }
            } else {
                sounds.append(.letter(scalar))
            }
        }
        return sounds
    }
}
