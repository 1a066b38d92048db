/// One sound symbol: an English phone, a Hangul jamo, or (for any other script)
/// a letter standing for itself.
///
/// Four bytes: the kind in the top two bits, the number below (phone number
/// into `ARPAbet.phones`, jamo number as in `Hangul`, or the letter's Unicode
/// scalar value), so sequences are cheap to store and compare.
public struct Sound: Hashable, Sendable, CustomStringConvertible {
    /// What a sound's number means.
    public enum Kind: Sendable, Equatable {
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
    public static func phone(_ name: String) -> Sound? {
        ARPAbet.index(of: name).map(phone)
    }

    /// Phone number `number` (an index into `ARPAbet.phones`).
    static func phone(_ number: Int) -> Sound { Sound(raw: UInt32(number)) }

    /// The jamo written as compatibility letter `letter` (ㄱ…ㅎ, ㅏ…ㅣ), or nil.
    public static func jamo(_ letter: Character) -> Sound? {
        Hangul.number(ofJamo: letter).map(jamo)
    }

    /// Jamo sound number `number` (0..<`Hangul.jamoCount`).
    static func jamo(_ number: Int) -> Sound { Sound(raw: jamoTag | UInt32(number)) }

    /// A letter that stands for itself.
    public static func letter(_ scalar: Unicode.Scalar) -> Sound { Sound(raw: letterTag | scalar.value) }

    /// What `number` means.
    public var kind: Kind {
        switch raw & ~Sound.numberMask {
        case Sound.jamoTag: return .jamo
        case Sound.letterTag: return .letter
        default: return .phone
        }
    }

    /// The phone number, jamo number or scalar value, per `kind`.
    public var number: Int { Int(raw & Sound.numberMask) }

    /// Whether this is a vowel phone or vowel jamo (letters never are: their
    /// script is unknown).
    public var isVowel: Bool {
        switch kind {
        case .phone: return ARPAbet.isVowel(number)
        case .jamo: return Hangul.isVowel(jamo: number)
        case .letter: return false
        }
    }

    /// The phone name ("AO"), the jamo as a compatibility letter ("ㄱ"), or the letter.
    public var description: String {
        switch kind {
        case .phone: return ARPAbet.phones[number]
        case .jamo: return String(Hangul.letter(ofJamo: number))
        case .letter: return Unicode.Scalar(UInt32(number)).map { String(Character($0)) } ?? "?"
        }
    }
}

/// Sounds with the word each came from.
///
/// Word numbers count every word of the spelled text from 0, including words
/// that produced no sound, so a caller can say "the match must end in word 3
/// or later" in the same numbering as the text's words.
public struct SoundSequence: Sendable, Equatable, CustomStringConvertible {
    /// The sounds, in order.
    public private(set) var sounds: [Sound] = []
    /// For each sound, the number of the word it came from (non-decreasing).
    public private(set) var wordIndex: [Int] = []
    /// Number of words spelled, including silent ones.
    public private(set) var wordCount = 0

    /// An empty sequence.
    public init() {}

    /// A sequence of `words`, each given as its sounds.
    public init(words: [[Sound]]) {
        for word in words { appendWord(word) }
    }

    /// Number of sounds.
    public var count: Int { sounds.count }

    /// Whether there are no sounds (there may still be silent words).
    public var isEmpty: Bool { sounds.isEmpty }

    /// Adds one word made of `wordSounds` (possibly none).
    public mutating func appendWord(_ wordSounds: [Sound]) {
        sounds.append(contentsOf: wordSounds)
        wordIndex.append(contentsOf: repeatElement(wordCount, count: wordSounds.count))
        wordCount += 1
    }

    /// Adds the words of `other` after these, numbering them on from `wordCount`.
    public mutating func append(contentsOf other: SoundSequence) {
        sounds.append(contentsOf: other.sounds)
        wordIndex.append(contentsOf: other.wordIndex.map { $0 + wordCount })
        wordCount += other.wordCount
    }

    /// `lhs` then `rhs`, with `rhs`'s words numbered after `lhs`'s: the text a
    /// wake detector searches is the previous final piece + the newest piece,
    /// and `lhs.wordCount` is then the first word of the newest piece.
    public static func + (lhs: SoundSequence, rhs: SoundSequence) -> SoundSequence {
        var joined = lhs
        joined.append(contentsOf: rhs)
        return joined
    }

    /// Words separated by " | ", sounds by spaces: "HH EY | K AO R D IY L IY AH".
    public var description: String {
        var words: [[String]] = Array(repeating: [], count: wordCount)
        for (sound, word) in zip(sounds, wordIndex) { words[word].append(sound.description) }
        return words.map { $0.joined(separator: " ") }.joined(separator: " | ")
    }
}

/// Spells folded text as sounds, word by word.
///
/// Per word (words are split on spaces): a word holding Hangul is taken apart
/// into jamo (`Hangul`); a word of ASCII letters is pronounced by the
/// pronouncer, then by `LetterToSoundPronouncer` if the pronouncer does not
/// know it; any other word (other scripts, digits) is its letters. No
/// Foundation here: this runs for every transcript piece.
public struct PhoneticSpeller: Sendable {
    /// Asked first for ASCII words, typically a `CMUDictionaryPronouncer`.
    public let pronouncer: any Pronouncer
    /// The last resort for ASCII words the pronouncer does not know.
    private let fallback = LetterToSoundPronouncer()

    /// A speller that asks `pronouncer` first and guesses from letters after.
    public init(pronouncer: any Pronouncer) {
        self.pronouncer = pronouncer
    }

    /// The sounds of `folded` (the output of `TextNormalizer.fold`: lowercase
    /// words separated by single spaces; extra spaces are tolerated).
    public func spell(folded: String) -> SoundSequence {
        var sequence = SoundSequence()
        for word in folded.split(separator: " ", omittingEmptySubsequences: true) {
            sequence.appendWord(sounds(ofWord: word))
        }
        return sequence
    }

    /// The sounds of one folded word.
    public func sounds(ofWord word: Substring) -> [Sound] {
        let scalars = Array(word.unicodeScalars)
        if scalars.contains(where: Hangul.isHangul) {
            return Hangul.sounds(of: scalars)
        }
        if scalars.allSatisfy(PhoneticSpeller.isASCIILetter) {
            let text = String(word)
            let names = pronouncer.phones(for: text) ?? fallback.phones(for: text) ?? []
            return names.flatMap { ARPAbet.expand($0).map(Sound.phone) }
        }
        return scalars.map(Sound.letter)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
