/// The ARPAbet phone inventory of the CMU dictionary: 15 vowels, 24 consonants.
///
/// Phones are numbered by their position in `phones` (vowels first), which is
/// how `Sound` and the cost tables refer to them.
package enum ARPAbet {
    /// The 15 vowels, ordered roughly from open-back to close-front.
    package static let vowels: [String] = [
        "AA", "AO", "AH", "AE", "AW", "AY", "OW", "OY", "UH", "UW", "ER", "EH", "EY", "IH", "IY",
    ]
    /// The 24 consonants, grouped by manner (stops, affricates, fricatives,
    /// nasals, liquids, glides).
    package static let consonants: [String] = [
        "P", "B", "T", "D", "K", "G",
        "CH", "JH",
        "F", "V", "TH", "DH", "S", "Z", "SH", "ZH", "HH",
        "M", "N", "NG",
        "L", "R",
        "W", "Y",
    ]
    /// Every phone: `vowels` then `consonants`. An index into this array is a phone number.
    package static let phones: [String] = vowels + consonants

    /// Number of phones (39).
    package static var count: Int { phones.count }

    /// Whether phone number `index` is a vowel.
    package static func isVowel(_ index: Int) -> Bool {
        index < vowels.count
    }

    /// The phone number of `name`, or nil if it is no ARPAbet phone.
    ///
    /// Accepts lowercase, trailing stress digits ("AH0") and maps the common
    /// ARPAbet extensions onto the 39 CMU phones (AX → AH, IX → IH, AXR → ER,
    /// UX → UW, DX → D, NX → N, H → HH). Syllabic EL/EM/EN have no single
    /// equivalent; use `expand(_:)` for those.
    package static func index(of name: String) -> Int? {
        numbers[canonical(name)]
    }

    /// Phone numbers for `name`, expanding the syllabic extensions into two
    /// phones (EL → AH L, EM → AH M, EN → AH N). Empty for unknown names and for
    /// the glottal stop Q, which carries nothing a matcher could use.
    package static func expand(_ name: String) -> [Int] {
        if let number = numbers[name] { return [number] } // the usual case, no copying
        let key = canonical(name)
        if let number = numbers[key] { return [number] }
        guard let pair = syllabics[key] else { return [] }
        return pair.compactMap { numbers[$0] }
    }

    private static let numbers: [String: Int] = {
        var table: [String: Int] = [:]
        for (number, phone) in phones.enumerated() { table[phone] = number }
        for (alias, phone) in aliases { table[alias] = table[phone] }
        return table
    }()

    /// Extension symbols used by TIMIT-style lexicons, mapped to the nearest CMU phone.
    private static let aliases: [String: String] = [
        "AX": "AH", "IX": "IH", "AXR": "ER", "UX": "UW", "DX": "D", "NX": "N", "H": "HH",
    ]
    /// Syllabic consonants: a reduced vowel followed by the consonant.
    private static let syllabics: [String: [String]] = [
        "EL": ["AH", "L"], "EM": ["AH", "M"], "EN": ["AH", "N"],
    ]

    /// Uppercase, stress digits dropped: the key the tables use.
    private static func canonical(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar {
            case "0"..."9": continue
            case "a"..."z": scalars.append(Unicode.Scalar(scalar.value - asciiCaseOffset)!)
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Distance between an ASCII lowercase letter and its uppercase form.
    private static let asciiCaseOffset: UInt32 = 0x20
}
