import Testing
@testable import EarsCore
@testable import EarsPhonetics

@Suite struct WakeDetectorTests {
    let phrase = WakePhrase(text: "hey cordelia")

    @Test func theExactPhraseInsideASentenceWakes() {
        var detector = WakeDetector(phrases: [phrase])
        let piece = volatile("hey cordelia what's for dinner", utterance: 1, at: 1.5)
        let wake = detector.consider(piece, recent: [piece])
        #expect(wake?.phrase == "hey cordelia")
        #expect(wake?.score == 1)
        #expect(wake?.audioSeconds == 1.5)
    }

    @Test func punctuationCaseAndSpacingDoNotMatter() {
        var detector = WakeDetector(phrases: [phrase])
        let piece = final("Hey, COR-delia!", utterance: 1, at: 1)
        #expect(detector.consider(piece, recent: [piece])?.score == 1)
    }

    @Test func aPhraseSplitAcrossTwoUtterancesStillWakes() {
        var detector = WakeDetector(phrases: [phrase])
        let first = final("hey", utterance: 1, at: 0.5)
        #expect(detector.consider(first, recent: [first]) == nil)
        let second = volatile("cordelia", utterance: 2, at: 1.2)
        #expect(detector.consider(second, recent: [first, second])?.utterance == 2)
    }

    @Test func speechWithoutThePhraseWakesNothing() {
        var detector = WakeDetector(phrases: [phrase])
        for (index, text) in ["what's for dinner tonight", "the weather is nice", "call delia later", "hey there"].enumerated() {
            let piece = final(text, utterance: index, at: Double(index * 5))
            #expect(detector.consider(piece, recent: [piece]) == nil, "\(text)")
        }
    }

    @Test func aNearSpellingScoresBelowOneButAboveAnUnrelatedOne() {
        let near = LetterMatcher.score(of: "hey cordelia", in: "hey cordelio")
        let far = LetterMatcher.score(of: "hey cordelia", in: "what is the time")
        #expect(near > 0.9 && near < 1)
        #expect(far < 0.5)
    }

    @Test func firesOncePerUtteranceEvenWhenTheVolatileTurnsFinal() {
        var detector = WakeDetector(phrases: [phrase], refractorySeconds: 0)
        let guess = volatile("hey cordelia", utterance: 3, at: 1.0)
        #expect(detector.consider(guess, recent: [guess]) != nil)
        let longerGuess = volatile("hey cordelia what", utterance: 3, at: 1.3)
        #expect(detector.consider(longerGuess, recent: [longerGuess]) == nil)
        let settled = final("hey cordelia what time", utterance: 3, at: 1.8)
        #expect(detector.consider(settled, recent: [settled]) == nil)
    }

    @Test func refractoryKeepsTheSamePhraseQuietForTwoSeconds() {
        var detector = WakeDetector(phrases: [phrase])
        let first = final("hey cordelia", utterance: 1, at: 1.0)
        #expect(detector.consider(first, recent: [first]) != nil)
        let soon = final("hey cordelia", utterance: 2, at: 2.5)
        #expect(detector.consider(soon, recent: [first, soon]) == nil)
        let later = final("hey cordelia", utterance: 3, at: 3.1)
        #expect(detector.consider(later, recent: [soon, later]) != nil)
    }

    @Test func oldWordsInAnEarlierFinalNeverFireAgain() {
        var detector = WakeDetector(phrases: [phrase], refractorySeconds: 0)
        let first = final("hey cordelia", utterance: 1, at: 1.0)
        #expect(detector.consider(first, recent: [first]) != nil)
        let next = final("what's for dinner", utterance: 2, at: 2.0)
        #expect(detector.consider(next, recent: [first, next]) == nil)
    }

    @Test func thresholdDecidesWhetherASoundAlikeWakes() {
        var strict = WakeDetector(phrases: [WakePhrase(text: "hey cordelia", threshold: 0.95)])
        var loose = WakeDetector(phrases: [WakePhrase(text: "hey cordelia", threshold: 0.7)])
        let piece = final("hey card eliot what's for dinner", utterance: 1, at: 2)
        #expect(strict.consider(piece, recent: [piece]) == nil)
        #expect(loose.consider(piece, recent: [piece]) != nil)
    }

    @Test func hangulPhrasesMatchAfterNormalization() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "코델리아 피파")])
        let piece = final("코델리아 피파 오늘 저녁 뭐 먹을까", utterance: 1, at: 2)
        #expect(detector.consider(piece, recent: [piece])?.score == 1)
    }

    @Test func theBestOfSeveralPhrasesWins() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia"), WakePhrase(text: "computer")])
        let piece = final("computer lights on", utterance: 1, at: 2)
        #expect(detector.consider(piece, recent: [piece])?.phrase == "computer")
    }

    @Test("phraseScores reports each phrase's score whatever the thresholds, refractory and fired utterances say")
    func phraseScoresIgnoreTheDecision() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia", threshold: 0.99), WakePhrase(text: "okay jarvis")])
        let piece = final("hey cordelio what's for dinner", utterance: 1, at: 1)
        let scores = detector.phraseScores(piece, recent: [piece])
        #expect(scores.count == 2)
        #expect(scores[0] > 0.8 && scores[0] < 0.99, "a near spelling under its threshold: \(scores[0])")
        #expect(scores[1] < 0.5, "\(scores[1])")
        #expect(detector.consider(piece, recent: [piece]) == nil, "under the threshold: no wake")
        let exact = final("hey cordelia", utterance: 2, at: 1.5)
        let split = final("cordelia", utterance: 3, at: 2)
        #expect(detector.phraseScores(exact, recent: [exact])[0] == 1)
        #expect(detector.phraseScores(split, recent: [final("hey", utterance: 2, at: 1.5), split])[0] == 1, "the final piece before lends its words")
        #expect(detector.phraseScores(final("", utterance: 4, at: 3), recent: []) == [0, 0])
    }
}

