import Testing
@testable import EarsCore
@testable import EarsPhonetics
@testable import EarsTraining

/// Voices as the catalog would list them on a machine with all three engines
/// (StressShiftTests plans with them too).
let englishVoices: [SynthVoice] =
    ["kal16", "awb", "rms", "slt"].map { SynthVoice(engine: .flite, name: $0, language: "en") }
    + ["kal_diphone", "ked_diphone"].map { SynthVoice(engine: .festival, name: $0, language: "en") }
    + ["en-us", "en-gb"].flatMap { name in
        ["m1", "m3", "f2", "f4", "klatt"].map { SynthVoice(engine: .espeak, name: name, variant: $0, language: "en") }
    }
private let koreanVoices = ["m1", "m2", "f1", "f2", "f3", "klatt"].map {
    SynthVoice(engine: .espeak, name: "ko", variant: $0, language: "ko")
}
private let alikes = ["hey cornelia", "hay cordell", "hey cornelia, nice to see you"].map {
    SoundAlike(text: $0, sounds: SoundSequence(), cost: 1, kind: $0.contains(",") ? .sentence : .neighbour)
}
private let fortunes = [
    "A journey of a thousand miles begins with a single step.\n\t\t-- Lao Tzu",
    "You will be hungry again in one hour.",
    "Hey cordelia is my favourite thing to say.",
    "ok",
]

private func plan(_ phrase: String = "hey cordelia", language: String = "en", seed: UInt64 = 42,
                  positives: Int = 200) throws -> TrainingPlan {
    try TrainingPlan(phrase: phrase, language: language, voices: englishVoices + koreanVoices,
                     soundAlikes: alikes, fortunes: fortunes, budget: TrainingBudget(positives: positives), seed: seed)
}

@Suite struct TrainingPlanTests {
    @Test("the same seed gives the same plan, another seed another")
    func deterministic() throws {
        let first = try plan(seed: 7), second = try plan(seed: 7), other = try plan(seed: 8)
        #expect(first == second)
        #expect(first.clips != other.clips)
    }

    @Test("held-out speakers never appear in train or validation, and festival is held out whole")
    func heldOutNeverTrained() throws {
        for seed in [UInt64(1), 2, 3] {
            let plan = try plan(seed: seed)
            #expect(plan.heldOutEngines == [.festival])
            let heldOut = Set(plan.clips.filter { $0.split == .heldOut }.compactMap { $0.voice?.speakerID })
            let trained = Set(plan.clips.filter { $0.split != .heldOut }.compactMap { $0.voice?.speakerID })
            #expect(!heldOut.isEmpty)
            #expect(heldOut.isDisjoint(with: trained))
            #expect(!plan.clips.contains { $0.split != .heldOut && $0.voice?.engine == .festival })
            let validation = Set(plan.clips.filter { $0.split == .validation }.compactMap { $0.voice?.speakerID })
            let train = Set(plan.clips.filter { $0.split == .train }.compactMap { $0.voice?.speakerID })
            #expect(validation.isDisjoint(with: train))
        }
    }

    @Test("speakers of other languages read about a third of the trained-on other speech, none of the held-out split, and never the phrase")
    func otherLanguagesReadOtherSpeech() throws {
        let czech = ["czech_dita", "czech_machac"].map { SynthVoice(engine: .festival, name: $0, language: "cs") }
        let plan = try TrainingPlan(phrase: "hey cordelia", language: "en", voices: englishVoices, otherLanguageVoices: czech,
                                    soundAlikes: alikes, fortunes: fortunes, budget: TrainingBudget(positives: 400), seed: 3)
        let other = plan.clips.filter { $0.role == .negative(.otherSpeech) && $0.split != .heldOut && !$0.minedOnly }
        let foreign = other.filter { $0.voice?.language == "cs" }
        let share = Double(foreign.count) / Double(other.count)
        #expect(share > 0.2 && share < 0.45, "share \(share)")
        #expect(Set(foreign.compactMap { $0.voice?.name }) == ["czech_dita", "czech_machac"])
        #expect(!plan.clips.contains { $0.voice?.language == "cs" && ($0.role != .negative(.otherSpeech) || $0.split == .heldOut) })
        // Without other-language voices the plan is what it was.
        let plain = try TrainingPlan(phrase: "hey cordelia", language: "en", voices: englishVoices, soundAlikes: alikes,
                                     fortunes: fortunes, budget: TrainingBudget(positives: 400), seed: 3)
        #expect(!plain.clips.contains { ($0.voice?.language ?? "en") != "en" })
    }

