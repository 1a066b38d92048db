import Testing
@testable import EarsCore
@testable import EarsPhonetics

/// A few dozen words: neighbours of "hey cordelia" at known costs, homophones,
/// and entries the generator must skip.
private let smallDictionary = """
;;; near "cordelia"
cordelia K AO R D IY L IY AH
cardelia K AA R D IY L IY AH
cortelia K AO R T IY L IY AH
cordelio K AO R D IY L IY OW
cornelia K AO R N IY L Y AH
kordelia K AO R D IY L IY AH
cordelia(2) K AO R D IY L IY AA
cordelia's K AO R D IY L IY AH Z
cordelias2 K AO R D IY L IY AH S
cor-delia K AO R D IY L IY AH Z
cordless K AO R D L AH S
;;; near "hey"
hey HH EY
hay HH EY
say S EY
high HH AY
heyday HH EY D EY
ay EY
he HH IY
;;; far from both
dinner D IH N ER
table T EY B AH L
window W IH N D OW
morning M AO R N IH NG
juniper JH UW N AH P ER
jupiter JH UW P AH T ER
junior JH UW N Y ER
okay OW K EY
the DH AH
what W AH T
for F AO R
nice N AY S
to T UW
see S IY
you Y UW
did D IH D
ask AE S K
about AH B AW T
it IH T
i AY
think TH IH NG K
is IH Z
here HH IY R
"""

@Suite struct SoundAlikeGeneratorTests {
    private let generator = SoundAlikeGenerator(dictionary: CMUDictionaryPronouncer(text: smallDictionary))

    private func neighbours(of phrase: String, count: Int = SoundAlikeGenerator.defaultCount) -> [SoundAlike] {
        generator.soundAlikes(of: phrase, count: count).filter { $0.kind == .neighbour }
    }

    @Test("a word one close substitution away makes a neighbour at that substitution's cost")
    func findsTheOneSubstitutionNeighbour() throws {
        let cardelia = try #require(neighbours(of: "hey cordelia").first { $0.text == "hey cardelia" })
        #expect(cardelia.cost == PhoneticCost.closeVowel)
        #expect(cardelia.sounds.description == "HH EY | K AA R D IY L IY AH")
        let cornelia = try #require(neighbours(of: "hey cordelia").first { $0.text == "hey cornelia" })
        #expect(cornelia.cost == PhoneticCost.otherConsonant + PhoneticCost.glideVowel, "D→N and IY→Y: two edits")
    }

    @Test("neither the phrase nor a homophone is ever a sound-alike; homophones are listed apart")
    func neverThePhraseOrItsHomophones() {
        let texts = generator.soundAlikes(of: "hey cordelia").map(\.text)
        #expect(!texts.isEmpty)
        for same in ["hey cordelia", "hay cordelia", "hey kordelia"] {
            #expect(!texts.contains(same), "\(same) sounds exactly like the phrase")
        }
        #expect(generator.homophones(of: "hey cordelia") == ["hay cordelia", "hey kordelia"])
    }

    @Test("neighbours are listed cheapest first, ties in word order")
    func neighboursAreOrderedByCost() {
        let found = neighbours(of: "hey cordelia")
        let costs = found.map(\.cost)
        #expect(costs == costs.sorted())
        #expect(Set(costs).count > 2, "the small dictionary holds neighbours at several costs: \(costs)")
        #expect(found.prefix(2).map(\.text) == ["hey cardelia", "hey cortelia"], "both cost 0.3; a before o")
    }

