import EarsCore
import EarsPocketSphinx
import EarsVosk

/// Builds the configured transcriber. Loading can fail (a missing model); the
/// error's sentence is what `closed_why` shows.
public enum EngineFactory {
    /// The model name to show before the engine has loaded.
    public static func modelLabel(for config: EarsConfig) -> String {
        switch config.engine {
        case .pocketsphinx: return config.model ?? PocketSphinxModel.defaultDirectory
        case .vosk:
            return config.model
                ?? VoskModel.candidateDirectories(configured: nil).first(where: VoskModel.looksLikeModel)
                ?? "vosk model (not installed)"
        }
    }

    /// Fewest filler words the model must know before a grammar is used: with
    /// too few, Vosk snaps unrelated speech onto the phrase (the Korean model
    /// has no `[unk]` to absorb it).
    public static let minimumKnownFillers = 20

    /// The runtime grammar for Vosk, or nil for free decoding. With
    /// `[engine] vosk_grammar = on` (the default; see docs/performance.md) the
    /// grammar is the phrases repeated (raising their weight) plus filler words
    /// the model knows; a model that knows too few fillers decodes freely.
    static func voskGrammar(for config: EarsConfig, model: VoskModel) -> [String]? {
        guard config.voskGrammar else { return nil }
        let fillers = VoskTranscriber.koreanFillerWords.filter(model.knows)
        guard fillers.count >= minimumKnownFillers else { return nil }
        return VoskTranscriber.wakeGrammar(phrases: config.phrases.map(\.text), fillers: fillers)
    }

    /// Loads the engine named in `config`.
    public static func make(for config: EarsConfig) throws(TranscriberError) -> any Transcriber {
        switch config.engine {
        case .pocketsphinx:
            let model = try PocketSphinxModel.locate(in: config.model)
            return try PocketSphinxTranscriber(model: model, boostedPhrases: config.phrases.map(\.text),
                                               boostWeight: Float(config.phraseBoost))
        case .vosk:
            let model = try VoskModel.locate(config.model)
            return try VoskTranscriber(model: model, grammar: voskGrammar(for: config, model: model))
        }
    }
}
