import CPocketSphinx
import EarsCore
import Foundation
import EarsPhonetics

/// English transcription with CMU PocketSphinx (Debian's 5prealpha), streaming.
///
/// PocketSphinx's own voice activity detector splits the stream into
/// utterances: while one is open, each fed buffer may yield a partial
/// hypothesis (a volatile piece); when it closes, the final hypothesis comes
/// back as a final piece. This class is the only owner of the decoder and the
/// configuration it was built from (through `PocketSphinxDecoder`).
///
/// The decoder adapts to the channel as it listens: each closed utterance
/// moves its live cepstral mean (CMN, started from the model's `-cmninit`),
/// and the front end's noise estimate runs on across utterances of a stream.
/// `start` and `reset` keep both, so a long-running listener stays adapted to
/// its microphone; `forgetAdaptation` puts both back as they were after
/// loading, so that separate files each start from the same state.
package final class PocketSphinxTranscriber: Transcriber {
    package let engineName = "pocketsphinx"
    package let modelName: String

    private let engine: PocketSphinxDecoder
    private var decoder: OpaquePointer { engine.handle }

    private var streamStartSample: Int64 = 0
    private var samplesFed: Int64 = 0
    private var inUtterance = false
    private var utteranceStartSample: Int64 = 0
    private var utteranceNumber = 0
    private var lastPartial = ""
    private var decoding = false
    /// The channel estimate as loaded, for `forgetAdaptation`.
    private let loadedAdaptation: Adaptation

    /// Decoder flags ears always passes. The second (flat-lexicon) pass and the
    /// lattice best-path search only refine finals; the wake detector mostly
    /// fires on partials, and on the benchmark turning them off kept clean
    /// recall equal while cutting CPU by about a fifth and peak memory by
    /// about 20 MB (docs/performance.md).
    package static let defaultArguments = ["-fwdflat", "no", "-bestpath", "no"]

    /// Loads the model (Debian's en-us unless `model` says otherwise).
    /// `extraArguments` are PocketSphinx flags, e.g. `["-kws_threshold", "1e-20"]`.
    /// Throws `modelMissing` with the install command, or `engineFailed`.
    package init(model: PocketSphinxModel, extraArguments: [String] = [],
                boostedPhrases: [String] = [], boostWeight: Float = 0) throws(TranscriberError) {
        engine = try PocketSphinxDecoder(model: model, arguments: ["-lm", model.languageModel] + Self.defaultArguments + extraArguments)
        self.modelName = model.directory
        self.loadedAdaptation = Adaptation(of: engine.handle)
        if boostWeight > 0 { boost(boostedPhrases, weight: boostWeight) }
    }

    /// Leans the language model toward the wake phrases (the "contextual
    /// strings" of on-device transcribers): each phrase of two or more words
    /// becomes one compound word (`hey_cordelia`) whose pronunciation is its
    /// words' dictionary pronunciations in a row, added as a unigram with
    /// `weight` times the uniform probability. The detector folds `_` to a
    /// space, so the compound reads as the phrase. Phrases with a word the
    /// dictionary lacks are skipped. Returns the compounds added.
    @discardableResult
    private func boost(_ phrases: [String], weight: Float) -> [String] {
        var added: [String] = []
        for phrase in phrases {
            let words = TextNormalizer.words(phrase)
            guard words.count >= 2 else { continue }
            var phones: [String] = []
            for word in words {
                guard let found = ps_lookup_word(decoder, word) else { phones = []; break }
                phones.append(String(cString: found))
                free(found)
            }
            guard !phones.isEmpty else { continue }
            let compound = words.joined(separator: "_")
            // Add to the language model first with the raised weight; ps_add_word
            // then finds the word present and only adds the pronunciation.
            if let lm = ps_get_lm(decoder, ps_get_search(decoder)) {
                ngram_model_add_word(lm, compound, weight)
            }
            if ps_add_word(decoder, compound, phones.joined(separator: " "), 1) >= 0 {
                added.append(compound)
            }
        }
        return added
    }

    deinit {
        if decoding { ps_end_utt(decoder) }
    }

    package func start(atSample startSample: Int64) throws(TranscriberError) {
        reset()
        streamStartSample = startSample
        samplesFed = 0
        try call("ps_start_utt") { ps_start_utt(decoder) }
        decoding = true
    }

    package func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        guard decoding, !samples.isEmpty else { return [] }
        // Audio time follows the caller's clock: a gate may skip silence.
        samplesFed = startSample - streamStartSample
        try call("ps_process_raw") {
            samples.withUnsafeBufferPointer { buffer in
                ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 0)
            }
        }
        samplesFed += Int64(samples.count)
        let inSpeech = ps_get_in_speech(decoder) != 0
        var pieces: [TranscriptPiece] = []
        if inSpeech && !inUtterance {
            inUtterance = true
            utteranceNumber += 1
            utteranceStartSample = samplesFed - Int64(samples.count)
            lastPartial = ""
        }
        if inUtterance {
            if inSpeech {
                let text = hypothesis()
                if !text.isEmpty && text != lastPartial {
                    lastPartial = text
                    pieces.append(piece(.volatile, text))
                }
            } else {
                pieces += try closeUtterance(restart: true)
            }
        }
        return pieces
    }

    package func finish() throws(TranscriberError) -> [TranscriptPiece] {
        guard decoding else { return [] }
        if inUtterance { return try closeUtterance(restart: false) }
        try call("ps_end_utt") { ps_end_utt(decoder) }
        decoding = false
        return []
    }

    package func reset() {
        if decoding { ps_end_utt(decoder) }
        decoding = false
        inUtterance = false
        lastPartial = ""
    }

    /// `reset`, then the cepstral mean (and gain control, for a model that
    /// uses it) back to what they were after loading, and a new stream
    /// (`ps_start_stream`: the front end's noise estimate starts again).
    package func forgetAdaptation() {
        reset()
        loadedAdaptation.restore(into: decoder)
        ps_start_stream(decoder)
    }

    private func closeUtterance(restart: Bool) throws(TranscriberError) -> [TranscriptPiece] {
        try call("ps_end_utt") { ps_end_utt(decoder) }
        decoding = false
        inUtterance = false
        let text = hypothesis()
        lastPartial = ""
        if restart {
            try call("ps_start_utt") { ps_start_utt(decoder) }
            decoding = true
        }
        return text.isEmpty ? [] : [piece(.final, text)]
    }

    private func hypothesis() -> String {
        var score: Int32 = 0
        guard let hyp = ps_get_hyp(decoder, &score) else { return "" }
        return String(cString: hyp)
    }

    private func piece(_ kind: TranscriptPiece.Kind, _ text: String) -> TranscriptPiece {
        TranscriptPiece(kind: kind, text: text, utterance: utteranceNumber,
                        startSeconds: AudioFormat.seconds(ofSamples: streamStartSample + utteranceStartSample),
                        endSeconds: AudioFormat.seconds(ofSamples: streamStartSample + samplesFed))
    }

    private func call(_ name: String, _ body: () -> Int32) throws(TranscriberError) {
        try engine.call(name) { _ in body() }
    }
}

