import CPocketSphinx
import EarsCore
import Foundation
import EarsPhonetics

/// The second look at a wake candidate, with PocketSphinx on its own decoder
/// (the spotter's decoder is busy streaming). For a candidate window it runs
/// three short searches over the same frames:
/// - a free phone loop (context-independent phones, the phone bigram that
///   ships with the model): what the audio sounds like with no phrase in mind;
/// - the phrase alone, with optional silence around it (a forced alignment);
/// - the phrase's sound-alikes as alternatives (when it has any);
/// - the language model (no phrase boost: a boost would write the phrase
///   into the transcript whatever was said), whose transcript of the window
///   is scored against the phrase by `textScore` (the phonetic matcher) and
///   then dropped: only the number leaves this class.
/// `VerifierCalibration` turns the scores into one number.
///
/// The acoustic model is loaded a second time (PocketSphinx 5prealpha
/// cannot share one between decoders), on a decoder that knows only the
/// phrases' and sound-alikes' words (`DictionaryExcerpt`, every
/// pronunciation); the language model and the whole dictionary sit on a
/// third decoder loaded only while candidates need transcripts
/// (`VerifierTranscript`). docs/operations.md gives the memory.
/// Used from one thread.
package final class PocketSphinxVerifier: WakeVerifier {
    /// Shortest window measured (0.1 s); a shorter one counts as no evidence at all.
    package static let shortestWindowSamples = 1600
    /// Average seconds per phone used for the expected phrase duration.
    package static let secondsPerPhone = 0.08

    private let engine: PocketSphinxDecoder
    /// The channel estimate as loaded: every search of every window starts
    /// from it (and from a fresh front-end noise estimate), so a candidate's
    /// scores do not depend on the candidates before it (the same file scans
    /// the same alone or after others).
    private let loadedAdaptation: Adaptation
    /// Search names and phones per phrase (folded text as key).
    private let searches: [String: PhraseSearch]
    private static let naturalLogPerUnit = log(1.0001)
    /// Scores a phrase in a transcript, 0…1.
    private let textScore: (String, String) -> Double
    /// The language-model search, in memory only while it is used.
    let transcript: VerifierTranscript
    private let monotonicSeconds: () -> Double

    private struct PhraseSearch {
        /// The phrase's words, as the grammars hold them.
        var words: String
        var phraseSearch: String
        var competitorSearch: String?
        /// The phrase and its sound-alikes as alternatives of one grammar:
        /// which of them the best path takes says which explains the window
        /// better (scores of separate searches are not comparable).
        var contestSearch: String?
        var phones: [String]
    }

    /// Loads the model with a phone-loop search and, for each phrase, a
    /// search for it and one for its `soundAlikes` (phrase text → alikes;
    /// alikes with unknown words are left out). Words the dictionary lacks
    /// are added with `fallback`'s phones. The transcript search loads at
    /// the first window that needs it and is freed after
    /// `transcriptIdleSeconds` without one (`releaseIdleMemory`), on the
    /// `monotonicSeconds` clock. Throws when the model cannot load.
    package init(model: PocketSphinxModel, phrases: [String], soundAlikes: [String: [String]],
                fallback: @escaping (String) -> [String]? = { _ in nil },
                transcriptIdleSeconds: Double = VerifierTranscript.defaultIdleSeconds,
                monotonicSeconds: @escaping () -> Double,
                textScore: @escaping (_ phrase: String, _ transcript: String) -> Double) throws(TranscriberError) {
        self.textScore = textScore
        self.monotonicSeconds = monotonicSeconds
        let phoneModel = (model.languageModel as NSString).deletingLastPathComponent + "/en-us-phone.lm.bin"
        guard FileManager.default.fileExists(atPath: phoneModel) else {
            throw .modelMissing(engine: "pocketsphinx", path: phoneModel, install: PocketSphinxModel.installHint)
        }
        guard FileManager.default.fileExists(atPath: model.languageModel) else {
            throw .modelMissing(engine: "pocketsphinx", path: model.languageModel, install: PocketSphinxModel.installHint)
        }
        let engine = try PocketSphinxDecoder(model: model, arguments: ["-allphone", phoneModel, "-allphone_ci", "yes"] + PocketSphinxTranscriber.defaultArguments,
                                             fullDictionary: false)
        // Every pronunciation the dictionary has for the phrases' and the
        // sound-alikes' words: what the whole dictionary gave these searches,
        // without the other 134,000 words.
        let dictionaryWords = Set((phrases + soundAlikes.values.flatMap { $0 }).flatMap(TextNormalizer.words))
        try engine.add(DictionaryExcerpt(path: model.dictionary, words: dictionaryWords, alternates: true))
        try engine.call("ps_set_search") { ps_set_search($0, "_default") }
        var searches: [String: PhraseSearch] = [:]
        for (index, phrase) in phrases.enumerated() {
            let words = TextNormalizer.words(phrase).joined(separator: " ")
            guard !words.isEmpty, searches[words] == nil, engine.ensureWords(of: words, fallback: fallback),
                  let phones = engine.phones(of: words) else { continue }
            let phraseName = "phrase\(index)"
            try engine.call("ps_set_jsgf_string") { ps_set_jsgf_string($0, phraseName, Self.grammar([words])) }
            let alikes = (soundAlikes[phrase] ?? []).map { TextNormalizer.words($0).joined(separator: " ") }
                .filter { !$0.isEmpty && $0 != words && engine.phones(of: $0) != nil && engine.phones(of: $0) != phones }
            var competitorName: String?
            var contestName: String?
            if !alikes.isEmpty {
                let name = "alikes\(index)", contest = "contest\(index)"
                try engine.call("ps_set_jsgf_string") { ps_set_jsgf_string($0, name, Self.grammar(alikes)) }
                try engine.call("ps_set_jsgf_string") { ps_set_jsgf_string($0, contest, Self.grammar([words] + alikes)) }
                competitorName = name
                contestName = contest
            }
            searches[words] = PhraseSearch(words: words, phraseSearch: phraseName, competitorSearch: competitorName,
                                           contestSearch: contestName, phones: phones)
        }
        transcript = VerifierTranscript(model: model, phraseWords: searches.keys.sorted(), fallback: fallback,
                                        idleSeconds: transcriptIdleSeconds)
        self.engine = engine
        self.searches = searches
        loadedAdaptation = Adaptation(of: engine.handle)
    }

    /// `decodeWhole` from the loaded channel estimate.
    private func decode(_ audio: [Int16], search: String) throws(TranscriberError) -> (text: String, score: Int32, frames: Int) {
        try engine.decodeWhole(audio, search: search, from: loadedAdaptation)
    }

    /// Frees the transcript search when no window has needed it for its
    /// idle time (`VerifierTranscript.releaseIfIdle`).
    package func releaseIdleMemory() -> Bool {
        transcript.releaseIfIdle(nowSeconds: monotonicSeconds())
    }

    /// A JSGF grammar accepting exactly one of `alternatives`.
    private static func grammar(_ alternatives: [String]) -> String {
        "#JSGF V1.0;\ngrammar wake;\npublic <wake> = " + alternatives.joined(separator: " | ") + ";\n"
    }

    package func measure(phrase: String, audio: [Int16], hopeless: ((Double) -> Bool)?,
                         decided: ((VerifierEvidence) -> Bool)?) -> VerifierEvidence? {
        let words = TextNormalizer.words(phrase).joined(separator: " ")
        guard let search = searches[words] else { return nil }
        guard audio.count >= Self.shortestWindowSamples else {
            // No window to measure (a candidate placed outside the ring):
            // the worst evidence, so it cannot wake unverified.
            return VerifierEvidence(frames: 1, phraseScore: -.infinity, loopScore: 0, competitorScore: nil, phoneMatch: 0,
                                    phraseSeconds: 0, expectedSeconds: Double(search.phones.count) * Self.secondsPerPhone)
        }
        do throws(TranscriberError) {
            let loop = try decode(audio, search: "_default")
            let heardPhones = loop.text.split(separator: " ").map(String.init).filter { PocketSphinxPhones.known.contains($0) }
            let phoneMatch = PhoneAlignment.match(expected: search.phones, heard: heardPhones)
            let expectedSeconds = Double(search.phones.count) * Self.secondsPerPhone
            // Most candidates in ordinary speech are ruled out by their
            // phones alone: the three searches and the transcript after
            // this one are then skipped (most of the acoustic route's CPU).
            if let hopeless, hopeless(phoneMatch) {
                return .unmeasured(frames: max(loop.frames, 1), loopScore: Double(loop.score) * Self.naturalLogPerUnit,
                                   phoneMatch: phoneMatch, expectedSeconds: expectedSeconds)
            }
            let alone = try decode(audio, search: search.phraseSearch)
            let phraseFrames = alone.text.isEmpty ? 0 : wordFrames()
            var competitor: Double?
            var competitorWins = false
            if let name = search.competitorSearch, let contest = search.contestSearch {
                let best = try decode(audio, search: name)
                competitor = best.text.isEmpty ? nil : Double(best.score) * Self.naturalLogPerUnit
                let winner = try decode(audio, search: contest)
                competitorWins = !winner.text.isEmpty && Self.words(of: winner.text) != search.words
            }
            var evidence = VerifierEvidence(
                frames: max(loop.frames, 1),
                phraseScore: alone.text.isEmpty ? -.infinity : Double(alone.score) * Self.naturalLogPerUnit,
                loopScore: Double(loop.score) * Self.naturalLogPerUnit,
                competitorScore: competitor,
                phoneMatch: phoneMatch,
                textMatch: nil,
                phraseSeconds: Double(phraseFrames) / 100,
                expectedSeconds: expectedSeconds,
                competitorWins: competitorWins)
            // The transcript costs most (~0.2 CPU s a window): skip it when
            // the rest already decides.
            if let decided, decided(evidence) { return evidence }
            let heard = try transcript.transcribe(audio, nowSeconds: monotonicSeconds())
            evidence.textMatch = textScore(phrase, heard)
            return evidence
        } catch {
            return nil
        }
    }

    /// The real words of a hypothesis (fillers and silence dropped), space-separated.
    private static func words(of hypothesis: String) -> String {
        hypothesis.split(separator: " ").filter { word in
            guard let first = word.first else { return false }
            return first != "<" && first != "[" && first != "+"
        }.joined(separator: " ")
    }

    /// Frames the last decode spent in real words (silence and fillers excluded).
    private func wordFrames() -> Int {
        var frames = 0
        var segment = ps_seg_iter(engine.handle)
        while let current = segment {
            if let word = ps_seg_word(current), let first = String(cString: word).first, first != "<", first != "[", first != "+" {
                var start: Int32 = 0, end: Int32 = 0
                ps_seg_frames(current, &start, &end)
                frames += Int(end - start + 1)
            }
            segment = ps_seg_next(current)
        }
        return frames
    }
}
