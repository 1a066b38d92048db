import Testing
@testable import EarsCore
@testable import EarsPhonetics

@Suite struct PhoneticPronouncerTests {
    let tiny = CMUDictionaryPronouncer(text: tinyDictionary)
    let rules = LetterToSoundPronouncer()

    // MARK: CMU dictionary

    @Test func theDictionaryKnowsAWordAndKeepsItsFirstPronunciation() {
        #expect(tiny.phones(for: "cordelia") == ["K", "AO", "R", "D", "IY", "L", "IY", "AH"])
        #expect(tiny.phones(for: "a") == ["AH"])
        #expect(tiny.phones(for: "record") == ["R", "AH", "K", "AO", "R", "D"])
        #expect(tiny.wordCount == 22) // 29 lines, 7 of them alternates
    }

    @Test func lookupsIgnoreCaseAndApostrophes() {
        #expect(tiny.phones(for: "CorDelia") == tiny.phones(for: "cordelia"))
        #expect(tiny.phones(for: "whats") == ["W", "AH", "T", "S"])
        #expect(tiny.phones(for: "what's") == ["W", "AH", "T", "S"])
    }

    @Test func anUnknownWordIsNil() {
        #expect(tiny.phones(for: "zzyzxq") == nil)
        #expect(tiny.phones(for: "") == nil)
        #expect(tiny.phones(for: "코델리아") == nil)
    }

    @Test func stressDigitsCommentsAndBadLinesAreHandled() {
        let dictionary = CMUDictionaryPronouncer(text: """
            ;;; comment
            # another comment
            tomato  T AH0 M EY1 T OW2
            butter B AH1 DX ER0
            bottle B AA1 T EL0
            broken B R OW K QQQ
            we'll W IY L
            well W EH L

            """)
        #expect(dictionary.phones(for: "tomato") == ["T", "AH", "M", "EY", "T", "OW"])
        #expect(dictionary.phones(for: "butter") == ["B", "AH", "D", "ER"])
        #expect(dictionary.phones(for: "bottle") == ["B", "AA", "T", "AH", "L"])
        #expect(dictionary.phones(for: "broken") == nil)
        #expect(dictionary.skippedLines == 1)
        // Folding removes apostrophes, so "well" could be either: the plain word wins.
        #expect(dictionary.phones(for: "well") == ["W", "EH", "L"])
    }

    @Test(.enabled(if: systemDictionary != nil, "PocketSphinx's dictionary is not installed"))
    func theSystemDictionaryLoadsSmallAndKnowsCordelia() throws {
        let clock = ContinuousClock()
        var loaded: CMUDictionaryPronouncer?
        let elapsed = clock.measure { loaded = CMUDictionaryPronouncer(path: systemDictionaryPath) }
        let dictionary = try #require(loaded)
        print("cmudict: \(dictionary.wordCount) words, \(dictionary.storageBytes) bytes held, "
              + "\(dictionary.skippedLines) lines skipped, loaded in \(elapsed) (debug build)")
        #expect(dictionary.phones(for: "cordelia") == ["K", "AO", "R", "D", "IY", "L", "IY", "AH"])
        #expect(dictionary.phones(for: "hey") == ["HH", "EY"])
        #expect(dictionary.phones(for: "whats") == ["W", "AH", "T", "S"])
        #expect(dictionary.phones(for: "qzxvbnmlk") == nil)
        #expect(dictionary.wordCount > 120_000)
        #expect(dictionary.storageBytes < 3_000_000)
    }

    @Test func aMissingDictionaryFileIsNil() {
        #expect(CMUDictionaryPronouncer(path: "/nonexistent/cmudict.dict") == nil)
    }

    // MARK: letter-to-sound

    @Test func letterToSoundGuessesAnUnknownNameSanely() {
        #expect(rules.phones(for: "cordelio") == ["K", "AO", "R", "D", "IY", "L", "IY", "OW"])
        #expect(rules.phones(for: "cordelia") == ["K", "AO", "R", "D", "IY", "L", "IY", "AH"])
    }