/// What the feature computation of a decoder learns across utterances: the
/// live cepstral mean normalisation (the mean, the running sum it is updated
/// from, and the number of frames in that sum) and the automatic gain
/// control's running maximum. A copy of the values, not of the pointers.
struct Adaptation {
    var cmnMean: [mfcc_t] = []
    var cmnSum: [mfcc_t] = []
    var cmnFrames: Int32 = 0
    var agc: agc_t?

    /// The decoder's current values.
    init(of decoder: OpaquePointer) {
        guard let feat = ps_get_feat(decoder) else { return }
        if let cmn = feat.pointee.cmn_struct {
            let count = Int(cmn.pointee.veclen)
            cmnMean = Array(UnsafeBufferPointer(start: cmn.pointee.cmn_mean, count: count))
            cmnSum = Array(UnsafeBufferPointer(start: cmn.pointee.sum, count: count))
            cmnFrames = cmn.pointee.nframe
        }
        agc = feat.pointee.agc_struct?.pointee
    }

    /// Writes these values back into `decoder` (whose feature set-up is the
    /// one they were read from).
    func restore(into decoder: OpaquePointer) {
        guard let feat = ps_get_feat(decoder) else { return }
        if let cmn = feat.pointee.cmn_struct, Int(cmn.pointee.veclen) == cmnMean.count {
            for index in cmnMean.indices {
                cmn.pointee.cmn_mean[index] = cmnMean[index]
                cmn.pointee.sum[index] = cmnSum[index]
            }
            cmn.pointee.nframe = cmnFrames
        }
        if let agc, let live = feat.pointee.agc_struct { live.pointee = agc }
    }
}
