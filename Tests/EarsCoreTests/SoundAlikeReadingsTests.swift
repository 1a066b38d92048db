import Testing
@testable import EarsCore
@testable import EarsPhonetics

/// Words near "okay nabu"; "nabu" itself is missing, so the generator spells
/// it by the letter-to-sound rules (N AA B UW) and reads it with its stress
/// unknown.
private let nearNabu = """
okay OW K EY
abou AH B UW
naba N AA B AH
nuhbu N AH B UW
"""

private func phones(_ text: String) throws -> [Sound] {
    try text.split(separator: " ").map { try #require(Sound.phone(String($0))) }
}

@Suite struct SoundAlikeReadingsTests {
    private let generator = SoundAlikeGenerator(dictionary: CMUDictionaryPronouncer(text: nearNabu))

    private func cost(of text: String, _ generator: SoundAlikeGenerator) throws -> Double {
        try #require(generator.soundAlikes(of: "okay nabu", count: 50).first { $0.kind == .neighbour && $0.text == text }).cost
    }

    @Test("a made-up word's neighbour is as close as the word's reading with a vowel reduced to a schwa")
    func aMadeUpWordIsReadWithAReducedVowel() throws {
        let rules = try phones("N AA B UW"), reduced = try phones("N AH B UW"), abou = try phones("AH B UW")
        let plain = try #require(generator.editCost(from: rules, to: abou))
        let closest = try #require(generator.editCost(from: reduced, to: abou))
        #expect(closest < plain)
        #expect(abs(try cost(of: "okay abou", generator) - closest) <= 0.001, "na-BOO less its N, not nah-boo less its N")
    }

    @Test("a word's final open vowel keeps its quality: nabu is never read nah-buh")
    func aFinalOpenVowelIsNotReduced() throws {
        let plain = try #require(generator.editCost(from: try phones("N AA B UW"), to: try phones("N AA B AH")))
        #expect(abs(try cost(of: "okay naba", generator) - plain) <= 0.001)
    }

    @Test("a dictionary word whose phones are a reduced reading is the phrase: a homophone, never a negative")
    func aReducedReadingsTwinIsAHomophone() {
        #expect(generator.homophones(of: "okay nabu") == ["okay nuhbu"])
        #expect(!generator.soundAlikes(of: "okay nabu", count: 50).map(\.text).contains("okay nuhbu"))
    }

    @Test("a word the dictionary knows is compared only as the dictionary says it")
    func aKnownWordHasOneReading() throws {
        let knowing = SoundAlikeGenerator(dictionary: CMUDictionaryPronouncer(text: nearNabu + "\nnabu N AA B UW"))
        let plain = try #require(knowing.editCost(from: try phones("N AA B UW"), to: try phones("AH B UW")))
        #expect(abs(try cost(of: "okay abou", knowing) - plain) <= 0.001)
        #expect(knowing.homophones(of: "okay nabu").isEmpty)
    }

    @Test("only a pronouncing dictionary knows a word: letter-to-sound guesses do not count, at any depth of a chain")
    func dictionaryKnowsOnlyDictionaryWords() {
        let dictionary = CMUDictionaryPronouncer(text: nearNabu)
        let rules = LetterToSoundPronouncer()
        let chain = PronouncerChain([PronouncerChain([dictionary]), rules])
        #expect(chain.dictionaryKnows("okay") && dictionary.dictionaryKnows("okay"))
        #expect(!chain.dictionaryKnows("nabu") && !rules.dictionaryKnows("okay"))
        #expect(rules.phones(for: "nabu") == ["N", "AA", "B", "UW"])
    }
}
