/// How far apart two sounds are and what losing one costs: the tables behind
/// `PhoneticMatcher`. Built once (`standard`); lookups are two array reads.
package struct SoundCosts: Sendable {
    /// The tables built from `PhoneticCost`.
    package static let standard = SoundCosts()

    private let phoneSubstitution: [Double]
    private let phoneIndel: [Double]
    private let jamoSubstitution: [Double]
    private let jamoIndel: [Double]

    /// Builds the tables (a few thousand entries); use `standard` instead of
    /// building your own.
    package init() {
        (phoneSubstitution, phoneIndel) = SoundCosts.phoneTables()
        (jamoSubstitution, jamoIndel) = SoundCosts.jamoTables()
    }

    /// Cost of hearing `b` where `a` was meant (symmetric; 0 when equal).
    package func substitution(_ a: Sound, _ b: Sound) -> Double {
        if a == b { return 0 }
        switch (a.kind, b.kind) {
        case (.phone, .phone): return phoneSubstitution[a.number * ARPAbet.count + b.number]
        case (.jamo, .jamo): return jamoSubstitution[a.number * Hangul.jamoCount + b.number]
        default: return PhoneticCost.unrelated
        }
    }

    /// Cost of `sound` being lost from, or slipped into, a match.
    package func indel(_ sound: Sound) -> Double {
        switch sound.kind {
        case .phone: return phoneIndel[sound.number]
        case .jamo: return jamoIndel[sound.number]
        case .letter: return PhoneticCost.letterIndel
        }
    }

    // MARK: English phones

    /// Consonants by manner; same group costs `sameManner`.
    private static let phoneManners: [[String]] = [
        ["P", "B", "T", "D", "K", "G"], ["CH", "JH"], ["F", "V", "TH", "DH", "S", "Z", "SH", "ZH", "HH"],
        ["M", "N", "NG"], ["L", "R"], ["W", "Y"],
    ]

    /// Pairs closer than their groups' default.
    private static let phonePairs: [(String, String, Double)] = {
        let c = PhoneticCost.self
        return [
            ("AA", "AO", c.closeVowel), ("AA", "AH", c.closeVowel), ("AO", "AH", c.closeVowel),
            ("IY", "IH", c.closeVowel), ("IY", "EY", c.closeVowel), ("IH", "EY", c.closeVowel),
            ("IH", "EH", c.closeVowel), ("EH", "EY", c.closeVowel), ("EH", "AE", c.closeVowel),
            ("UH", "UW", c.closeVowel),
            ("IY", "EH", c.nearVowel), ("AH", "IH", c.nearVowel), ("AH", "UH", c.nearVowel),
            ("AH", "EH", c.nearVowel), ("AH", "ER", c.nearVowel), ("AE", "AA", c.nearVowel),
            ("AE", "AH", c.nearVowel), ("OW", "AO", c.nearVowel), ("OW", "UW", c.nearVowel),
            ("OW", "AH", c.nearVowel), ("AW", "AA", c.nearVowel), ("AW", "AO", c.nearVowel),
            ("AW", "OW", c.nearVowel), ("AY", "AA", c.nearVowel), ("AY", "EY", c.nearVowel),
            ("AY", "IY", c.nearVowel), ("OY", "AO", c.nearVowel), ("OY", "OW", c.nearVowel),
            ("ER", "IH", c.nearVowel), ("ER", "UH", c.nearVowel),
            ("P", "B", c.voicing), ("T", "D", c.voicing), ("K", "G", c.voicing), ("F", "V", c.voicing),
            ("S", "Z", c.voicing), ("SH", "ZH", c.voicing), ("CH", "JH", c.voicing), ("TH", "DH", c.voicing),
            ("M", "N", c.nearConsonant), ("N", "NG", c.nearConsonant), ("TH", "F", c.nearConsonant),
            ("DH", "V", c.nearConsonant), ("DH", "D", c.nearConsonant), ("TH", "T", c.nearConsonant),
            ("CH", "SH", c.nearConsonant), ("JH", "ZH", c.nearConsonant), ("CH", "T", c.nearConsonant),
            ("JH", "D", c.nearConsonant), ("S", "SH", c.nearConsonant), ("Z", "ZH", c.nearConsonant),
            ("S", "TH", c.nearConsonant),
            ("W", "R", c.sameManner), ("Y", "L", c.sameManner),
            ("Y", "IY", c.glideVowel), ("W", "UW", c.glideVowel), ("R", "ER", c.glideVowel),
        ]
    }()

    private static let reducedVowels: Set<String> = ["AH", "IH", "UH"]
    private static let glides: Set<String> = ["W", "Y"]
    private static let breaths: Set<String> = ["HH"]

    private static func phoneTables() -> (substitution: [Double], indel: [Double]) {
        let names = ARPAbet.phones
        let manner = Dictionary(uniqueKeysWithValues: phoneManners.enumerated().flatMap { group, members in
            members.map { ($0, group) }
        })
        var matrix = SymmetricTable(size: names.count)
        for a in names.indices {
            for b in names.indices where a != b {
                let vowels = (ARPAbet.isVowel(a), ARPAbet.isVowel(b))
                matrix[a, b] = vowels == (true, true) ? PhoneticCost.otherVowel
                    : vowels.0 != vowels.1 ? PhoneticCost.consonantVowel
                    : manner[names[a]] == manner[names[b]] ? PhoneticCost.sameManner : PhoneticCost.otherConsonant
            }
        }
        for (a, b, cost) in phonePairs {
            matrix[ARPAbet.index(of: a)!, ARPAbet.index(of: b)!] = cost
        }
        let indel = names.indices.map { number -> Double in
            let name = names[number]
            if breaths.contains(name) { return PhoneticCost.breathIndel }
            if glides.contains(name) { return PhoneticCost.glideIndel }
            if reducedVowels.contains(name) { return PhoneticCost.reducedVowelIndel }
            return ARPAbet.isVowel(number) ? PhoneticCost.fullVowelIndel : PhoneticCost.consonantIndel
        }
        return (matrix.values, indel)
    }

    // MARK: Hangul jamo

    /// Consonants by manner: stops, affricates, fricatives, nasals (ㅇ is ng), liquid.
    private static let jamoManners = ["ㄱㄲㅋㄷㄸㅌㅂㅃㅍ", "ㅈㅉㅊ", "ㅅㅆㅎ", "ㄴㅁㅇ", "ㄹ"]
    /// Lax, tense and aspirated members of one series.
    private static let jamoSeries = ["ㄱㄲㅋ", "ㄷㄸㅌ", "ㅂㅃㅍ", "ㅈㅉㅊ", "ㅅㅆ"]
    /// Consonant pairs heard for each other across manner (palatalization, final ㅅ = ㄷ, ㄹ/ㄴ).
    private static let jamoPairs: [(Character, Character, Double)] = [
        ("ㄷ", "ㅈ", PhoneticCost.nearConsonant), ("ㅌ", "ㅊ", PhoneticCost.nearConsonant),
        ("ㅅ", "ㄷ", PhoneticCost.nearConsonant), ("ㅅ", "ㅈ", PhoneticCost.nearConsonant),
        ("ㄹ", "ㄴ", PhoneticCost.sameManner),
    ]
    /// Each vowel (ㅏ…ㅣ in Unicode order) as glide and base vowel: "" none, "y",
    /// "w", or "ɰ" (the ㅡ-glide of ㅢ); bases a ae eo e o u eu i.
    private static let jamoVowels: [(glide: String, base: String)] = [
        ("", "a"), ("", "ae"), ("y", "a"), ("y", "ae"), ("", "eo"), ("", "e"), ("y", "eo"), ("y", "e"),
        ("", "o"), ("w", "a"), ("w", "ae"), ("w", "e"), ("y", "o"), ("", "u"), ("w", "eo"), ("w", "e"),
        ("w", "i"), ("y", "u"), ("", "eu"), ("ɰ", "i"), ("", "i"),
    ]
    /// Base vowel pairs closer than `otherVowel`.
    private static let jamoBasePairs: [Set<String>: Double] = [
        ["ae", "e"]: PhoneticCost.mergedVowel, ["eo", "o"]: PhoneticCost.closeVowel,
        ["u", "eu"]: PhoneticCost.closeVowel, ["o", "u"]: PhoneticCost.closeVowel,
        ["a", "eo"]: PhoneticCost.nearVowel, ["eu", "i"]: PhoneticCost.nearVowel,
        ["e", "i"]: PhoneticCost.nearVowel, ["a", "ae"]: PhoneticCost.nearVowel,
        ["eo", "eu"]: PhoneticCost.nearVowel,
    ]

    private static func jamoTables() -> (substitution: [Double], indel: [Double]) {
        let count = Hangul.jamoCount, consonants = Hangul.consonantCount
        func number(_ letter: Character) -> Int { Hangul.number(ofJamo: letter)! }
        var manner = [Int](repeating: 0, count: consonants)
        for (group, letters) in jamoManners.enumerated() { for letter in letters { manner[number(letter)] = group } }
        var matrix = SymmetricTable(size: count)
        for a in 0..<count {
            for b in 0..<count where a != b {
                switch (a < consonants, b < consonants) {
                case (true, true):
                    matrix[a, b] = manner[a] == manner[b] ? PhoneticCost.sameManner : PhoneticCost.otherConsonant
                case (false, false):
                    let (x, y) = (jamoVowels[a - consonants], jamoVowels[b - consonants])
                    let base = x.base == y.base ? 0 : jamoBasePairs[[x.base, y.base]] ?? PhoneticCost.otherVowel
                    let glide = x.glide == y.glide ? 0 : PhoneticCost.glideDifference
                    matrix[a, b] = min(PhoneticCost.otherVowel, max(PhoneticCost.mergedVowel, base + glide))
                default:
                    matrix[a, b] = PhoneticCost.consonantVowel
                }
            }
        }
        for series in jamoSeries {
            for a in series { for b in series where a != b { matrix[number(a), number(b)] = PhoneticCost.voicing } }
        }
        for (a, b, cost) in jamoPairs { matrix[number(a), number(b)] = cost }
        var indel = (0..<count).map { $0 < consonants ? PhoneticCost.consonantIndel : PhoneticCost.fullVowelIndel }
        indel[number("ㅎ")] = PhoneticCost.breathIndel
        indel[number("ㅡ")] = PhoneticCost.reducedVowelIndel
        return (matrix.values, indel)
    }
}

/// A square table that keeps itself symmetric: setting [a, b] sets [b, a].
private struct SymmetricTable {
    let size: Int
    var values: [Double]

    init(size: Int) {
        self.size = size
        values = [Double](repeating: 0, count: size * size)
    }

    subscript(a: Int, b: Int) -> Double {
        get { values[a * size + b] }
        set {
            values[a * size + b] = newValue
            values[b * size + a] = newValue
        }
    }
}
