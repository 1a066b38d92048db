import Dispatch
import EarsCore
import EarsONNX
import EarsSynth
import Foundation
import Synchronization
import EarsPhonetics
import EarsNeural
import EarsTraining
import EarsEngines

/// The stages of one `ears train` run, in the order `run` calls them: the
/// plan, the synthesized audio, the front end's features, the training
/// windows and the heads.
extension PhraseTrainer {
    /// The plan for the installed (and chosen) voices.
    func makePlan(pronouncer: any Pronouncer) throws(Failure) -> TrainingPlan {
        let catalog = VoiceCatalog()
        var voices = catalog.voices(for: settings.language)
        if !settings.voices.isEmpty {
            voices = voices.filter { voice in settings.voices.contains { $0 == voice.engineName || voice.id.hasPrefix($0) } }
        }
        guard !voices.isEmpty else {
            throw .failed("no installed voice speaks \(settings.language)"
                + (settings.voices.isEmpty ? "; run make setup (flite, festival, espeak-ng)" : " among --voices \(settings.voices.joined(separator: ","))"))
        }
        let soundAlikes = settings.language == "en"
            ? DetectorFactory.distinct(DetectorFactory.soundAlikeGenerator(pronouncer: pronouncer)
                .soundAlikes(of: settings.phrase, count: Self.soundAlikeCount), of: settings.phrase) : []
        var budget = Self.budget(minutes: settings.minutes)
        // A few distinct sound-alikes said by every voice would outweigh the
        // phrase itself: at most `clipsPerSoundAlike` clips each.
        budget.soundAlikes = min(budget.soundAlikes, max(1, soundAlikes.count) * Self.clipsPerSoundAlike)
        if !Self.minedSpeechLanguages.contains(settings.language) { budget.minedSpeech = 0 }
        let nativeSpeech = try Self.nativeSpeech(phrase: settings.phrase, language: settings.language, seed: settings.seed)
        // A made-up name's stress is the engines' guess: espeak-ng's
        // positives vary it (`StressShift`).
        let unknownWords = settings.language == "en"
            ? StressShift.unknownWords(TextNormalizer.fold(settings.phrase).split(separator: " ").map(String.init), pronouncer: pronouncer)
            : []
        do throws(TrainingPlanError) {
            // Speakers of other languages read a share of the other speech
            // unless the voices were chosen by hand (`--voices`).
            let otherLanguages = settings.voices.isEmpty ? catalog.otherLanguageVoices : []
            return try TrainingPlan(phrase: settings.phrase, language: settings.language, voices: voices,
                                    otherLanguageVoices: otherLanguages, soundAlikes: soundAlikes,
                                    fortunes: FortuneReader.fortunes(), nativeSpeech: nativeSpeech, budget: budget,
                                    seed: settings.seed, unknownWords: unknownWords)
        } catch {
            throw .failed(error.sentence)
        }
    }

    /// Sentences in the phrase's language for its other speech: none for
    /// English (fortunes are English), `nativeSentenceCount` Korean ones
    /// from hunspell-ko's words for Korean. Throws, naming the package, when
    /// the word list is missing: a Korean head that never heard other Korean
    /// speech wakes on Korean conversation.
    static func nativeSpeech(phrase: String, language: String, seed: UInt64,
                             dictionary: String = HunspellWordReader.koreanDictionary) throws(Failure) -> [String] {
        guard language == "ko" else { return [] }
        let vocabulary = KoreanSentenceMaker.vocabulary(HunspellWordReader.words(in: dictionary), avoiding: phrase)
        guard !vocabulary.isEmpty else {
            throw .failed("a Korean phrase's other speech is made from the Korean word list \(dictionary), which is missing; "
                + "run \(HunspellWordReader.koreanInstallCommand)")
        }
        return KoreanSentenceMaker.sentences(from: vocabulary, avoiding: phrase, count: nativeSentenceCount, seed: seed)
    }

    /// Korean sentences made for a Korean phrase's other speech.
    static let nativeSentenceCount = 2_000

    /// Every clip with quiet before and after its speech (seeded per clip).
    static func withQuiet(_ clips: [TrainingClip], seed: UInt64) -> [TrainingClip] {
        var generator = SeededGenerator(seed: seed ^ 0x51_7CC1_B727_220A)
        return clips.map { clip in
            var clip = clip
            switch clip.role {
            case .negative(.noiseOnly): break
            case .positive, .negative(.soundAlike), .negative(.phraseWordAlone):
                clip.augmentation.leadSeconds = (generator.double(in: phraseLeadSeconds) * 100).rounded() / 100
                clip.augmentation.trailSeconds = trailSeconds
            case .negative(.otherSpeech), .negative(.phraseWordsInSentence), .negative(.phraseStartGoesOn):
                clip.augmentation.leadSeconds = speechLeadSeconds
                clip.augmentation.trailSeconds = trailSeconds
            }
            return clip
        }
    }

    /// The clips' audio with other speech joined into running speech
    /// (`NegativeStreams`), and where the speech of each clip with a
    /// continuation ends, by clip index (the others end `trailSeconds`
    /// before their audio does). Joined here, so the synthesized audio
    /// (hundreds of MB) is not kept alive beside its joined copy while the
    /// front end runs.
    func synthesizeJoined(_ clips: [TrainingClip]) throws(Failure)
        -> (streams: (clips: [TrainingClip], audio: [[Int16]]), continuedEnds: [Int: Int]) {
        let said = try synthesize(clips)
        var continuedEnds: [Int: Int] = [:]
        for (clip, result) in zip(clips, said) where !clip.continuation.isEmpty {
            continuedEnds[clip.index] = result.speechEndSample
        }
        return (NegativeStreams.join(clips, audio: said.map(\.samples), seed: settings.seed), continuedEnds)
    }