    @Test("speech only mined and speech only for the threshold are other speech of the train and validation splits' speakers, after every other clip, and leave the rest of the plan as it was")
    func minedSpeechComesLastAndLeavesTheRest() throws {
        let czech = ["czech_dita", "czech_machac"].map { SynthVoice(engine: .festival, name: $0, language: "cs") }
        var budget = TrainingBudget(positives: 400)
        let with = try TrainingPlan(phrase: "hey cordelia", language: "en", voices: englishVoices, otherLanguageVoices: czech,
                                    soundAlikes: alikes, fortunes: fortunes, budget: budget, seed: 3)
        budget.minedSpeech = 0
        budget.thresholdSpeech = 0
        let without = try TrainingPlan(phrase: "hey cordelia", language: "en", voices: englishVoices, otherLanguageVoices: czech,
                                       soundAlikes: alikes, fortunes: fortunes, budget: budget, seed: 3)
        let unfitted = with.clips.filter(\.minedOnly)
        let mined = unfitted.filter { $0.split == .train }
        let forThreshold = unfitted.filter { $0.split == .validation }
        #expect(mined.count == TrainingBudget(positives: 400).minedSpeech)
        #expect(forThreshold.count == TrainingBudget(positives: 400).thresholdSpeech)
        #expect(mined.count + forThreshold.count == unfitted.count)
        #expect(Array(with.clips.prefix(without.clips.count)) == without.clips)
        #expect(Array(with.clips.dropFirst(without.clips.count)) == unfitted)
        func speakers(_ split: TrainingClip.Split) -> Set<String> {
            Set(without.clips.filter { $0.split == split }.compactMap { $0.voice?.speakerID })
        }
        #expect(unfitted.allSatisfy { $0.role == .negative(.otherSpeech) && $0.continuation.isEmpty })
        #expect(mined.allSatisfy { $0.voice?.language == "cs" || speakers(.train).contains($0.voice?.speakerID ?? "") })
        #expect(forThreshold.allSatisfy { $0.voice?.language == "cs" || speakers(.validation).contains($0.voice?.speakerID ?? "") })
        #expect(!forThreshold.contains { speakers(.heldOut).contains($0.voice?.speakerID ?? "") })
        #expect(mined.contains { $0.voice?.language == "cs" } && mined.contains { $0.voice?.language == "en" })
        #expect(!unfitted.contains { $0.text.lowercased().contains("hey cordelia") })
    }

    @Test("every role and split is present, in the budget's counts")
    func everyRolePresent() throws {
        let plan = try plan(positives: 200)
        let budget = TrainingBudget(positives: 200)
        func count(_ role: TrainingClip.Role) -> Int { plan.clips.filter { $0.role == role }.count }
        #expect(count(.positive) == budget.positives)
        #expect(count(.negative(.soundAlike)) == budget.soundAlikes)
        #expect(count(.negative(.phraseWordAlone)) == budget.wordsAlone)
        #expect(count(.negative(.phraseWordsInSentence)) == budget.wordsInSentences)
        #expect(count(.negative(.phraseStartGoesOn)) == budget.phraseStarts)
        #expect(plan.clips.filter { $0.role == .negative(.otherSpeech) && !$0.minedOnly }.count == budget.otherSpeech)
        #expect(plan.clips.filter { $0.minedOnly && $0.split == .train }.count == budget.minedSpeech)
        #expect(plan.clips.filter { $0.minedOnly && $0.split == .validation }.count == budget.thresholdSpeech)
        #expect(count(.negative(.noiseOnly)) == budget.noiseOnly)
        for split in TrainingClip.Split.allCases {
            #expect(plan.clips.contains { $0.split == split && $0.role == .positive })
        }
        #expect(plan.clips.map(\.index) == Array(plan.clips.indices))
    }

    @Test("texts: positives are the phrase, negatives never are, fortunes are cleaned")
    func texts() throws {
        let plan = try plan()
        let letters = { (text: String) in String(text.lowercased().filter { $0.isLetter || $0 == " " }) }
        for clip in plan.clips {
            switch clip.role {
            case .positive:
                #expect(letters(clip.text).split(separator: " ") == ["hey", "cordelia"], "\(clip.text)")
            case .negative(.noiseOnly):
                #expect(clip.text.isEmpty && clip.voice == nil && clip.noiseSeconds >= 1 && clip.augmentation.noise != nil)
            case .negative(.otherSpeech):
                #expect(!clip.text.contains("--") && !clip.text.lowercased().contains("cordelia") && clip.text != "ok")
                #expect(clip.voice?.language == "en")
            case .negative:
                #expect(letters(clip.text) != "hey cordelia")
            }
        }
        // Prosody varies: pauses and intonation marks appear among positives.
        let positives = Set(plan.clips.filter { $0.role == .positive }.map(\.text))
        #expect(positives.contains("hey, cordelia") && positives.contains("hey cordelia?"))
    }

