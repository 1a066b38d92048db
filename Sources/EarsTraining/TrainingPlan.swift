import Foundation // string trimming and replacing only
import EarsCore
import EarsPhonetics

/// The deterministic list of clips to synthesize for training a detector of
/// one phrase: positives in many voices, rates and pitches, and six kinds of
/// negative, each clip with an augmentation and a split. Pure: the caller
/// passes the installed voices, the sound-alikes and the fortune texts in.
///
/// Splits are made by speaker (`SynthVoice.speakerID`), never by clip:
/// - heldOut: every voice of one whole engine when the language has two or
///   more (festival first, then flite: the engine the detector never hears is
///   what the reported figures are about); with one engine (Korean:
///   espeak-ng only) a fifth of its speakers;
/// - validation: about a sixth of the remaining speakers (at least one),
///   watched for early stopping;
/// - train: the rest.
/// Each role's clips are split `heldOutFraction` / `validationFraction` /
/// rest, then each clip draws an engine of its split (uniformly, so a few
/// flite voices are not drowned by dozens of espeak-ng variants), a speaker
/// of that engine, a rate and a pitch.
///
/// A Korean phrase's other speech is mostly Korean (`nativeSpeech`, read
/// by its own voices in their splits); the rest is fortunes.
/// Fortunes are English, so they are spoken by English voices (for a
/// Korean phrase too: it is speech that is not the phrase either way), except
/// a share (`otherLanguageSpeechShare`) of the train and validation clips,
/// which speakers of other languages read (festival's Czech, Finnish,
/// Italian and Catalan voices: recorded people, read with their
/// own letter-to-sound rules, so foreign-sounding speech). The held-out
/// split keeps English voices only.
package struct TrainingPlan: Sendable, Equatable {
    /// Share of each role's clips in the held-out split.
    package static let heldOutFraction = 0.15
    /// Share of each role's clips in the validation split.
    package static let validationFraction = 0.1
    /// Speaking rates drawn, in percent of normal.
    package static let ratePercents = Array(stride(from: 80, through: 125, by: 5))
    /// espeak-ng pitches drawn (`-p`).
    package static let espeakPitches = Array(stride(from: 25, through: 75, by: 5))
    /// Noise-only clip lengths drawn, in seconds.
    package static let noiseSecondsRange: ClosedRange<Double> = 1...3
    /// Longest fortune used, in words: about 6 seconds of speech.
    package static let maximumFortuneWords = 18
    /// English sentences around one phrase word; `{}` stands for the word.
    package static let wordCarriers = ["did you see {} today", "{} is not here yet", "tell {} i said so",
                                      "i was talking about {}", "where is {}", "{}, come on"]
    /// Korean sentences around one phrase word (a Korean phrase is said by a
    /// Korean voice, so its carriers must be Korean too).
    package static let koreanWordCarriers = ["오늘 {} 봤어?", "{} 아직 안 왔어", "{}한테 말해 줘",
                                            "나는 {} 얘기를 했어", "{} 어디 있어?", "{}, 이리 와"]

    /// Share of the phrase's clips (and of its sound-alikes and words
    /// alone) said with a continuation: a person goes on talking right after
    /// the phrase ("hey jarvis, turn the lights on"), so the windows a head
    /// must wake on usually hold the next words' start, not quiet. Heads
    /// trained only on the phrase before quiet missed most calls followed by
    /// a command (docs/training.md).
    package static let continuationShare = 0.5
    /// Share of espeak-ng's positives of a phrase with a word the
    /// dictionary lacks said with that word's stress on another syllable
    /// (`StressShift`): the engines guess a made-up name's stress, people
    /// put it on either syllable.
    package static let stressShiftShare = 0.5
    /// How many `StressShift.pick` values a shifted clip draws from.
    package static let stressShiftPicks = 6
    /// Share of the other-speech clips in the train and validation splits
    /// said by a voice of another language, when any is installed.
    package static let otherLanguageSpeechShare = 1.0 / 3
    /// Share of the other-speech clips of a phrase in a language other than
    /// English that are sentences in that language (`nativeSpeech`), read by
    /// the phrase's own voices in every split; the rest stay fortunes.
    package static let nativeSpeechShare = 2.0 / 3
    /// Words of a fortune said as a continuation.
    package static let continuationWords: ClosedRange<Int> = 2...6
    /// Words of other speech said after the phrase's first words in a
    /// `phraseStartGoesOn` negative ("hey" + "your business will").
    package static let phraseStartOtherWords: ClosedRange<Int> = 1...4
    /// Quiet between the phrase and its continuation, in seconds.
    package static let continuationGapSeconds: ClosedRange<Double> = 0.05...0.4

    /// The phrase, folded (lowercase, single spaces).
    package let phrase: String
    /// "en" or "ko".
    package let language: String
    /// The seed everything was drawn from.
    package let seed: UInt64
    /// The clips, in synthesis order.
    package let clips: [TrainingClip]
    /// The engines whose voices are all held out (empty with one engine).
    package let heldOutEngines: [SynthVoice.Engine]
    /// Speaker IDs per split, sorted, for the phrase's language.
    package let speakers: [TrainingClip.Split: [String]]

    /// Makes the plan. `voices` are the installed voices (any languages: the
    /// phrase's language is picked out, English is used for fortunes);
    /// `otherLanguageVoices` read a share of the other speech (none: all
    /// English);
    /// `soundAlikes` come from `SoundAlikeGenerator` (its `.word` kind is
    /// ignored: words alone are made here); `fortunes` are raw fortune-file
    /// entries; `nativeSpeech` are sentences in the phrase's language when
    /// it is not English (`KoreanSentenceMaker`): they are `nativeSpeechShare`
    /// of the other speech and what the phrase's clips go on with.
    /// Throws when the language has no voice, or the phrase is empty.
    package init(phrase: String, language: String, voices: [SynthVoice], otherLanguageVoices: [SynthVoice] = [],
                soundAlikes: [SoundAlike], fortunes: [String], nativeSpeech: [String] = [], budget: TrainingBudget,
                seed: UInt64, unknownWords: [String] = []) throws(TrainingPlanError) {
        let words = phrase.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard !words.isEmpty else { throw .emptyPhrase }
        let own = Array(Set(voices.filter { $0.language == language })).sorted()
        guard !own.isEmpty else { throw .noVoices(language: language) }
        let english = Array(Set(voices.filter { $0.language == "en" })).sorted()
        let foreign = Array(Set(otherLanguageVoices.filter { $0.language != language && $0.language != "en" })).sorted()

        let folded = words.joined(separator: " ")
        self.phrase = folded
        self.language = language
        self.seed = seed
        var generator = SeededGenerator(seed: seed)
        let pools = VoicePools(own, using: &generator)
        heldOutEngines = pools.heldOutEngines
        speakers = pools.speakers
        // One partition per set of speakers: English fortunes in an English plan
        // must use the same split of speakers as the phrase clips.
        let fortunePools = english.isEmpty || language == "en" ? pools : VoicePools(english, using: &generator)

        let fortuneTexts = fortunes.compactMap(Self.cleanFortune).filter { !$0.lowercased().contains(folded) }
        let alikeTexts = soundAlikes.filter { $0.kind != .word }.map(\.text)
        let several = words.count > 1
        let carriers = language == "ko" ? Self.koreanWordCarriers : Self.wordCarriers
        let distinctWords = words.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }

        let nativeTexts = language == "en" ? [] : nativeSpeech.filter { !$0.lowercased().contains(folded) }
        // A phrase's own voices go on in its language: fortune words for
        // English, the native sentences otherwise (none: no continuation).
        let continuations = language == "en" ? fortuneTexts : nativeTexts

        var clips: [TrainingClip] = []
        // Only English: the stress marks are espeak-ng's English mnemonics.
        let shiftedWords = language == "en" ? unknownWords.map { $0.lowercased() }.filter(words.contains) : []
        func add(_ role: TrainingClip.Role, count: Int, pools: VoicePools, continues: Bool = false,
                 otherLanguages: [SynthVoice] = [], text: (inout SeededGenerator) -> String) {
            let splits = Self.splits(count: count, using: &generator)
            for split in splits {
                var clipGenerator = generator.child()
                var voice = pools.voice(in: split, using: &clipGenerator)
                if !otherLanguages.isEmpty, split != .heldOut, clipGenerator.unit() < Self.otherLanguageSpeechShare {
                    voice = clipGenerator.pick(otherLanguages).with(ratePercent: clipGenerator.pick(Self.ratePercents), pitch: nil)
                }
                let said = text(&clipGenerator)
                var augmentation = Augmentation.random(using: &clipGenerator, allowBabble: !english.isEmpty)
                var continuation = ""
                if continues, !continuations.isEmpty, clipGenerator.unit() < Self.continuationShare {
                    continuation = Self.continuation(of: clipGenerator.pick(continuations), using: &clipGenerator)
                    augmentation.continuationGapSeconds = (clipGenerator.double(in: Self.continuationGapSeconds) * 100).rounded() / 100
                }
                // Drawn last, from the clip's own generator, so a phrase without
                // such words gets the very plan it got before stress shifts.
                var stressShift: StressShift?
                if role.isPositive, !shiftedWords.isEmpty, voice.engine == .espeak,
                   clipGenerator.unit() < Self.stressShiftShare {
                    stressShift = StressShift(words: shiftedWords, pick: clipGenerator.index(below: Self.stressShiftPicks))
                }
                clips.append(TrainingClip(index: clips.count, role: role, text: said, voice: voice,
                                          augmentation: augmentation, split: split, continuation: continuation,
                                          stressShift: stressShift))
            }
        }
        add(.positive, count: budget.positives, pools: pools, continues: true) { Self.styled(words, using: &$0) }
        if !alikeTexts.isEmpty {
            add(.negative(.soundAlike), count: budget.soundAlikes, pools: pools, continues: true) { $0.pick(alikeTexts) }
        }
        if several {
            add(.negative(.phraseWordAlone), count: budget.wordsAlone, pools: pools, continues: true) {
                $0.pick(distinctWords) + $0.pick(["", ".", "!", "?"])
            }
            add(.negative(.phraseWordsInSentence), count: budget.wordsInSentences, pools: pools) {
                $0.pick(carriers).replacingOccurrences(of: "{}", with: $0.pick(distinctWords))
            }
        }
        if several, !continuations.isEmpty {
            add(.negative(.phraseStartGoesOn), count: budget.phraseStarts, pools: pools) {
                Self.phraseStart(words, goingOnWith: continuations, using: &$0)
            }
        }
        var fortuneCount = budget.otherSpeech
        if !nativeTexts.isEmpty {
            let nativeCount = fortuneTexts.isEmpty ? budget.otherSpeech
                : Int((Double(budget.otherSpeech) * Self.nativeSpeechShare).rounded())
            fortuneCount -= nativeCount
            add(.negative(.otherSpeech), count: nativeCount, pools: pools) { $0.pick(nativeTexts) }
        }
        if !fortuneTexts.isEmpty {
            add(.negative(.otherSpeech), count: fortuneCount, pools: fortunePools, otherLanguages: foreign) { $0.pick(fortuneTexts) }
        }
        for split in Self.splits(count: budget.noiseOnly, using: &generator) {
            var clipGenerator = generator.child()
            var augmentation = Augmentation.random(using: &clipGenerator, noiseChance: 1, allowBabble: !english.isEmpty)
            augmentation.tempo = 1
            augmentation.pitchCents = 0
            let seconds = (clipGenerator.double(in: Self.noiseSecondsRange) * 10).rounded() / 10
            clips.append(TrainingClip(index: clips.count, role: .negative(.noiseOnly), text: "", voice: nil,
                                      augmentation: augmentation, split: split, noiseSeconds: seconds))
        }
        clips += Self.minedSpeech(count: budget.minedSpeech, startIndex: clips.count, english: fortuneTexts, native: nativeTexts,
                                  pools: pools, fortunePools: fortunePools, otherLanguages: foreign, allowBabble: !english.isEmpty,
                                  split: .train, seed: seed)
        clips += Self.minedSpeech(count: budget.thresholdSpeech, startIndex: clips.count, english: fortuneTexts, native: nativeTexts,
                                  pools: pools, fortunePools: fortunePools, otherLanguages: foreign, allowBabble: !english.isEmpty,
                                  split: .validation, seed: seed)
        self.clips = clips
    }

    /// Fortunes no training round fits on (`TrainingClip.minedOnly`), read
    /// by `split`'s speakers (and speakers of other languages, at the other
    /// speech's share) with the other speech's texts and augmentation: the
    /// train split's only the mining step hears, the validation split's only
    /// the threshold's choice. Drawn from a generator of their own (one per
    /// split), after every other clip, so the rest of the plan is the same
    /// with or without them.
    static func minedSpeech(count: Int, startIndex: Int, english: [String], native: [String], pools: VoicePools,
                            fortunePools: VoicePools, otherLanguages: [SynthVoice], allowBabble: Bool,
                            split: TrainingClip.Split, seed: UInt64) -> [TrainingClip] {
        guard !english.isEmpty || !native.isEmpty else { return [] }
        let splitSalt: UInt64 = split == .train ? 0 : 0x9E37_79B9_7F4A_7C15
        var generator = SeededGenerator(seed: seed ^ 0x3C6E_F372_FE94_F82B ^ splitSalt)
        return (0..<count).map { offset in
            var clipGenerator = generator.child()
            // A non-English phrase's own language at the other speech's share.
            let isNative = !native.isEmpty && (english.isEmpty || clipGenerator.unit() < nativeSpeechShare)
            var voice = (isNative ? pools : fortunePools).voice(in: split, using: &clipGenerator)
            if !isNative, !otherLanguages.isEmpty, clipGenerator.unit() < otherLanguageSpeechShare {
                voice = clipGenerator.pick(otherLanguages).with(ratePercent: clipGenerator.pick(ratePercents), pitch: nil)
            }
            let text = clipGenerator.pick(isNative ? native : english)
            let augmentation = Augmentation.random(using: &clipGenerator, allowBabble: allowBabble)
            return TrainingClip(index: startIndex + offset, role: .negative(.otherSpeech), text: text, voice: voice,
                                augmentation: augmentation, split: split, minedOnly: true)
        }
    }

    /// The phrase said one of several ways: plain, as a statement, an
    /// exclamation or a question (intonation), or with a pause between words
    /// (a comma or an ellipsis), so the detector hears more than one prosody.
    static func styled(_ words: [String], using generator: inout SeededGenerator) -> String {
        let plain = words.joined(separator: " ")
        var styles = [plain, plain + ".", plain + "!", plain + "?"]
        if words.count > 1 {
            let cut = 1 + generator.index(below: words.count - 1)
            let head = words[..<cut].joined(separator: " "), tail = words[cut...].joined(separator: " ")
            styles += [head + ", " + tail, head + ", " + tail + "!", head + "... " + tail]
        }
        return generator.pick(styles)
    }

    /// The phrase's first words (all but at least its last) going on into
    /// `phraseStartOtherWords` words of other speech taken from a random
    /// place in one of `texts` ("hey, your business will"): a call's start
    /// that never becomes the call. The word after the phrase's first words
    /// is never the phrase's next word, so the phrase is never said.
    package static func phraseStart(_ words: [String], goingOnWith texts: [String], using generator: inout SeededGenerator) -> String {
        let cut = 1 + generator.index(below: max(1, words.count - 1))
        let lead = words[..<cut].joined(separator: " ")
        let next = cut < words.count ? words[cut] : ""
        let count = generator.int(in: Self.phraseStartOtherWords)
        var other: [Substring] = []
        for _ in 0..<8 {
            let textWords = generator.pick(texts).split(separator: " ")
            guard !textWords.isEmpty else { continue }
            let start = generator.index(below: textWords.count)
            let candidate = Array(textWords[start...].prefix(count))
            let first = candidate.first.map { $0.lowercased().filter { $0.isLetter } } ?? ""
            if !first.isEmpty, first != next { other = candidate; break }
        }
        if other.isEmpty { other = ["well"] }
        return lead + generator.pick([" ", ", "]) + other.joined(separator: " ")
    }

    /// The first few words (`continuationWords`) of a cleaned fortune, as
    /// the words that follow a phrase.
    static func continuation(of fortune: String, using generator: inout SeededGenerator) -> String {
        let words = fortune.split(separator: " ")
        let count = generator.int(in: Self.continuationWords)
        return words.prefix(count).joined(separator: " ")
    }

    /// A fortune as one line to say: attribution lines ("-- Someone") and
    /// blank space dropped, cut after the last sentence end within
    /// `maximumFortuneWords` words (or at that many words). Nil when nothing
    /// speakable is left.
    static func cleanFortune(_ raw: String) -> String? {
        let lines = raw.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("--") }
        let words = lines.joined(separator: " ").split(separator: " ").prefix(maximumFortuneWords)
        guard words.count >= 3 else { return nil }
        var cut = words.count
        if let end = words.lastIndex(where: { $0.hasSuffix(".") || $0.hasSuffix("!") || $0.hasSuffix("?") }), end >= 2 {
            cut = end + 1
        }
        let text = words.prefix(cut).joined(separator: " ")
        return text.contains(where: { $0.isLetter }) ? text : nil
    }

    /// Splits for `count` clips: the held-out and validation shares, the rest
    /// train, in a seeded order.
    static func splits(count: Int, using generator: inout SeededGenerator) -> [TrainingClip.Split] {
        let heldOut = Int((Double(count) * heldOutFraction).rounded())
        let validation = Int((Double(count) * validationFraction).rounded())
        var splits = [TrainingClip.Split](repeating: .heldOut, count: heldOut)
            + [TrainingClip.Split](repeating: .validation, count: validation)
            + [TrainingClip.Split](repeating: .train, count: max(0, count - heldOut - validation))
        VoicePools.shuffle(&splits, using: &generator)
        return splits
    }
}
