/// Sounds with the word each came from.
///
/// Word numbers count every word of the spelled text from 0, including words
/// that produced no sound, so a caller can say "the match must end in word 3
/// or later" in the same numbering as the text's words.
package struct SoundSequence: Sendable, Equatable, CustomStringConvertible {
    /// The sounds, in order.
    package private(set) var sounds: [Sound] = []
    /// For each sound, the number of the word it came from (non-decreasing).
    package private(set) var wordIndex: [Int] = []
    /// Number of words spelled, including silent ones.
    package private(set) var wordCount = 0

    /// An empty sequence.
    package init() {}

    /// A sequence of `words`, each given as its sounds.
    package init(words: [[Sound]]) {
        for word in words { appendWord(word) }
    }

    /// Number of sounds.
    package var count: Int { sounds.count }

    /// Whether there are no sounds (there may still be silent words).
    package var isEmpty: Bool { sounds.isEmpty }

    /// Adds one word made of `wordSounds` (possibly none).
    package mutating func appendWord(_ wordSounds: [Sound]) {
        sounds.append(contentsOf: wordSounds)
        wordIndex.append(contentsOf: repeatElement(wordCount, count: wordSounds.count))
        wordCount += 1
    }

    /// Adds the words of `other` after these, numbering them on from `wordCount`.
    package mutating func append(contentsOf other: SoundSequence) {
        sounds.append(contentsOf: other.sounds)
        wordIndex.append(contentsOf: other.wordIndex.map { $0 + wordCount })
        wordCount += other.wordCount
    }

    /// `lhs` then `rhs`, with `rhs`'s words numbered after `lhs`'s: the text a
    /// wake detector searches is the previous final piece + the newest piece,
    /// and `lhs.wordCount` is then the first word of the newest piece.
    package static func + (lhs: SoundSequence, rhs: SoundSequence) -> SoundSequence {
        var joined = lhs
        joined.append(contentsOf: rhs)
        return joined
    }

    /// Words separated by " | ", sounds by spaces: "HH EY | K AO R D IY L IY AH".
    package var description: String {
        var words: [[String]] = Array(repeating: [], count: wordCount)
        for (sound, word) in zip(sounds, wordIndex) { words[word].append(sound.description) }
        return words.map { $0.joined(separator: " ") }.joined(separator: " | ")
    }
}