    @Test("about half of the phrase's clips and its sound-alikes go on with a few fortune words after a short gap; other speech never does")
    func continuations() throws {
        let plan = try plan(positives: 400)
        let positives = plan.clips.filter { $0.role == .positive }
        let continued = positives.filter { !$0.continuation.isEmpty }
        let share = Double(continued.count) / Double(positives.count)
        #expect(abs(share - TrainingPlan.continuationShare) < 0.1, "\(continued.count) of \(positives.count)")
        for clip in continued {
            let words = clip.continuation.split(separator: " ").count
            #expect(TrainingPlan.continuationWords.contains(words) || words < TrainingPlan.continuationWords.lowerBound,
                    "\(clip.continuation)")
            #expect(TrainingPlan.continuationGapSeconds.contains(clip.augmentation.continuationGapSeconds))
            #expect(!clip.continuation.lowercased().contains("cordelia"))
        }
        #expect(plan.clips.contains { $0.role == .negative(.soundAlike) && !$0.continuation.isEmpty })
        #expect(!plan.clips.contains { $0.role == .negative(.otherSpeech) && !$0.continuation.isEmpty })
        #expect(!plan.clips.contains { $0.role == .negative(.noiseOnly) && !$0.continuation.isEmpty })
    }

    @Test("a Korean phrase is never followed by English words: without Korean sentences it is not followed at all")
    func koreanHasNoContinuation() throws {
        let plan = try plan("코델리아 피파", language: "ko")
        #expect(!plan.clips.contains { !$0.continuation.isEmpty })
    }

    @Test("a Korean phrase's other speech is mostly Korean sentences read by its own voices in every split, and its calls go on in Korean")
    func koreanOtherSpeechIsKorean() throws {
        let korean = ["오늘 시장에 갔어요.", "바람이 많이 불어요?", "책을 읽고 잤다.", "코델리아 피파 안녕."]
        let plan = try TrainingPlan(phrase: "코델리아 피파", language: "ko", voices: englishVoices + koreanVoices,
                                    soundAlikes: [], fortunes: fortunes, nativeSpeech: korean,
                                    budget: TrainingBudget(positives: 400), seed: 5)
        let other = plan.clips.filter { $0.role == .negative(.otherSpeech) && !$0.minedOnly }
        #expect(other.count == TrainingBudget(positives: 400).otherSpeech)
        let native = other.filter { $0.voice?.language == "ko" }
        let share = Double(native.count) / Double(other.count)
        #expect(abs(share - TrainingPlan.nativeSpeechShare) < 0.02, "share \(share)")
        #expect(native.allSatisfy { korean.dropLast().contains($0.text) }, "the sentence holding the phrase is never said")
        #expect(Set(native.map(\.split)) == Set(TrainingClip.Split.allCases))
        // The same speaker split as the phrase: a held-out speaker's Korean is held out too.
        let heldOut = Set(plan.clips.filter { $0.role == .positive && $0.split == .heldOut }.compactMap { $0.voice?.speakerID })
        #expect(native.allSatisfy { ($0.split == .heldOut) == heldOut.contains($0.voice!.speakerID) })
        #expect(other.filter { $0.voice?.language == "en" }.allSatisfy { !korean.contains($0.text) })
        let continued = plan.clips.filter { $0.role == .positive && !$0.continuation.isEmpty }
        #expect(!continued.isEmpty && continued.allSatisfy { $0.continuation.unicodeScalars.allSatisfy { !("a"..."z").contains($0) } })
        // An English plan ignores Korean sentences: it is the plan it was, clip for clip.
        let english = try TrainingPlan(phrase: "hey cordelia", language: "en", voices: englishVoices, soundAlikes: alikes,
                                       fortunes: fortunes, nativeSpeech: korean, budget: TrainingBudget(positives: 100), seed: 5)
        let without = try TrainingPlan(phrase: "hey cordelia", language: "en", voices: englishVoices, soundAlikes: alikes,
                                       fortunes: fortunes, budget: TrainingBudget(positives: 100), seed: 5)
        #expect(english == without)
    }

    @Test("a one-word phrase has no word-alone, word-in-sentence or phrase-start negatives (they would be the phrase)")
    func oneWordPhrase() throws {
        let plan = try plan("cordelia")
        #expect(!plan.clips.contains { $0.role == .negative(.phraseWordAlone) || $0.role == .negative(.phraseWordsInSentence)
            || $0.role == .negative(.phraseStartGoesOn) })
    }

    @Test("a phrase's start goes on into other speech and never into the phrase")
    func phraseStartGoesOn() throws {
        let letters = { (text: String) in text.lowercased().filter { $0.isLetter || $0 == " " }.split(separator: " ").map(String.init) }
        let starts = try plan(positives: 400).clips.filter { $0.role == .negative(.phraseStartGoesOn) }.map(\.text)
        #expect(starts.count == TrainingBudget(positives: 400).phraseStarts)
        for text in starts {
            let words = letters(text)
            #expect(words.first == "hey" && !words.contains("cordelia"), "\(text)")
            #expect(words.count >= 2 && words.count <= 1 + TrainingPlan.phraseStartOtherWords.upperBound, "\(text)")
        }
        // A longer phrase is cut after any of its first words: "hey" and "hey big" both go on.
        let longer = try plan("hey big cordelia", positives: 400).clips.filter { $0.role == .negative(.phraseStartGoesOn) }.map { letters($0.text) }
        #expect(longer.contains { $0.prefix(2) == ["hey", "big"] } && longer.contains { $0.count > 1 && $0[1] != "big" })
        // The word after the cut is never the phrase's next word, whatever the texts hold.
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<50 {
            let text = TrainingPlan.phraseStart(["hey", "cordelia"], goingOnWith: ["Cordelia wins", "the cat sat"], using: &generator)
            #expect(letters(text).count >= 2 && letters(text)[1] != "cordelia", "\(text)")
        }
    }

    @Test("a Korean plan speaks the phrase with espeak-ng ko voices and holds out some of them")
    func korean() throws {
        let plan = try plan("안녕 코델리아", language: "ko")
        let phraseClips = plan.clips.filter { $0.role != .negative(.otherSpeech) && $0.voice != nil }
        #expect(!phraseClips.isEmpty)
        #expect(phraseClips.allSatisfy { $0.voice?.engine == .espeak && $0.voice?.name == "ko" })
        #expect(plan.heldOutEngines.isEmpty)
        let heldOut = Set(phraseClips.filter { $0.split == .heldOut }.compactMap { $0.voice?.speakerID })
        let trained = Set(phraseClips.filter { $0.split != .heldOut }.compactMap { $0.voice?.speakerID })
        #expect(!heldOut.isEmpty && heldOut.isDisjoint(with: trained))
        let sentences = plan.clips.filter { $0.role == .negative(.phraseWordsInSentence) }.map(\.text)
        #expect(!sentences.isEmpty && sentences.allSatisfy { !$0.contains { ("a"..."z").contains($0) } }, "Korean carriers")
    }

    @Test("no voice for the language is an error that says what to install")
    func noVoices() {
        #expect(throws: TrainingPlanError.noVoices(language: "ko")) {
            try TrainingPlan(phrase: "안녕", language: "ko", voices: englishVoices, soundAlikes: [], fortunes: [],
                             budget: TrainingBudget(positives: 10), seed: 1)
        }
        #expect(TrainingPlanError.noVoices(language: "ko").sentence.contains("apt-get install espeak-ng"))
    }

    @Test("voice ids are stable strings; rates and pitches vary within the planner's ranges")
    func voiceIDs() throws {
        #expect(SynthVoice(engine: .flite, name: "kal16", language: "en").id == "flite:kal16")
        #expect(SynthVoice(engine: .espeak, name: "en-us", variant: "f2", language: "en", ratePercent: 110, pitch: 60).id
            == "espeak:en-us+f2:r110:p60")
        let voices = try plan().clips.compactMap(\.voice)
        #expect(Set(voices.map(\.ratePercent)).count > 3)
        #expect(voices.allSatisfy { TrainingPlan.ratePercents.contains($0.ratePercent) })
        #expect(voices.allSatisfy { ($0.pitch == nil) == ($0.engine != .espeak) })
    }

    @Test("the budget scales with minutes and keeps its ratios")
    func budget() {
        #expect(TrainingBudget.forMinutes(TrainingBudget.defaultMinutes).positives == TrainingBudget.defaultPositives)
        #expect(TrainingBudget.forMinutes(20).positives == 2 * TrainingBudget.defaultPositives)
        #expect(TrainingBudget.forMinutes(0).positives == 50)
        let budget = TrainingBudget(positives: 400)
        #expect(budget.soundAlikes == 400 && budget.otherSpeech == 200 && budget.noiseOnly == 60)
    }
}
