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
        case .vosk: return config.model ?? "vosk (not yet supported)"
        }
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
            return try VoskTranscriber(model: model)
        }
    }
}
