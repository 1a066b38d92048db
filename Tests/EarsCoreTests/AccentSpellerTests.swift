import Testing
@testable import EarsPhonetics

/// Pronunciations as cmudict-en-us.dict has them (stress digits dropped).
private let accentDictionary = CMUDictionaryPronouncer(text: """
    hey HH EY
    jarvis JH AA R V IH S
    cordelia K AO R D IY L IY AH
    kick K IH K
    go G OW
    church CH ER CH
    dinner D IH N ER
    """)

@Suite struct AccentSpellerTests {
    let speller = AccentSpeller(pronouncer: accentDictionary)

    @Test("a Czech, a Finnish and an Italian speaker each read \"hey jarvis\" in their own spelling")
    func heyJarvis() {
        #expect(speller.spell("hey jarvis", language: "cs") == "hej džárvis")
        #expect(speller.spell("hey jarvis", language: "fi") == "hei dzaarvis")
        #expect(speller.spell("hey jarvis", language: "it") == "ei giarvis")
    }

    @Test("Italian c and g are hard or soft by the vowel after them, and h is never written")
    func italianHardAndSoft() {
        #expect(speller.spell("kick", language: "it") == "chic")
        #expect(speller.spell("go", language: "it") == "go")
        #expect(speller.spell("church", language: "it") == "cierc")
        #expect(speller.spell("hey", language: "it") == "ei")
    }

    @Test("Czech writes y after d, t and n, where i would soften them, and marks long vowels")
    func czechHardConsonants() {
        #expect(speller.spell("dinner", language: "cs") == "dyner")
        #expect(speller.spell("cordelia", language: "cs") == "kórdýlía")
    }

    @Test("a word's trailing punctuation is kept, so pauses and intonation survive")
    func punctuationKept() {
        #expect(speller.spell("hey, jarvis!", language: "fi") == "hei, dzaarvis!")
        #expect(speller.spell("Hey Jarvis?", language: "cs") == "hej džárvis?")
    }

    @Test("a word the dictionary lacks is guessed from its letters; digits, other languages and empty text give nil")
    func fallbackAndNil() {
        #expect(speller.spell("hey zorblat", language: "fi")?.hasPrefix("hei ") == true)
        #expect(speller.spell("hey 42", language: "cs") == nil)
        #expect(speller.spell("hey jarvis", language: "ca") == nil)
        #expect(speller.spell("hey jarvis", language: "en") == nil)
        #expect(speller.spell("  ", language: "it") == nil)
    }

    @Test("unknown phones are skipped and extensions are expanded")
    func phonesDirectly() {
        #expect(AccentSpeller.spell(phones: ["HH", "EY1", "XX"], language: "cs") == "hej")
        #expect(AccentSpeller.spell(phones: ["ax", "l", "eh1", "k", "s", "ax"], language: "fi") == "aleksa")
    }
}

@Suite struct AccentSpellerDictionaryTests {
    @Test("with the system dictionary every benchmark phrase is spelled in each language, without English letter clusters")
    func benchmarkPhrases() throws {
        let dictionary = try #require(systemDictionary)
        let speller = AccentSpeller(pronouncer: dictionary)
        for phrase in ["hey jarvis", "alexa", "hey mycroft", "okay nabu", "hey cordelia"] {
            for language in ["cs", "fi", "it"] {
                let spelled = try #require(speller.spell(phrase, language: language))
                print("\(language) \(phrase) → \(spelled)")
                #expect(!spelled.contains("th") && !spelled.contains("x") && !spelled.contains("w"), "\(spelled)")
            }
        }
    }
}