    @Test("count caps the neighbours, and each word of the phrase gets its turn")
    func theCountIsRespected() {
        #expect(neighbours(of: "hey cordelia", count: 1).count == 1)
        let two = neighbours(of: "hey cordelia", count: 2).map(\.text)
        #expect(two.count == 2)
        #expect(two.contains { $0.hasPrefix("hey ") } && two.contains { $0.hasSuffix(" cordelia") },
                "one neighbour of each word, not the two cheapest of one: \(two)")
        let none = generator.soundAlikes(of: "hey cordelia", count: 0)
        #expect(none.allSatisfy { $0.kind == .word }, "count 0: only the words alone")
        #expect(neighbours(of: "hey cordelia", count: 1000).count < 1000)
    }

    @Test("the same words in another file order give the same list")
    func theOutputIsDeterministic() {
        let lines = smallDictionary.split(separator: "\n")
        let reversed = SoundAlikeGenerator(dictionary: CMUDictionaryPronouncer(text: lines.reversed().joined(separator: "\n")))
        let forward = generator.soundAlikes(of: "hey cordelia")
        #expect(forward == reversed.soundAlikes(of: "hey cordelia"))
        #expect(forward == generator.soundAlikes(of: "hey cordelia"))
    }

    @Test("each word of a several-word phrase is there alone; a one-word phrase is not repeated")
    func theWordsAloneArePresent() {
        let words = generator.soundAlikes(of: "Hey, Cordelia!").filter { $0.kind == .word }
        #expect(words.map(\.text) == ["hey", "cordelia"])
        #expect(words.last?.sounds.description == "K AO R D IY L IY AH")
        #expect(words.last?.cost == PhoneticCost.breathIndel + PhoneticCost.fullVowelIndel, "losing HH EY")
        #expect(generator.soundAlikes(of: "cordelia").allSatisfy { $0.kind != .word && $0.text != "cordelia" })
    }

    @Test("carrier sentences hold a neighbour of the longest word first")
    func sentencesCarryNeighbours() {
        let sentences = generator.soundAlikes(of: "hey cordelia").filter { $0.kind == .sentence }
        #expect(sentences.count == SoundAlikeGenerator.carriers.count)
        #expect(sentences.first?.text == "hey cardelia, nice to see you")
        #expect(sentences.first?.cost == PhoneticCost.closeVowel)
        #expect(sentences.allSatisfy { $0.sounds.wordCount > 2 })
    }

    @Test("apostrophes, digits, hyphens, alternates and one- or two-letter words are skipped")
    func uncommonLookingEntriesAreSkipped() {
        let texts = generator.soundAlikes(of: "hey cordelia", count: 1000).map(\.text)
        for skipped in ["hey cordelias", "hey cordelias2", "hey cor-delia", "ay cordelia", "he cordelia"] {
            #expect(!texts.contains(skipped), "\(skipped)")
        }
        #expect(texts.contains("say cordelia") && texts.contains("high cordelia"))
        #expect(!texts.contains("hey cordless"), "more than two edits away")
    }

    @Test("edit cost weighs close sounds less and gives up past two edits")
    func editCostWeighsAndLimits() throws {
        func sounds(_ text: String) throws -> [Sound] {
            try text.split(separator: " ").map { try #require(Sound.phone(String($0))) }
        }
        let cordelia = try sounds("K AO R D IY L IY AH")
        #expect(generator.editCost(from: cordelia, to: try sounds("K AO R T IY L IY AH")) == PhoneticCost.voicing)
        #expect(generator.editCost(from: cordelia, to: try sounds("K AO R K IY L IY AH")) == PhoneticCost.sameManner)
        #expect(generator.editCost(from: cordelia, to: try sounds("K AO R D IY L IY AH Z")) == PhoneticCost.consonantIndel)
        #expect(generator.editCost(from: cordelia, to: try sounds("K AO R D L AH S")) == nil, "three edits")
    }

    @Test("a Korean phrase gets only its words alone")
    func koreanGetsOnlyItsWords() {
        let found = generator.soundAlikes(of: "코델리아 피파")
        #expect(found.map(\.text) == ["코델리아", "피파"])
        #expect(found.allSatisfy { $0.kind == .word })
    }

    @Test("a pronouncer chain lists its dictionary's words for the generator")
    func aChainListsItsDictionary() {
        let chain = PronouncerChain([CMUDictionaryPronouncer(text: smallDictionary), LetterToSoundPronouncer()])
        let viaChain = SoundAlikeGenerator(dictionary: chain).soundAlikes(of: "hey cordelia")
        #expect(viaChain == generator.soundAlikes(of: "hey cordelia"))
        #expect(chain.entries(phoneCounts: 2...2).map(\.word).contains("hay"))
    }

    @Test("with the PocketSphinx dictionary: hey cornelia for hey cordelia, okay junior and okay jupiter for okay juniper",
          .enabled(if: systemDictionary != nil, "PocketSphinx's dictionary is not installed"))
    func theSystemDictionaryFindsTheKnownNeighbours() throws {
        let real = SoundAlikeGenerator(dictionary: try #require(systemDictionary))
        let clock = ContinuousClock()
        var cordelia: [String] = []
        let elapsed = clock.measure { cordelia = real.soundAlikes(of: "hey cordelia").map(\.text) }
        print("soundalikes \"hey cordelia\": \(cordelia.count) in \(elapsed) (debug build)")
        #expect(cordelia.contains("hey cornelia"))
        #expect(!cordelia.contains("hay cordelia"))
        #expect(real.homophones(of: "hey cordelia").contains("hay cordelia"))
        let juniper = real.soundAlikes(of: "okay juniper").map(\.text)
        #expect(juniper.contains("okay junior") && juniper.contains("okay jupiter"), "\(juniper)")
    }
}