    /// The clips' audio, in plan order.
    func synthesize(_ clips: [TrainingClip]) throws(Failure) -> [CorpusSynthesizer.Clip] {
        do throws(SynthError) {
            let synthesizer = try SpeechSynthesizer()
            let corpus = CorpusSynthesizer(synthesizer: synthesizer)
            let audio = try corpus.synthesize(clips, progress: { [progress] done, total in progress(.synthesizing, done, total) },
                                              isCancelled: isCancelled)
            progress(.synthesizing, clips.count, clips.count)
            return audio
        } catch {
            if case .cancelled = error { throw .cancelled }
            throw .failed(error.sentence)
        }
    }

    /// The front end's version (what the model is tied to), checking it loads.
    func probeFrontEnd() throws(Failure) -> String {
        do throws(TranscriberError) {
            let suffix = Self.denoiseDecibels(language: settings.language) == nil ? "" : WakeModel.denoisedSuffix
            return try OpenWakeWordEmbedder.locate().frontEndVersion + suffix
        } catch {
            throw .failed(error.sentence)
        }
    }

    /// Every clip through the front end, on one thread per core (each with
    /// its own ONNX sessions); the audio is dropped clip by clip as it is heard.
    func listen(clips: [TrainingClip], audio: [[Int16]], continuedEnds: [Int: Int]) throws(Failure) -> [ClipFeatures] {
        let workers = CorpusSynthesizer.defaultWorkers
        let results = Mutex<[ClipFeatures?]>(Array(repeating: nil, count: clips.count))
        let failure = Mutex<String?>(nil)
        let done = Atomic<Int>(0)
        let total = clips.count
        let progress = self.progress, isCancelled = self.isCancelled
        let trail = Self.trailSeconds
        let decibels = Self.denoiseDecibels(language: settings.language)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let embedder: OpenWakeWordEmbedder
            let suppressor: (any NoiseSuppressor)?
            do throws(TranscriberError) {
                embedder = try OpenWakeWordEmbedder.locate()
                suppressor = try decibels.map { decibels throws(TranscriberError) in try EngineFactory.suppressor(decibels: decibels) }
            } catch {
                failure.withLock { $0 = $0 ?? error.sentence }
                return
            }
            for index in stride(from: worker, to: total, by: workers) {
                if isCancelled() || failure.withLock({ $0 != nil }) { return }
                let samples = audio[index]
                let clip = clips[index]
                do throws(TranscriberError) {
                    // Each clip is a stream of its own: the noise estimate starts afresh.
                    suppressor?.reset()
                    let embeddings = try embedder.embeddings(ofClip: suppressor?.denoise(samples) ?? samples)
                    let hasSpeech = clip.role != .negative(.noiseOnly) && clip.augmentation.trailSeconds > 0
                    let end = hasSpeech ? continuedEnds[clip.index] ?? samples.count - Int(trail * Double(AudioFormat.sampleRate)) : nil
                    let features = ClipFeatures(role: clip.role, split: clip.split, augmentation: clip.augmentation,
                                                embeddings: embeddings, speechEndSample: end,
                                                seconds: Double(samples.count) / Double(AudioFormat.sampleRate),
                                                minedOnly: clip.minedOnly)
                    results.withLock { $0[index] = features }
                } catch {
                    failure.withLock { $0 = $0 ?? error.sentence }
                    return
                }
                let finished = done.add(1, ordering: .relaxed).newValue
                progress(.listening, finished, total)
            }
        }
        if isCancelled() { throw .cancelled }
        if let sentence = failure.withLock({ $0 }) { throw .failed(sentence) }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// The labelled windows of `clips` (`TrainingWindows`).
    static func examples(_ clips: [ClipFeatures], labelling: TrainingWindows) -> [WakeExample] {
        var examples: [WakeExample] = []
        for clip in clips {
            let windows = labelling.windows(embeddingCount: clip.embeddings.count, positive: clip.role == .positive,
                                            speechEndSample: clip.speechEndSample)
            for window in windows {
                examples.append(WakeExample(window: labelling.input(clip.embeddings, lastEmbedding: window.lastEmbedding),
                                            label: window.label, weight: window.weight))
            }
        }
        return examples
    }

    /// One training round; throws when cancelled or when nothing was learned.
    func train(_ trainer: HeadTrainer, examples: [WakeExample], validation: [WakeExample],
                       round: Int, of rounds: Int) throws(Failure) -> WakeHead {
        let progress = self.progress
        let (head, report) = trainer.train(examples: examples, validation: validation, progress: { epoch, epochs, _, _ in
            // The first round, then mining, then the final round(s): stages in that order, so the bar only moves on.
            if round == 1 {
                progress(.training, epoch, epochs)
            } else {
                progress(.refining, (round - 2) * epochs + epoch, (rounds - 1) * epochs)
            }
        }, shouldStop: isCancelled)
        if report.ending == .cancelled || isCancelled() { throw .cancelled }
        guard report.bestEpoch > 0 else {
            throw .failed("training did not converge (\(report.ending.rawValue)); run ears train again with another --seed")
        }
        let best = report.best
        note("round \(round): best epoch \(report.bestEpoch) of \(report.epochs.count), \(report.positives) positive and "
            + "\(report.negatives) negative windows, average precision on validation voices "
            + (best?.averagePrecision.map { String(format: "%.3f", $0) } ?? "n/a"))
        return head
    }

    /// Whole seconds since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Int {
        Int((ContinuousClock.now - start).components.seconds)
    }

    /// "41 of 45 (91%)".
    static func describe(_ tally: TrainingEvaluation.Tally) -> String {
        "\(tally.hits) of \(tally.total)" + (tally.rate.map { " (\(Int(($0 * 100).rounded()))%)" } ?? "")
    }
}