    @Test func letterToSoundKnowsTheCommonSpellings() {
        let expected: [String: [String]] = [
            "hey": ["HH", "EY"], "cake": ["K", "EY", "K"], "card": ["K", "AA", "R", "D"],
            "ship": ["SH", "IH", "P"], "chat": ["CH", "AE", "T"], "thin": ["TH", "IH", "N"],
            "phone": ["F", "OW", "N"], "back": ["B", "AE", "K"], "sing": ["S", "IH", "NG"],
            "see": ["S", "IY"], "moon": ["M", "UW", "N"], "rain": ["R", "EY", "N"], "night": ["N", "AY", "T"],
            "taxi": ["T", "AE", "K", "S", "IY"], "gem": ["JH", "EH", "M"], "happy": ["HH", "AE", "P", "IY"],
            "my": ["M", "AY"], "knight": ["N", "AY", "T"], "table": ["T", "AE", "B", "AH", "L"],
            "called": ["K", "AO", "L", "D"], "nation": ["N", "EY", "SH", "AH", "N"],
        ]
        for (word, phones) in expected {
            #expect(rules.phones(for: word) == phones, "\(word)")
        }
    }

    @Test func letterToSoundReadsTheOpenAOfALoanWordAsAA() {
        // A word that ends in a sounded vowel is mostly a name or a loan
        // word, said with the a of "father": what flite, festival and
        // espeak-ng say for "nabu", and people for "okay nabu".
        #expect(rules.phones(for: "nabu") == ["N", "AA", "B", "UW"])
        #expect(rules.phones(for: "sakura") == ["S", "AA", "K", "UW", "R", "AH"])
        #expect(rules.phones(for: "lava") == ["L", "AA", "V", "AH"])
        // An English word's open a stays long.
        #expect(rules.phones(for: "nature") == ["N", "EY", "T", "UW", "R"])
        #expect(rules.phones(for: "baker") == ["B", "EY", "K", "ER"])
    }

    @Test func letterToSoundOnlyTakesLetters() {
        #expect(rules.phones(for: "") == nil)
        #expect(rules.phones(for: "r2d2") == nil)
        #expect(rules.phones(for: "café") == nil)
        #expect(rules.phones(for: "HEY") == ["HH", "EY"])
        for word in ["a", "e", "y", "h", "gh", "eye", "queue", "rhythm", "aaaa", "xx"] {
            #expect(rules.phones(for: word) != nil, "\(word)")
        }
    }

    @Test func everyLetterToSoundPhoneIsAnARPAbetPhone() {
        for word in ["cordelio", "xylophone", "squirrel", "through", "judge", "watched", "boxes", "yesterday"] {
            for phone in rules.phones(for: word) ?? [] {
                #expect(ARPAbet.index(of: phone) != nil, "\(word): \(phone)")
            }
        }
    }

    // MARK: Hangul

    @Test func aSyllableDecomposesIntoItsJamo() {
        #expect(Hangul.jamoLetters(of: "각") == ["ㄱ", "ㅏ", "ㄱ"])
        #expect(Hangul.jamoLetters(of: "아") == ["ㅇ", "ㅏ"])
        #expect(Hangul.jamoLetters(of: "닭") == ["ㄷ", "ㅏ", "ㄺ"])
        #expect(Hangul.jamoLetters(of: "a") == [])
        #expect(Hangul.tailTableIsInUnicodeOrder)
    }

    @Test func hangulIsSpelledAsItSounds() {
        let speller = PhoneticSpeller(pronouncer: tiny)
        func spelled(_ text: String) -> String { speller.spell(folded: text).description }
        #expect(spelled("각") == "ㄱ ㅏ ㄱ")
        #expect(spelled("코델리아") == "ㅋ ㅗ ㄷ ㅔ ㄹ ㄹ ㅣ ㅏ") // 델 ends in ㄹ, 리 starts with one; 아 is silent
        #expect(spelled("옷이") == "ㅗ ㅅ ㅣ") // a tail moves onto a following vowel
        #expect(spelled("낫 낮 낯") == "ㄴ ㅏ ㄷ | ㄴ ㅏ ㄷ | ㄴ ㅏ ㄷ") // and falls to ㄷ at a word's end
        #expect(spelled("좋아") == "ㅈ ㅗ ㅏ")
        #expect(spelled("강아지") == "ㄱ ㅏ ㅇ ㅏ ㅈ ㅣ")
    }

    @Test func compatibilityJamoFoldToSounds() {
        let matcher = PhoneticMatcher(pronouncer: tiny)
        #expect(matcher.spell("ㅋㅋ").description == "ㅋ ㅋ")
    }

    @Test func aSequenceCountsSilentWordsAndRenumbersWhenJoined() {
        var first = SoundSequence(words: [[Sound.phone("HH")!, Sound.phone("EY")!], []])
        #expect(first.wordCount == 2 && first.count == 2)
        first.append(contentsOf: SoundSequence(words: [[Sound.phone("K")!]]))
        #expect(first.wordIndex == [0, 0, 2])
        #expect(first.description == "HH EY |  | K")
    }
}
