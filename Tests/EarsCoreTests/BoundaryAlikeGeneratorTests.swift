import Testing
@testable import EarsCore
@testable import EarsPhonetics

/// Words around "okay nabu" (N AA B UW): parts of it, words holding it, and
/// spellings of one sound.
private let boundaryDictionary = """
okay OW K EY
nabu N AA B UW
nah N AA
now N AW
knee N IY
ne N IY
me M IY
boo B UW
two T UW
do D UW
bee B IY
nabus N AA B UW Z
nabokov N AA B AH K AA F
enable IH N EY B AH L
unable AH N AA B AH L
nab N AE B
hey HH EY
"""

@Suite struct BoundaryAlikeGeneratorTests {
    private let generator = BoundaryAlikeGenerator(dictionary: CMUDictionaryPronouncer(text: boundaryDictionary))

    private func texts(_ alikes: [SoundAlike], _ kind: SoundAlike.Kind) -> [String] {
        alikes.filter { $0.kind == kind }.map(\.text)
    }

    @Test("the distinctive word is said as two other words, never as the phrase's own sounds nor a cheap vowel away")
    func resegmentsTheWordAwayFromThePhrase() {
        let alikes = generator.alikes(of: "okay nabu")
        let resegmented = alikes.filter { $0.kind == .resegmented }
        #expect(!resegmented.isEmpty)
        #expect(resegmented.allSatisfy { $0.text.hasPrefix("okay ") && $0.text.split(separator: " ").count == 3 })
        #expect(resegmented.allSatisfy { $0.cost >= BoundaryAlikeGenerator.minimumResegmentedCost })
        #expect(!texts(alikes, .resegmented).contains("okay nah boo"))
        #expect(!alikes.contains { $0.text.split(separator: " ").contains("nabu") })
    }

    @Test("a longer word holds the word's sounds with an edit, never exactly (the phrase followed by a sound)")
    func longerWordsHoldTheSoundsWithAnEdit() {
        let longer = texts(generator.alikes(of: "okay nabu"), .longerWord)
        #expect(longer.contains("okay nabokov"))
        #expect(longer.contains("okay unable"))
        #expect(!longer.contains("okay enable")) // two edits: a short word allows one
        #expect(!longer.contains("okay nabus"))
        #expect(!longer.contains { $0.hasSuffix(" nab") }) // shorter than the word: not a longer word
    }

    @Test("one spelling per sound, and the words a person says often come first")
    func oneSpellingEachCommonFirst() {
        let plain = texts(generator.alikes(of: "okay nabu"), .resegmented)
        #expect(!(plain.contains { $0.contains(" ne ") } && plain.contains { $0.contains(" knee ") }))
        let frequencies = ["me": -2.0, "two": -2.0, "knee": -6.0, "ne": -8.0, "bee": -5.0]
        let ranked = generator.alikes(of: "okay nabu") { frequencies[$0] }
        let resegmented = texts(ranked, .resegmented)
        #expect(resegmented.first == "okay me two")
        #expect(!resegmented.contains { $0.contains(" ne ") })
    }

    @Test("the count caps each kind, and the same phrase always gives the same list")
    func countAndDeterminism() {
        let one = generator.alikes(of: "okay nabu", count: 1)
        #expect(one.filter { $0.kind == .resegmented }.count == 1 && one.filter { $0.kind == .longerWord }.count == 1)
        #expect(generator.alikes(of: "okay nabu") == generator.alikes(of: "Okay, NABU"))
        #expect(generator.alikes(of: "okay nabu", count: 0).isEmpty)
    }

    @Test("a word too short to cut, or not spelled in English phones, gets none")
    func shortOrKoreanWordsGetNone() {
        #expect(generator.alikes(of: "hey").isEmpty)
        #expect(generator.alikes(of: "코델리아 피파").isEmpty)
    }

    @Test("the alignment counts edits inside a longer word with free ends, and whole words without")
    func alignment() {
        let phones = { (text: String) in text.split(separator: " ").compactMap { Sound.phone(String($0)) } }
        let inside = generator.align(phones("N AA B UW"), inside: phones("IH N AA B UW Z"), freeEnds: true)
        #expect(inside.edits == 0 && inside.cost == 0)
        let whole = generator.align(phones("N AA B UW"), inside: phones("IH N AA B UW Z"), freeEnds: false)
        #expect(whole.edits == 2 && whole.cost > 0)
        #expect(generator.align(phones("N AA"), inside: phones("N AW"), freeEnds: false).edits == 1)
    }
}
