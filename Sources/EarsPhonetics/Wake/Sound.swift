/// One sound symbol: an English phone, a Hangul jamo, or (for any other script)
/// a letter standing for itself.
///
/// Four bytes: the kind in the top two bits, the number below (phone number
/// into `ARPAbet.phones`, jamo number as in `Hangul`, or the letter's Unicode
/// scalar value), so sequences are cheap to store and compare.
package struct Sound: Hashable, Sendable, CustomStringConvertible {
    /// What a sound's number means.
    package enum Kind: Sendable, Equatable {
        /// An ARPAbet phone; `number` indexes `ARPAbet.phones`.
        case phone
        /// A Hangul jamo; `number` is 0..<`Hangul.jamoCount`.
        case jamo
        /// A letter of another script; `number` is its Unicode scalar value.
        case letter
    }

    private static let kindShift: UInt32 = 30
    private static let numberMask: UInt32 = (1 << kindShift) - 1
    private static let jamoTag: UInt32 = 1 << kindShift
    private static let letterTag: UInt32 = 2 << kindShift

    private let raw: UInt32

    private init(raw: UInt32) { self.raw = raw }

    /// The phone named `name` (ARPAbet, any case, stress digits ignored), or nil.
    package static func phone(_ name: String) -> Sound? {
        ARPAbet.index(of: name).map(phone)
    }

    /// Phone number `number` (an index into `ARPAbet.phones`).
    static func phone(_ number: Int) -> Sound { Sound(raw: UInt32(number)) }

    /// The jamo written as compatibility letter `letter` (ㄱ…ㅎ, ㅏ…ㅣ), or nil.
    package static func jamo(_ letter: Character) -> Sound? {
        Hangul.number(ofJamo: letter).map(jamo)
    }

    /// Jamo sound number `number` (0..<`Hangul.jamoCount`).
    static func jamo(_ number: Int) -> Sound { Sound(raw: jamoTag | UInt32(number)) }

    /// A letter that stands for itself.
    package static func letter(_ scalar: Unicode.Scalar) -> Sound { Sound(raw: letterTag | scalar.value) }

    /// What `number` means.
    package var kind: Kind {
        switch raw & ~Sound.numberMask {
        case Sound.jamoTag: return .jamo
        case Sound.letterTag: return .letter
        default: return .phone
        }
    }

    /// The phone number, jamo number or scalar value, per `kind`.
    package var number: Int { Int(raw & Sound.numberMask) }

    /// Whether this is a vowel phone or vowel jamo (letters never are: their
    /// script is unknown).
    package var isVowel: Bool {
        switch kind {
        case .phone: return ARPAbet.isVowel(number)
        case .jamo: return Hangul.isVowel(jamo: number)
        case .letter: return false
        }
    }

    /// The phone name ("AO"), the jamo as a compatibility letter ("ㄱ"), or the letter.
    package var description: String {
        switch kind {
        case .phone: return ARPAbet.phones[number]
        case .jamo: return String(Hangul.letter(ofJamo: number))
        case .letter: return Unicode.Scalar(UInt32(number)).map { String(Character($0)) } ?? "?"
        }
    }
}
