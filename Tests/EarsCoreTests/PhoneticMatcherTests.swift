import Foundation
import Testing
@testable import EarsCore
@testable import EarsPhonetics

/// A few CMU dictionary lines, copied verbatim (alternates included), so the
/// matcher tests do not depend on a system file.
let tinyDictionary = """
    ;;; a slice of cmudict-en-us.dict
    a AH
    a(2) EY
    call K AO L
    cake K EY K
    card K AA R D
    cordelia K AO R D IY L IY AH
    cordial K AO R JH AH L
    dealer D IY L ER
    deli D EH L IY
    delia D IY L Y AH
    dinner D IH N ER
    eliot EH L IY AH T
    for F AO R
    for(2) F ER
    hey HH EY
    later L EY T ER
    lights L AY T S
    on AA N
    on(2) AO N
    or AO R
    or(2) ER
    record R AH K AO R D
    record(2) R EH K ER D
    the DH AH
    the(2) DH IY
    tonight T AH N AY T
    turn T ER N
    what's W AH T S
    what's(2) HH W AH T S
    """

/// Where PocketSphinx keeps its English dictionary on Debian.
let systemDictionaryPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

/// The system dictionary, loaded once for all tests (nil when not installed).
let systemDictionary: CMUDictionaryPronouncer? = CMUDictionaryPronouncer(path: systemDictionaryPath)

@Suite struct PhoneticMatcherTests {
    static let phrase = "hey cordelia"
    /// What engines wrote when someone said the phrase.
    static let soundAlikes = ["hey cordelia", "hey card eliot", "cake or deli on", "a record eliot"]
    /// Speech that is not the phrase, some of it deliberately close.
    static let unrelated = ["what's for dinner tonight", "turn on the lights", "call delia later", "a cordial dealer"]
    /// A suggested default: every sound-alike above it (lowest 0.81), every
    /// unrelated line below (highest 0.73, "call delia later").
    static let threshold = 0.77

    let matcher = PhoneticMatcher(pronouncer: CMUDictionaryPronouncer(text: tinyDictionary))

    @Test func soundAlikeTranscriptsScoreAboveTheThreshold() {
        for text in Self.soundAlikes {
            let score = matcher.score(of: Self.phrase, in: text)
            print("phonetic tiny-dict  \(String(format: "%.3f", score))  \(text)")
            #expect(score >= Self.threshold, "\(text): \(score)")
        }
    }

    @Test func unrelatedSpeechScoresClearlyLower() {
        let lowestSoundAlike = Self.soundAlikes.map { matcher.score(of: Self.phrase, in: $0) }.min() ?? 0
        for text in Self.unrelated {
            let score = matcher.score(of: Self.phrase, in: text)
            print("phonetic tiny-dict  \(String(format: "%.3f", score))  \(text)")
            #expect(score < Self.threshold, "\(text): \(score)")
            #expect(score < lowestSoundAlike - 0.05, "\(text): \(score) vs \(lowestSoundAlike)")
        }
    }

    @Test func theExactPhraseScoresOneAndSpansItsWords() throws {
        let text = matcher.spell("well hey cordelia what's for dinner")
        let match = try #require(matcher.bestMatch(of: matcher.spell(Self.phrase), in: text))
        #expect(match.score == 1)
        #expect(match.cost == 0)
        #expect(match.startWord == 1 && match.endWord == 2)
    }

