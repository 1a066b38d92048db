import CPocketSphinx
import EarsCore

/// How often English words are said, from the unigrams of PocketSphinx's
/// language model (`en-us.lm.bin`, memory-mapped by sphinxbase: loading it
/// takes a few hundredths of a second). Used to rank sound-alikes by how
/// likely a person is to say them (`SoundAlikeRanking`). The one owner of
/// the model and its log-math table, freed together.
package final class PocketSphinxLanguageModel {
    private let model: OpaquePointer
    private let logMath: OpaquePointer

    /// Reads the language model of `model`; throws `modelMissing` naming the
    /// file when sphinxbase cannot read it.
    package init(model: PocketSphinxModel) throws(TranscriberError) {
        err_set_logfp(nil)
        guard let logMath = logmath_init(1.0001, 0, 0) else {
            throw .engineFailed(engine: "pocketsphinx", detail: "no log-math table for the language model")
        }
        guard let loaded = ngram_model_read(nil, model.languageModel, NGRAM_AUTO, logMath) else {
            logmath_free(logMath)
            throw .modelMissing(engine: "pocketsphinx", path: model.languageModel, install: PocketSphinxModel.installHint)
        }
        self.model = loaded
        self.logMath = logMath
    }

    deinit {
        ngram_model_free(model)
        logmath_free(logMath)
    }

    /// log10 of how often `word` (lowercase) is said, or nil when the model does not know it.
    package func log10Frequency(of word: String) -> Double? {
        guard ngram_wid(model, word) != ngram_unknown_wid(model) else { return nil }
        let probability = word.withCString { pointer -> Int32 in
            var words: [UnsafePointer<CChar>?] = [pointer]
            return words.withUnsafeMutableBufferPointer { ngram_prob(model, $0.baseAddress, 1) }
        }
        return logmath_log_to_log10(logMath, probability)
    }
}
