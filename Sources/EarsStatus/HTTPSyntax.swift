/// Character classes from RFC 9110 §5.6, shared by the decoder and the
/// response encoder.
enum HTTPSyntax {
    /// Whether `bytes` is a non-empty `token`: the characters a method or a
    /// header name may use.
    static func isToken(_ bytes: some Sequence<UInt8>) -> Bool {
        var any = false
        for byte in bytes {
            guard isTokenCharacter(byte) else { return false }
            any = true
        }
        return any
    }

    /// The punctuation `tchar` allows.
    private static let tokenSymbols: [UInt8] = Array("!#$%&'*+-.^_`|~".utf8)

    /// `tchar`: ASCII letters and digits and ``!#$%&'*+-.^_`|~``.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return tokenSymbols.contains(byte)
        }
    }
}
