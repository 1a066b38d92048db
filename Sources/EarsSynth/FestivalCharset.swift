/// The 8-bit charsets festival's voices read text in. Festival's Scheme
/// reader takes bytes, and a voice's letter-to-sound rules are written for
/// its language's charset: given UTF-8, the Czech voices spell out every byte
/// of "ž" as an unknown letter ("neznámý"), the Finnish ones read "ä" as two
/// letters.
package enum FestivalCharset: Sendable, Equatable {
    /// UTF-8, as the English voices have always been given (their text is ASCII).
    case utf8
    /// ISO 8859-1: Western European (Finnish ä, ö; Italian; Catalan).
    case latin1
    /// ISO 8859-2: Central European (Czech č, š, ž, ř, á, í, ú, ý, ě, ů).
    case latin2

    /// The charset of festival's voices of `language` ("cs", "fi", "en"…).
    package init(language: String) {
        switch language {
        case "cs": self = .latin2
        case "fi", "it", "ca": self = .latin1
        default: self = .utf8
        }
    }

    /// `text` in this charset; a character it lacks becomes `?`.
    package func encode(_ text: String) -> [UInt8] {
        switch self {
        case .utf8:
            return Array(text.utf8)
        case .latin1:
            return text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : UInt8(ascii: "?") }
        case .latin2:
            return text.unicodeScalars.map { $0.value < 0x80 ? UInt8($0.value) : Self.latin2Letters[$0] ?? UInt8(ascii: "?") }
        }
    }

    /// The Czech letters `AccentSpeller` writes (and their capitals' lowercase
    /// kin), in ISO 8859-2.
    private static let latin2Letters: [Unicode.Scalar: UInt8] = [
        "á": 0xE1, "é": 0xE9, "í": 0xED, "ó": 0xF3, "ú": 0xFA, "ý": 0xFD,
        "č": 0xE8, "š": 0xB9, "ž": 0xBE, "ř": 0xF8, "ě": 0xEC, "ů": 0xF9,
        "ď": 0xEF, "ť": 0xBB, "ň": 0xF2,
    ]
}
