import CPocketSphinx
import EarsCore
import Foundation

/// The verifier's plain transcript of a candidate window: a decoder with the
/// model's whole dictionary and its language model, loaded when a candidate
/// first needs a transcript and freed again when none has for `idleSeconds`.
///
/// Why: this search is most of the verifier's memory — the 134,000-word
/// dictionary (~22 MB), the language model as read (~34 MB) and its search
/// tree (~32 MB), against ~4 MB for the acoustic model and the phone-loop,
/// phrase and sound-alike searches (measured with `ps_init` and
/// `ngram_model_read` in one process, RssAnon) — and the least used: the
/// judge asks for it only when the other measurements leave a candidate
/// undecided (`VerifierCalibration.decides`). Loaded at start it held a
/// daemon with one trained phrase at 146 MB while nothing was said
/// (docs/operations.md). A load takes ~0.5–0.9 s, paid by the first
/// undecided candidate after start or after a quiet spell.
///
/// Freed memory goes back to the system (`malloc_trim`): the dictionary
/// and the search are many small allocations that glibc would otherwise
/// keep in its arenas. The decoder starts every window from the channel
/// estimate it loaded with, so a reload gives the same transcript as the
/// first load. Used from one thread (the verifier's caller).
final class VerifierTranscript {
    /// Seconds without a transcript after which the decoder is freed: long
    /// enough that a conversation's undecided candidates share one load.
    static let defaultIdleSeconds = 300.0

    private let model: PocketSphinxModel
    /// The phrases' words (folded); those the language model lacks are added to it.
    private let phraseWords: [String]
    private let fallback: (String) -> [String]?
    private let idleSeconds: Double
    private var loaded: (engine: PocketSphinxDecoder, adaptation: Adaptation)?
    private var lastUseSeconds = -Double.infinity
    /// Times the decoder was loaded since this object was made (tests).
    private(set) var loads = 0

    /// Name of the language-model search on the decoder.
    private static let searchName = "transcript"

    /// A transcript search for `phraseWords` (each a phrase's folded words),
    /// not loaded yet. Words the dictionary lacks get `fallback`'s phones.
    init(model: PocketSphinxModel, phraseWords: [String], fallback: @escaping (String) -> [String]?,
         idleSeconds: Double = defaultIdleSeconds) {
        precondition(idleSeconds >= 0, "idle time is seconds and cannot be negative")
        self.model = model
        self.phraseWords = phraseWords
        self.fallback = fallback
        self.idleSeconds = idleSeconds
    }

    /// Whether the decoder is in memory.
    var isLoaded: Bool { loaded != nil }

    /// The transcript of `audio` (one utterance, from the loaded channel
    /// estimate), loading the decoder first if it is not in memory.
    /// `nowSeconds` (monotonic) marks it used.
    func transcribe(_ audio: [Int16], nowSeconds: Double) throws(TranscriberError) -> String {
        let current = try loadedDecoder()
        lastUseSeconds = nowSeconds
        return try current.engine.decodeWhole(audio, search: Self.searchName, from: current.adaptation).text
    }

    /// Frees the decoder when it is loaded and unused for `idleSeconds` at
    /// `nowSeconds` (monotonic), and hands the memory back to the system.
    /// Returns whether it freed it.
    func releaseIfIdle(nowSeconds: Double) -> Bool {
        guard loaded != nil, nowSeconds - lastUseSeconds >= idleSeconds else { return false }
        loaded = nil
        malloc_trim(0)
        return true
    }

    private func loadedDecoder() throws(TranscriberError) -> (engine: PocketSphinxDecoder, adaptation: Adaptation) {
        if let loaded { return loaded }
        let engine = try PocketSphinxDecoder(model: model, arguments: PocketSphinxTranscriber.defaultArguments)
        for words in phraseWords where !engine.ensureWords(of: words, fallback: fallback) {
            throw .engineFailed(engine: "pocketsphinx", detail: "no pronunciation for a word of \"\(words)\"")
        }
        try Self.loadLanguageModel(model.languageModel, into: engine, phraseWords: phraseWords)
        let made = (engine: engine, adaptation: Adaptation(of: engine.handle))
        loaded = made
        loads += 1
        return made
    }

    /// Adds the language-model search, with every phrase word the model
    /// lacks added at an ordinary (unboosted) weight so it can be heard at all.
    private static func loadLanguageModel(_ path: String, into engine: PocketSphinxDecoder, phraseWords: [String]) throws(TranscriberError) {
        guard let lm = ngram_model_read(ps_get_config(engine.handle), path, NGRAM_AUTO, ps_get_logmath(engine.handle)) else {
            throw .modelMissing(engine: "pocketsphinx", path: path, install: PocketSphinxModel.installHint)
        }
        defer { ngram_model_free(lm) }
        for words in phraseWords {
            for word in words.split(separator: " ").map(String.init) where ngram_wid(lm, word) == ngram_unknown_wid(lm) {
                ngram_model_add_word(lm, word, 1.0)
            }
        }
        try engine.call("ps_set_lm") { ps_set_lm($0, searchName, lm) }
    }
}
