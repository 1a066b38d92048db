import Testing
@testable import EarsCore
@testable import EarsPhonetics

@Suite struct SoundAlikeRankingTests {
    private func neighbour(_ text: String, cost: Double) -> SoundAlike {
        SoundAlike(text: text, sounds: SoundSequence(), cost: cost, kind: .neighbour)
    }

    /// log10 frequencies as a language model would give them.
    private let frequencies: [String: Double] = ["say": -2.9, "they": -2.2, "cornelia": -7.0, "schey": -8.2, "cordell": -7.5]

    @Test("common words come before rare ones of the same sound cost, and every word of the phrase is varied in turn")
    func commonFirstEveryWordInTurn() {
        let pool = [neighbour("schey cordelia", cost: 0.5), neighbour("say cordelia", cost: 0.6), neighbour("they cordelia", cost: 0.7),
                    neighbour("hey cornelia", cost: 1.0), neighbour("hey cordell", cost: 1.2),
                    SoundAlike(text: "hey", sounds: SoundSequence(), cost: 2, kind: .word)]
        let ranked = SoundAlikeRanking.rank(pool, of: "hey cordelia", count: 4) { frequencies[$0] }
        // The longest word ("cordelia") first, then "hey", alternating; within a word, the best score first.
        #expect(ranked.map(\.alike.text) == ["hey cornelia", "they cordelia", "hey cordell", "say cordelia"])
        #expect(ranked.map(\.position) == [1, 0, 1, 0])
        #expect(!ranked.contains { $0.alike.text == "schey cordelia" }, "the rare word falls off the end")
    }

    @Test("a word the language model does not know counts as rarer than any it knows, at a similar sound cost")
    func unknownWordsAreRare() {
        let pool = [neighbour("hey zzyzx", cost: 0.8), neighbour("hey cornelia", cost: 1.0)]
        let ranked = SoundAlikeRanking.rank(pool, of: "hey cordelia", count: 2) { frequencies[$0] }
        #expect(ranked.first?.alike.text == "hey cornelia")
        #expect(SoundAlikeRanking.sentences(ranked).first == "hey cornelia, nice to see you")
    }
}