@Suite struct WakeDetectorAliasAndNearMissTests {
    @Test func anAliasWakesButTheWakeNamesThePhrase() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia", aliases: ["cordelia pippa"])])
        let piece = final("cordelia pippa lights on", utterance: 1, at: 2)
        let wake = detector.consider(piece, recent: [piece])
        #expect(wake?.phrase == "hey cordelia")
        #expect(wake?.score == 1)
    }

    @Test func eachPhraseKeepsItsOwnThreshold() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia", threshold: 0.95),
                                              WakePhrase(text: "lights on", threshold: 0.5)])
        let piece = final("hey cordelio lights on", utterance: 1, at: 2)
        #expect(detector.consider(piece, recent: [piece])?.phrase == "lights on")
    }

    @Test func aScoreJustUnderTheThresholdCountsOneNearMissPerUtterance() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia", threshold: 0.9)])
        // "hey cordelio" scores 10/11 = 0.909 ≥ 0.9: a wake; "hey card eliot" 0.73 is a near miss (≥ 0.75? no).
        let guess = volatile("hey cardelio", utterance: 1, at: 1) // 2 edits: 0.818, within 0.15 of 0.9
        #expect(detector.consider(guess, recent: [guess]) == nil)
        let settled = final("hey cardelio okay", utterance: 1, at: 1.5)
        #expect(detector.consider(settled, recent: [settled]) == nil)
        #expect(detector.nearMisses == 1)
        let unrelated = final("what's for dinner", utterance: 2, at: 3)
        #expect(detector.consider(unrelated, recent: [settled, unrelated]) == nil)
        #expect(detector.nearMisses == 1)
    }

    @Test func anUtteranceThatWakesAfterANearMissIsNotCountedAsAMiss() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia", threshold: 0.9)])
        let guess = volatile("hey cardelio", utterance: 1, at: 1)
        _ = detector.consider(guess, recent: [guess])
        #expect(detector.nearMisses == 1)
        let settled = final("hey cordelia", utterance: 1, at: 1.5)
        #expect(detector.consider(settled, recent: [settled]) != nil)
        #expect(detector.nearMisses == 0)
    }
}

@Suite struct TextNormalizerTests {
    @Test func foldingLowercasesAndStripsPunctuation() {
        #expect(TextNormalizer.fold("  Hey,   CORDELIA!! ") == "hey cordelia")
        #expect(TextNormalizer.fold("what's") == "whats")
    }

    @Test func compatibilityFormsFoldToTheirPlainLetters() {
        #expect(TextNormalizer.fold("ＨＥＹ ｃｏｒｄｅｌｉａ") == "hey cordelia")
    }
}

@Suite struct PhoneticWakeDetectorTests {
    private let pronouncer = PronouncerChain([CMUDictionaryPronouncer(text: """
    hey HH EY
    cordelia K AO R D IY L IY AH
    cake K EY K
    or AO R
    deli D EH L IY
    on AA N
    card K AA R D
    eliot EH L IY AH T
    what W AH T
    for F AO R
    dinner D IH N ER
    """), LetterToSoundPronouncer()])

    @Test func soundAlikeWordsWakeThePhoneticDetectorButNotTheLetterOne() {
        var phonetic = WakeDetector(phrases: [WakePhrase(text: "hey cordelia")], scoring: .phonetic(PhoneticScorer(pronouncer: pronouncer)))
        var letters = WakeDetector(phrases: [WakePhrase(text: "hey cordelia")])
        let piece = final("cake or deli on what for dinner", utterance: 1, at: 2)
        #expect(letters.consider(piece, recent: [piece]) == nil)
        let wake = phonetic.consider(piece, recent: [piece])
        #expect(wake?.phrase == "hey cordelia")
        #expect((wake?.score ?? 0) > 0.8 && (wake?.score ?? 1) < 1)
    }

    @Test func thePhoneticDetectorStillFiresOncePerUtterance() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia")], refractorySeconds: 0,
                                    scoring: .phonetic(PhoneticScorer(pronouncer: pronouncer)))
        let guess = volatile("hey card eliot", utterance: 1, at: 1)
        #expect(detector.consider(guess, recent: [guess]) != nil)
        let settled = final("hey card eliot what for dinner", utterance: 1, at: 2)
        #expect(detector.consider(settled, recent: [settled]) == nil)
        let next = final("what for dinner", utterance: 2, at: 3)
        #expect(detector.consider(next, recent: [settled, next]) == nil)
    }

    @Test func unrelatedSpeechDoesNotWakeThePhoneticDetector() {
        var detector = WakeDetector(phrases: [WakePhrase(text: "hey cordelia")], scoring: .phonetic(PhoneticScorer(pronouncer: pronouncer)))
        let piece = final("what for dinner", utterance: 1, at: 2)
        #expect(detector.consider(piece, recent: [piece]) == nil)
    }
}
