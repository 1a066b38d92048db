/// The costs the phonetic matcher uses, by name.
///
/// All costs are in "sound edits": 1 is a whole consonant lost, gained or
/// replaced by something unrelated. A match's score divides its cost by the
/// phrase's own deletion mass (see `PhoneticMatcher`), so these only matter
/// relative to each other.
package enum PhoneticCost {
    // MARK: substitutions
    /// Two vowels a listener or engine easily swaps: AA/AO/AH, IY/IH/EY, UH/UW, EH/AE; ㅓ/ㅗ, ㅜ/ㅡ.
    package static let closeVowel = 0.3
    /// Vowels one step further apart: IY/EH, OW/UW, a diphthong and its start (AY/AA).
    package static let nearVowel = 0.45
    /// Any other two vowels.
    package static let otherVowel = 0.6
    /// Korean vowels most speakers no longer tell apart (ㅐ/ㅔ, ㅚ/ㅙ/ㅞ): the floor for different vowels.
    package static let mergedVowel = 0.1
    /// Korean vowels that differ only in a y/w glide (ㅏ/ㅑ, ㅣ/ㅟ), added to the vowels' own distance.
    package static let glideDifference = 0.3
    /// A voiced/voiceless pair (P/B, T/D, K/G, F/V, S/Z, SH/ZH, CH/JH, TH/DH), or a
    /// Korean lax/tense/aspirated series (ㄱ/ㄲ/ㅋ, ㄷ/ㄸ/ㅌ, ㅂ/ㅃ/ㅍ, ㅈ/ㅉ/ㅊ, ㅅ/ㅆ).
    package static let voicing = 0.3
    /// Consonants often heard for each other across manner or place: M/N, N/NG,
    /// TH/F, DH/D, CH/SH, CH/T, S/SH; ㄷ/ㅈ, ㅅ/ㄷ.
    package static let nearConsonant = 0.4
    /// Consonants of the same manner (stops, affricates, fricatives, nasals,
    /// liquids L/R and ㄹ/ㄴ, glides W/Y).
    package static let sameManner = 0.5
    /// Any other two consonants.
    package static let otherConsonant = 0.8
    /// A glide or liquid and the vowel it shades into: Y/IY, W/UW, R/ER.
    package static let glideVowel = 0.5
    /// A consonant for a vowel.
    package static let consonantVowel = 1.0
    /// Two different letters, or sounds of different kinds (phone, jamo, letter).
    package static let unrelated = 1.0

    // MARK: insertions and deletions
    /// A consonant lost or gained.
    package static let consonantIndel = 1.0
    /// A glide (W, Y) lost or gained: they blur into neighbouring vowels ("delia" D IY L Y AH).
    package static let glideIndel = 0.7
    /// A full vowel lost or gained.
    package static let fullVowelIndel = 0.7
    /// A reduced vowel (AH, IH, UH; ㅡ) lost or gained: schwas drop out easily.
    package static let reducedVowelIndel = 0.5
    /// A breath (HH, ㅎ) lost or gained: "hey" is often written "a".
    package static let breathIndel = 0.4
    /// A letter of another script lost or gained.
    package static let letterIndel = 1.0
    /// A sound right after the same sound, lost or gained: the two D of "cord
    /// delia" or the ㄹㄹ of 델리 are said as one long sound, so spelling it
    /// once or twice is nearly the same thing (applied by `PhoneticMatcher`).
    package static let repeatedIndel = 0.3
}
