import Testing
@testable import EarsCore
@testable import EarsPhonetics

/// Words around "hey jarvis" (JH AA R V IH S): halves of it at known
/// distances, a word two edits from a half, and neighbours three edits from it.
private let splitDictionary = """
hey HH EY
jarvis JH AA R V IH S
jar JH AA R
car K AA R
far F AA R
vis V IH S
voice V OY S
vice V AY S
his HH IH Z
cord K AO R D
travis T R AE V IH S
marvel M AA R V AH L
"""

@Suite struct SoundAlikeSplitterTests {
    private let generator = SoundAlikeGenerator(dictionary: CMUDictionaryPronouncer(text: splitDictionary))

    private func splits(of phrase: String, count: Int = SoundAlikeSplitter.defaultCount,
                        minimumCost: Double = 0, vocabulary: Set<String>? = nil) -> [SoundAlike] {
        SoundAlikeSplitter(generator: generator).splits(of: phrase, count: count, minimumCost: minimumCost, vocabulary: vocabulary)
    }

    @Test func aWordIsSaidAsTwoWordsWithinAnEditOfEachHalf() {
        let texts = splits(of: "hey jarvis").map(\.text)
        #expect(texts.contains("hey car vis"))
        #expect(texts.contains("hey jar voice"))
        // "his" (HH IH Z) is two edits from either tail (IH S, V IH S).
        #expect(!texts.contains("hey jar his"))
        #expect(splits(of: "hey jarvis").allSatisfy { $0.kind == .split })
    }

    @Test func theWordsPhonesExactlySplitAreNeverANegative() {
        // "jar vis" is JH AA R V IH S: acoustically the phrase itself.
        #expect(!splits(of: "hey jarvis").map(\.text).contains("hey jar vis"))
        #expect(splits(of: "hey jarvis").allSatisfy { $0.cost > 0 })
    }

    @Test func aWordTwoEditsFromEitherHalfIsNotUsed() {
        // "cord" is K AO R D: two edits from JH AA R, three from JH AA R V.
        #expect(!splits(of: "hey jarvis").contains { $0.text.split(separator: " ").contains("cord") })
    }

    @Test func splitsComeCheapestFirstAndTheSameEveryTime() {
        let first = splits(of: "hey jarvis")
        #expect(!first.isEmpty)
        #expect(first.map(\.cost) == first.map(\.cost).sorted())
        #expect(first == splits(of: "hey jarvis"))
    }

    @Test func aVocabularyKeepsOnlyItsWordsAsHalves() {
        let texts = splits(of: "hey jarvis", vocabulary: ["far", "vis", "voice"]).map(\.text)
        #expect(Set(texts) == ["hey far vis", "hey far voice"])
    }

    @Test func aMinimumCostLeavesTheClosestSplitsOut() {
        let all = splits(of: "hey jarvis")
        let costly = splits(of: "hey jarvis", minimumCost: all.map(\.cost).max() ?? 0)
        #expect(!costly.isEmpty)
        #expect(costly.count < all.count)
        #expect(costly.allSatisfy { $0.cost >= all.map(\.cost).max() ?? 0 })
    }

    @Test func noWordServesMoreThanItsShareOfSplits() {
        var uses: [String: Int] = [:]
        for alike in splits(of: "hey jarvis", count: 100) {
            for word in alike.text.split(separator: " ").dropFirst() { uses[String(word), default: 0] += 1 }
        }
        #expect(uses.values.allSatisfy { $0 <= SoundAlikeSplitter.usesPerWord })
        #expect(splits(of: "hey jarvis", count: 2).count == 2)
    }

    @Test func aPhraseOfShortWordsHasNoSplits() {
        // "hey" (HH EY) is shorter than two halves of two phones.
        #expect(splits(of: "hey").isEmpty)
        #expect(splits(of: "hey jarvis", count: 0).isEmpty)
    }

    @Test func aLongWordReachesThreeEditsOnlyWhenAsked() {
        let plain = generator.soundAlikes(of: "hey jarvis", count: 50).map(\.text)
        var wide = generator
        wide.longWordEdits = 3
        let reached = wide.soundAlikes(of: "hey jarvis", count: 50).map(\.text)
        // "travis" (T R AE V IH S) is three substitutions from JH AA R V IH S.
        #expect(!plain.contains("hey travis"))
        #expect(reached.contains("hey travis"))
        #expect(wide.edits(forPhones: SoundAlikeGenerator.longWordPhones) == 3)
        #expect(wide.edits(forPhones: 2) == SoundAlikeGenerator.maximumEdits)
        #expect(generator.edits(forPhones: 8) == SoundAlikeGenerator.maximumEdits)
    }
}
