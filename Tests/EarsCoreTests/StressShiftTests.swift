import Testing
@testable import EarsCore
@testable import EarsPhonetics
@testable import EarsTraining

private let fortunes = ["You will be hungry again in one hour.", "A journey of a thousand miles begins with a single step."]

private func plan(_ phrase: String, unknownWords: [String], seed: UInt64 = 5) throws -> TrainingPlan {
    try TrainingPlan(phrase: phrase, language: "en", voices: englishVoices, soundAlikes: [], fortunes: fortunes,
                     budget: TrainingBudget(positives: 400), seed: seed, unknownWords: unknownWords)
}

@Suite struct StressShiftTests {
    @Test("a two-syllable word's primary stress moves to the other syllable and the old one becomes secondary")
    func movesPrimaryStress() {
        #expect(StressShift.restressed("n'A:bu:", pick: 0) == "n,A:b'u:")
        #expect(StressShift.restressed("n'A:bu:", pick: 5) == "n,A:b'u:")
        #expect(StressShift.restressed("m'aIkr0ft", pick: 1) == "m,aIkr'0ft")
    }

    @Test("the pick chooses among the other syllables, and a secondary mark there gives way")
    func picksAmongOthers() {
        // Three syllables (O@, i:, I@), the second stressed: picks cycle over the first and the third.
        let word = "k,O@d'i:lI@"
        #expect(StressShift.nuclei(word).count == 3)
        #expect(StressShift.restressed(word, pick: 0) == "k'O@d,i:lI@")
        #expect(StressShift.restressed(word, pick: 1) == "k,O@d,i:l'I@")
        #expect(StressShift.restressed(word, pick: 2) == StressShift.restressed(word, pick: 0))
    }

    @Test("diphthongs and long vowels are one syllable each; a one-syllable or unmarked word is left as it is")
    func nucleiAndUnchanged() {
        #expect(StressShift.nuclei("oUk'eI").count == 2)
        #expect(StressShift.nuclei("h'eI").count == 1)
        #expect(StressShift.restressed("h'eI", pick: 2) == "h'eI")
        #expect(StressShift.restressed("nA:bu:", pick: 0) == "nA:bu:")
    }

    @Test("only the shifted words become espeak-ng phoneme input; punctuation and the other words stay")
    func appliesToText() {
        let shift = StressShift(words: ["nabu"], pick: 0)
        let text = shift.apply(to: "okay, Nabu!") { $0 == "nabu" ? "n'A:bu:" : nil }
        #expect(text == "okay, [[n,A:b'u:]]!")
        #expect(shift.apply(to: "okay nabu") { _ in nil } == "okay nabu")
    }

    @Test("a word counts as unknown when no dictionary in the chain has it, whatever letter-to-sound guesses")
    func unknownWords() {
        let dictionary = CMUDictionaryPronouncer(text: "okay OW K EY\nhey HH EY\n")
        let chain = PronouncerChain([dictionary, LetterToSoundPronouncer()])
        #expect(StressShift.unknownWords(["okay", "nabu", "nabu"], pronouncer: chain) == ["nabu"])
        #expect(StressShift.unknownWords(["hey"], pronouncer: LetterToSoundPronouncer()) == ["hey"])
    }

    @Test("about half of espeak-ng's positives shift an unknown word's stress; no other clip does")
    func planShiftsEspeakPositives() throws {
        let shifted = try plan("okay nabu", unknownWords: ["nabu"])
        let espeakPositives = shifted.clips.filter { $0.role.isPositive && $0.voice?.engine == .espeak }
        let withShift = espeakPositives.filter { $0.stressShift != nil }
        #expect(!espeakPositives.isEmpty)
        let share = Double(withShift.count) / Double(espeakPositives.count)
        #expect(share > 0.35 && share < 0.65, "\(withShift.count) of \(espeakPositives.count)")
        #expect(withShift.allSatisfy { $0.stressShift?.words == ["nabu"] })
        #expect(!shifted.clips.contains { $0.stressShift != nil && !($0.role.isPositive && $0.voice?.engine == .espeak) })
    }

    @Test("a phrase the dictionary knows gets the plan it got before stress shifts")
    func knownPhraseUnchanged() throws {
        let before = try plan("okay nabu", unknownWords: [])
        let shifted = try plan("okay nabu", unknownWords: ["nabu"])
        #expect(!before.clips.contains { $0.stressShift != nil })
        var cleared = shifted.clips
        for index in cleared.indices { cleared[index].stressShift = nil }
        #expect(cleared == before.clips)
    }
}