    @Test func aMatchMustEndInTheNewestWords() throws {
        let phrase = matcher.spell(Self.phrase)
        let previous = matcher.spell("hey cordelia")
        let newest = matcher.spell("what's for dinner")
        let text = previous + newest
        // Borrowing the old phrase and ending on the AH of "what's" is not
        // enough: what is left is the weak match inside the new words alone.
        let stale = try #require(matcher.bestMatch(of: phrase, in: text, earliestEndWord: previous.wordCount))
        #expect(stale.score < Self.threshold)
        #expect(stale.startWord >= previous.wordCount)
        let loose = try #require(matcher.bestMatch(of: phrase, in: text, earliestEndWord: previous.wordCount,
                                                   minimumNewShare: 0))
        #expect(loose.endWord >= previous.wordCount)
        #expect(loose.newShare < PhoneticMatcher.defaultMinimumNewShare)
        print("phonetic stale      \(String(format: "%.3f", loose.score))  hey cordelia + what's for dinner (no share rule)")

        let split = matcher.spell("hey") + matcher.spell("cordelia")
        let joined = try #require(matcher.bestMatch(of: phrase, in: split, earliestEndWord: 1))
        #expect(joined.score == 1)
        #expect(joined.startWord == 0 && joined.endWord == 1)
        #expect(joined.newShare > 0.8)
    }

    @Test func noMatchWhenThereIsNothingNewOrNoPhrase() {
        let text = matcher.spell("hey cordelia")
        #expect(matcher.bestMatch(of: matcher.spell(Self.phrase), in: text, earliestEndWord: text.wordCount) == nil)
        #expect(matcher.bestMatch(of: SoundSequence(), in: text) == nil)
        #expect(matcher.bestMatch(of: text, in: SoundSequence()) == nil)
    }

    @Test func anUnderscoreCompoundSpellsLikeTwoWords() {
        #expect(TextNormalizer.fold("hey_cordelia") == "hey cordelia")
        #expect(matcher.spell("hey_cordelia") == matcher.spell("hey cordelia"))
        #expect(matcher.score(of: Self.phrase, in: "HEY_CORDELIA") == 1)
    }

    @Test func aSoundSaidTwiceAcrossAWordGapCountsAsOne() {
        // "cord delia" has two D where "cordelia" has one; speech has one long D.
        let score = matcher.score(of: Self.phrase, in: "hey cord delia")
        #expect(score >= Self.threshold)
        #expect(matcher.score(of: "코델리아 피파", in: "코데리아 피파") > 0.95)
    }

    @Test func anUnknownNameStillMatchesThroughLetterToSound() {
        let score = matcher.score(of: Self.phrase, in: "hey cordelio")
        print("phonetic tiny-dict  \(String(format: "%.3f", score))  hey cordelio (letter-to-sound)")
        #expect(score >= Self.threshold && score < 1)
    }

    // MARK: Hangul

    @Test func aKoreanPhraseInsideLongerSpeechScoresOne() {
        #expect(matcher.score(of: "코델리아 피파", in: "코델리아 피파") == 1)
        #expect(matcher.score(of: "코델리아 피파", in: "코델리아 피파 오늘") == 1)
    }

    @Test func aKoreanSoundAlikeScoresHighAndUnrelatedKoreanLow() {
        let near = matcher.score(of: "코델리아 피파", in: "코델리야 피바")
        let far = matcher.score(of: "코델리아 피파", in: "오늘 저녁 뭐 먹을까")
        print("phonetic hangul     \(String(format: "%.3f", near))  코델리야 피바")
        print("phonetic hangul     \(String(format: "%.3f", far))  오늘 저녁 뭐 먹을까")
        #expect(near >= 0.9 && near < 1)
        #expect(far < 0.5)
    }

    @Test func otherScriptsCompareLetterByLetter() {
        #expect(matcher.spell("привет").sounds.allSatisfy { $0.kind == .letter })
        #expect(matcher.score(of: "привет мир", in: "ну привет мир") == 1)
        #expect(matcher.score(of: "привет мир", in: "привет мор") < 1)
    }

    // MARK: costs

    @Test func closeSoundsCostLessThanFarOnes() throws {
        let costs = SoundCosts.standard
        func phone(_ name: String) throws -> Sound { try #require(Sound.phone(name)) }
        func jamo(_ letter: Character) throws -> Sound { try #require(Sound.jamo(letter)) }
        #expect(costs.substitution(try phone("AO"), try phone("AA")) == PhoneticCost.closeVowel)
        #expect(costs.substitution(try phone("P"), try phone("B")) == PhoneticCost.voicing)
        #expect(costs.substitution(try phone("L"), try phone("R")) == PhoneticCost.sameManner)
        #expect(costs.substitution(try phone("K"), try phone("IY")) == PhoneticCost.consonantVowel)
        #expect(costs.substitution(try phone("T"), try phone("D")) == costs.substitution(try phone("D"), try phone("T")))
        #expect(costs.indel(try phone("HH")) < costs.indel(try phone("AH")))
        #expect(costs.indel(try phone("AH")) < costs.indel(try phone("K")))
        #expect(costs.substitution(try jamo("ㄱ"), try jamo("ㅋ")) == PhoneticCost.voicing)
        #expect(costs.substitution(try jamo("ㄹ"), try jamo("ㄴ")) == PhoneticCost.sameManner)
        #expect(costs.substitution(try jamo("ㅏ"), try jamo("ㅑ")) == PhoneticCost.glideDifference)
        #expect(costs.substitution(try jamo("ㅐ"), try jamo("ㅔ")) == PhoneticCost.mergedVowel)
        #expect(costs.substitution(try jamo("ㅏ"), try phone("AA")) == PhoneticCost.unrelated)
        #expect(costs.substitution(.letter("ж"), .letter("ж")) == 0)
    }

    // MARK: the real dictionary

    @Test(.enabled(if: systemDictionary != nil, "PocketSphinx's dictionary is not installed"))
    func theSystemDictionaryGivesTheSameOrdering() throws {
        let dictionary = try #require(systemDictionary)
        let real = PhoneticMatcher(pronouncer: dictionary)
        let phrase = real.spell(Self.phrase)
        var lowestSoundAlike = 1.0
        for text in Self.soundAlikes {
            let score = real.bestMatch(of: phrase, in: real.spell(text))?.score ?? 0
            print("phonetic cmudict    \(String(format: "%.3f", score))  \(text)")
            #expect(score >= Self.threshold, "\(text): \(score)")
            lowestSoundAlike = min(lowestSoundAlike, score)
        }
        for text in Self.unrelated {
            let score = real.bestMatch(of: phrase, in: real.spell(text))?.score ?? 0
            print("phonetic cmudict    \(String(format: "%.3f", score))  \(text)")
            #expect(score < Self.threshold && score < lowestSoundAlike - 0.05, "\(text): \(score)")
        }
    }

    @Test(.enabled(if: systemDictionary != nil, "PocketSphinx's dictionary is not installed"))
    func inALongTextThePhraseIsFoundWhereItWasSaidAndNowhereElse() throws {
        let real = PhoneticMatcher(pronouncer: try #require(systemDictionary))
        let phrase = real.spell(Self.phrase)
        // About seven pieces of ordinary speech, the most a detector searches,
        // with the phrase said once after the fourth. (How long a match takes is
        // printed, not asserted: tests assert behaviour, not a shared core's speed.)
        let piece = "so what do you think we should have for dinner tonight then"
        let pieces = (0..<7).map { _ in real.spell(piece) }
        let plain = pieces.reduce(SoundSequence(), +)
        let said = pieces[0..<4].reduce(SoundSequence(), +) + phrase + pieces[4...].reduce(SoundSequence(), +)
        let clock = ContinuousClock()
        var found: PhoneticMatcher.Match?
        let elapsed = clock.measure { found = real.bestMatch(of: phrase, in: said, earliestEndWord: 0) }
        print("phonetic timing: \(phrase.count) × \(said.count) sounds, \(elapsed) per match (debug build)")
        let match = try #require(found)
        let before = pieces[0..<4].reduce(SoundSequence(), +)
        #expect(match.score == 1)
        #expect(match.startSymbol == before.count && match.endSymbol == before.count + phrase.count)
        let nearest = try #require(real.bestMatch(of: phrase, in: plain, earliestEndWord: 0))
        #expect(nearest.score < 0.8, "ordinary speech matched \(nearest.score)")
    }
}
