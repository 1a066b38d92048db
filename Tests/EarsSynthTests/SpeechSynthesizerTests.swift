import Synchronization
import EarsCore
import Foundation
import Testing
@testable import EarsSynth
import EarsTraining

/// Real synthesis with the installed engines (make setup installs flite,
/// festival with festvox-kallpc16k, espeak-ng and sox).
@Suite struct SpeechSynthesizerTests {
    private static let phrase = "hey cordelia"
    private static let voices = [
        SynthVoice(engine: .flite, name: "kal16", language: "en"),
        SynthVoice(engine: .espeak, name: "en-us", variant: "f2", language: "en", ratePercent: 110, pitch: 60),
        SynthVoice(engine: .festival, name: "kal_diphone", language: "en", ratePercent: 90),
        SynthVoice(engine: .flite, name: "kal", language: "en"), // 8 kHz: resampled by sox
        SynthVoice(engine: .espeak, name: "ko", variant: "m3", language: "ko"),
    ]

    @Test("each engine says a short phrase: 16 kHz, plausible length, not silent", arguments: voices)
    func says(voice: SynthVoice) throws {
        let synthesizer = try SpeechSynthesizer()
        let text = voice.language == "ko" ? "안녕 코델리아" : Self.phrase
        let samples = try synthesizer.say(text, voice: voice)
        let seconds = Double(samples.count) / Double(SpeechSynthesizer.sampleRate)
        #expect(seconds > 0.4 && seconds < 4, "\(voice.id): \(seconds) s")
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 1000, "\(voice.id) is nearly silent (peak \(peak))")
    }

    @Test("the rate setting changes the duration")
    func rate() throws {
        let synthesizer = try SpeechSynthesizer()
        for engine in [SynthVoice.Engine.flite, .espeak] {
            let base = SynthVoice(engine: engine, name: engine == .flite ? "slt" : "en-us", variant: engine == .espeak ? "m1" : nil, language: "en")
            let slow = try synthesizer.say(Self.phrase, voice: base.with(ratePercent: 80, pitch: nil)).count
            let fast = try synthesizer.say(Self.phrase, voice: base.with(ratePercent: 125, pitch: nil)).count
            #expect(Double(slow) > Double(fast) * 1.2, "\(engine): slow \(slow), fast \(fast)")
        }
    }

    @Test("the private temporary directory is 0700, left empty, and gone once the synthesizer is released")
    func temporaryDirectory() throws {
        var synthesizer: SpeechSynthesizer? = try SpeechSynthesizer()
        let directory = synthesizer!.temporaryDirectory
        let attributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        _ = try synthesizer!.say(Self.phrase, voice: SynthVoice(engine: .festival, name: "kal_diphone", language: "en"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        synthesizer = nil
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test("augmentation changes tempo and adds noise, deterministically")
    func augments() throws {
        let synthesizer = try SpeechSynthesizer()
        let dry = try synthesizer.say(Self.phrase, voice: SynthVoice(engine: .flite, name: "kal16", language: "en"))
        let augmenter = AudioAugmenter()
        let slower = Augmentation(tempo: 0.85, pitchCents: 200, reverbPercent: 30, gainDecibels: -3,
                                  noise: .pink, signalToNoiseDecibels: 10, noiseSeed: 4)
        let once = try augmenter.apply(slower, to: dry)
        let twice = try augmenter.apply(slower, to: dry)
        #expect(once == twice)
        #expect(Double(once.count) > Double(dry.count) * 1.1, "tempo 0.85 lengthens: \(dry.count) → \(once.count)")
        #expect(try augmenter.apply(.none, to: dry) == dry)
        // With a continuation: the speech's end is where the phrase stops, the rest follows after the gap.
        var going = slower
        going.leadSeconds = 1
        going.trailSeconds = 0.5
        going.continuationGapSeconds = 0.2
        let (alone, aloneEnd) = try augmenter.apply(going, to: dry, then: [])
        let (continued, end) = try augmenter.apply(going, to: dry, then: dry)
        #expect(end == aloneEnd && alone.count - aloneEnd == 8_000, "the phrase ends 0.5 s before a clip without continuation")
        #expect(continued.count > alone.count + 3_200 + Int(Double(dry.count) * 0.8), "\(alone.count) → \(continued.count)")
        let noiseOnly = augmenter.noiseOnly(seconds: 1.5, augmentation: Augmentation(noise: .brown, noiseSeed: 2))
        #expect(noiseOnly.count == 24000 && noiseOnly.contains { $0 != 0 })
    }

    @Test("festival says a batch in one run, the same audio as one by one, quotes and all")
    func festivalBatch() throws {
        let synthesizer = try SpeechSynthesizer()
        let kal = SynthVoice(engine: .festival, name: "kal_diphone", language: "en")
        let requests: [(text: String, voice: SynthVoice)] = [
            ("hey cordelia", kal), ("she said \"hi\" \\ then\nleft", kal.with(ratePercent: 120, pitch: nil)),
            ("hey cordelia", SynthVoice(engine: .flite, name: "slt", language: "en")), ("hey cordelia", kal),
        ]
        let batch = try synthesizer.say(requests)
        #expect(batch.count == 4 && batch.allSatisfy { $0.count > 8000 })
        #expect(batch[0] == batch[3])
        #expect(batch[0] == (try synthesizer.say("hey cordelia", voice: kal)))
        #expect(batch[1] == (try synthesizer.say("she said \"hi\" \\ then\nleft", voice: kal.with(ratePercent: 120, pitch: nil))))
        #expect(SpeechSynthesizer.schemeEscaped("a \"b\" \\ c\nd") == "a \\\"b\\\" \\\\ c d")
        #expect(try FileManager.default.contentsOfDirectory(atPath: synthesizer.temporaryDirectory).isEmpty)
    }

    @Test("a missing program is an error naming the Debian package")
    func missingTool() {
        let tool = Tool(command: "ears-no-such-synthesizer", package: "ears-no-such-package")
        #expect(throws: SynthError.toolMissing(command: "ears-no-such-synthesizer", package: "ears-no-such-package")) {
            try Subprocess.run(tool, [])
        }
        #expect(SynthError.toolMissing(command: "flite", package: "flite").sentence.contains("apt-get install flite"))
        #expect(throws: SynthError.self) { try Subprocess.run(.sox, ["--no-such-option"]) }
    }

    @Test("the catalog finds flite, festival and espeak-ng voices for English and espeak-ng for Korean")
    func catalog() {
        let catalog = VoiceCatalog()
        #expect(catalog.engines == [.flite, .festival, .espeak])
        #expect(catalog.voices(for: "en").contains(SynthVoice(engine: .flite, name: "kal16", language: "en")))
        #expect(catalog.voices(for: "en").contains(SynthVoice(engine: .festival, name: "kal_diphone", language: "en")))
        #expect(catalog.voices(for: "ko").contains { $0.engine == .espeak && $0.variant == "m3" })
        #expect(!catalog.voices.contains { $0.name == "awb_time" || ($0.variant ?? "").lowercased().hasPrefix("whisper") })
    }

    @Test("festival voices of other languages are found under their language, English ones under English")
    func festivalLanguages() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ears-festvox-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for path in ["czech/czech_dita/festvox", "english/kal_diphone/festvox", "finnish/suopuhe.common", "hindi/hi_nsk/festvox"] {
            try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
        }
        let found = VoiceCatalog.festivalVoices(root: root).sorted()
        #expect(found == [SynthVoice(engine: .festival, name: "czech_dita", language: "cs"),
                          SynthVoice(engine: .festival, name: "kal_diphone", language: "en")].sorted())
    }

    @Test("a text a speaker of another language cannot say becomes a moment of quiet, and the batch goes on")
    func otherLanguageFailure() throws {
        let italian = SynthVoice(engine: .festival, name: "lp_diphone", language: "it")
        let synthesizer = try SpeechSynthesizer()
        // festival's Italian voice fails on this fortune (found by running every fortune through it).
        let said = try synthesizer.say([("A day for firm decisions Or is it?", italian), ("Good morning to you all.", italian)])
        #expect(said[0].count == SpeechSynthesizer.sampleRate * SpeechSynthesizer.unsaidMilliseconds / 1000)
        #expect(said[0].allSatisfy { $0 == 0 })
        #expect(said[1].count > SpeechSynthesizer.sampleRate / 2 && said[1].contains { $0 != 0 })
    }

    @Test("babble is made from other speech of the trained-on splits, one clip per speaker")
    func babbleSources() throws {
        let voices = ["kal16", "awb"].map { SynthVoice(engine: .flite, name: $0, language: "en") }
            + [SynthVoice(engine: .festival, name: "kal_diphone", language: "en")]
        let czech = [SynthVoice(engine: .festival, name: "czech_dita", language: "cs")]
        let plan = try TrainingPlan(phrase: Self.phrase, language: "en", voices: voices, otherLanguageVoices: czech, soundAlikes: [],
                                    fortunes: ["The quick brown fox jumps over the lazy dog."],
                                    budget: TrainingBudget(positives: 200), seed: 5)
        let sources = CorpusSynthesizer.babbleSourceClips(plan.clips)
        let speakers = sources.compactMap { $0.voice?.speakerID }
        #expect(!sources.isEmpty && sources.count <= CorpusSynthesizer.babbleSources)
        #expect(Set(speakers).count == speakers.count)
        #expect(sources.allSatisfy { $0.role == .negative(.otherSpeech) && $0.split != .heldOut })
        #expect(speakers.contains("festival:czech_dita"))
        #expect(!speakers.contains("festival:kal_diphone"), "festival is held out: its voices are what the figures are about")
    }

    @Test("fortunes are read one by one from the fortune files")
    func fortunes() {
        let fortunes = FortuneReader.fortunes()
        #expect(fortunes.count > 100)
        #expect(!fortunes.contains { $0.contains("\n%\n") || $0.isEmpty })
        #expect(FortuneReader.fortunes(in: "/nonexistent").isEmpty)
    }

    @Test("a hunspell word list is read as bare words: the count line, affix flags, blanks and repeats dropped")
    func hunspellWords() throws {
        #expect(HunspellWordReader.words(fromDictionary: "5\n가감/10\n가감/25\n\n바람\n1루/25\n") == ["가감", "바람", "1루"])
        #expect(HunspellWordReader.words(in: "/nonexistent/ko.dic").isEmpty)
        // Debian's hunspell-ko, which make setup installs.
        let korean = HunspellWordReader.words(in: HunspellWordReader.koreanDictionary)
        #expect(korean.count > 50_000 && !korean.contains { $0.contains("/") })
        #expect(korean.contains("바람"), "composed syllables, as a person types them")
        #expect(KoreanSentenceMaker.vocabulary(korean, avoiding: "코델리아 피파").count > 20_000)
    }

    @Test("catalog parsing: MBROLA and novelty variants are left out")
    func parsing() {
        #expect(VoiceCatalog.parseFliteList("Voices available: kal awb_time kal16 \n").map(\.name) == ["kal", "kal16"])
        let languages = """
        Pty Language       Age/Gender VoiceName          File                 Other Languages
         2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
         5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)
         5  en-gb-x-rp      --/M      English_(Received_Pronunciation) gmw/en-GB-x-rp       (en-gb 4)(en 5)
        """
        #expect(VoiceCatalog.parseEspeakLanguages(languages, language: "en") == ["en-us", "en-gb-x-rp"])
        let variants = """
        Pty Language       Age/Gender VoiceName          File                 Other Languages
         5  variant         --/M      Adam               !v/adam
         5  variant         --/M      Mr_Serious         !v/Mr serious
         5  variant         --/F      female_whisper     !v/whisperf
         5  variant         --/M      male3              !v/m3
        """
        #expect(VoiceCatalog.parseEspeakVariants(variants) == ["adam", "m3"])
    }

    @Test("a plan's clips come back in plan order with progress, the same with 1 or 2 workers, and cancel stops")
    func corpus() throws {
        let voices = VoiceCatalog().voices
        let plan = try TrainingPlan(phrase: Self.phrase, language: "en", voices: voices, soundAlikes: [],
                                    fortunes: ["The quick brown fox jumps over the lazy dog."],
                                    budget: TrainingBudget(positives: 12), seed: 3)
        let synthesizer = try SpeechSynthesizer()
        let seen = Mutex<[Int]>([])
        let two = try CorpusSynthesizer(synthesizer: synthesizer, workers: 2)
            .synthesize(plan.clips, progress: { done, total in seen.withLock { $0.append(done) }; #expect(total == plan.clips.count) })
        let one = try CorpusSynthesizer(synthesizer: synthesizer, workers: 1).synthesize(plan.clips)
        let differing = plan.clips.indices.filter { two[$0] != one[$0] }.map { "\(plan.clips[$0].role.name) \(plan.clips[$0].voice?.id ?? "-")" }
        #expect(differing.isEmpty, "clips differ between 1 and 2 workers: \(differing)")
        #expect(two.count == plan.clips.count && two.allSatisfy { !$0.samples.isEmpty })
        // A clip with a continuation ends its own speech well before its audio does.
        for (clip, said) in zip(plan.clips, two) where !clip.continuation.isEmpty {
            let end = try #require(said.speechEndSample)
            let trail = Int(clip.augmentation.trailSeconds * 16_000)
            #expect(end < said.samples.count - trail - 1_600, "\(clip.text) + \(clip.continuation): ends at \(end) of \(said.samples.count)")
        }
        #expect(plan.clips.contains { !$0.continuation.isEmpty }, "the plan made no continuation to check")
        #expect(seen.withLock { $0 } == Array(1...plan.clips.count))
        #expect(throws: SynthError.cancelled) {
            try CorpusSynthesizer(synthesizer: synthesizer).synthesize(plan.clips, isCancelled: { true })
        }
    }

    @Test("espeak-ng gives a made-up word's phonemes, and says it with the stress moved: other audio, about as long")
    func stressShift() throws {
        let synthesizer = try SpeechSynthesizer()
        let voice = SynthVoice(engine: .espeak, name: "en-us", variant: "m3", language: "en")
        let phonemes = try #require(try synthesizer.espeakPhonemes(of: "nabu", voice: voice))
        #expect(phonemes.contains("'") && StressShift.nuclei(phonemes).count == 2, "\(phonemes)")
        #expect(try synthesizer.espeakPhonemes(of: "nabu", voice: SynthVoice(engine: .flite, name: "slt", language: "en")) == nil)
        let shift = StressShift(words: ["nabu"], pick: 0)
        let text = shift.apply(to: "okay nabu") { try? synthesizer.espeakPhonemes(of: $0, voice: voice) }
        #expect(text.hasPrefix("okay [[") && text.hasSuffix("]]"))
        let plain = try synthesizer.say("okay nabu", voice: voice)
        let shifted = try synthesizer.say(text, voice: voice)
        #expect(plain != shifted)
        let ratio = Double(shifted.count) / Double(plain.count)
        #expect(ratio > 0.7 && ratio < 1.4, "plain \(plain.count), shifted \(shifted.count) samples")
        let peak = shifted.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 1000)
    }
}
