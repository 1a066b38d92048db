import CPocketSphinx
import EarsCore
import Foundation
import EarsPhonetics

/// One PocketSphinx decoder and the argument strings it was configured from:
/// the only owner of both, freed together in `deinit`. Every decoder call
/// that returns a status goes through `call`, which turns a negative return
/// into a typed error. Used from one thread.
final class PocketSphinxDecoder {
    /// The decoder handle; valid for this object's lifetime.
    let handle: OpaquePointer
    /// strdup'd argv given to cmd_ln_parse_r; sphinxbase may point into it,
    /// so it lives exactly as long as the decoder.
    private let argv: [UnsafeMutablePointer<CChar>?]

    /// Loads `model`'s acoustic model and dictionary with `arguments` (flags
    /// such as `-lm FILE`, `-kws_threshold 1e-30`). With `fullDictionary`
    /// false the decoder starts with no words at all (about 22 MB less):
    /// the caller adds the few it needs (`add(word:phones:)`). Throws
    /// `engineFailed` naming the refused arguments or the model directory.
    init(model: PocketSphinxModel, arguments: [String], fullDictionary: Bool = true) throws(TranscriberError) {
        // Keep PocketSphinx's chatter (which can include hypotheses) out of
        // every log: nothing it hears may reach a log line.
        err_set_logfp(nil)
        let all = ["ears", "-hmm", model.acousticModel] + (fullDictionary ? ["-dict", model.dictionary] : []) + arguments
        var argv = all.map { strdup($0) }
        guard let config = argv.withUnsafeMutableBufferPointer({ buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
        }) else {
            argv.forEach { free($0) }
            throw .engineFailed(engine: "pocketsphinx", detail: "it rejected its arguments \(arguments)")
        }
        guard let decoder = ps_init(config) else {
            cmd_ln_free_r(config)
            argv.forEach { free($0) }
            throw .engineFailed(engine: "pocketsphinx", detail: "could not load the model in \(model.directory)")
        }
        // The decoder holds its own reference to the configuration.
        cmd_ln_free_r(config)
        self.handle = decoder
        self.argv = argv
    }

    deinit {
        ps_free(handle)
        argv.forEach { free($0) }
    }

    /// The one funnel for decoder calls: a negative return becomes a typed error.
    func call(_ name: String, _ body: (OpaquePointer) -> Int32) throws(TranscriberError) {
        let result = body(handle)
        if result < 0 {
            throw .engineFailed(engine: "pocketsphinx", detail: "\(name) returned \(result)")
        }
    }

    /// The dictionary pronunciation of `word` as phones, or nil if unknown.
    func dictionaryPhones(of word: String) -> [String]? {
        guard let found = ps_lookup_word(handle, word) else { return nil }
        defer { free(found) }
        return String(cString: found).split(separator: " ").map(String.init)
    }

    /// Adds `word` with `phones` (the model's phone set) to the dictionary;
    /// false when PocketSphinx refuses it (an unknown phone).
    func add(word: String, phones: [String]) -> Bool {
        !phones.isEmpty && ps_add_word(handle, word, phones.joined(separator: " "), 0) >= 0
    }

    /// Adds an excerpt's words (sorted) and then their alternates, as the
    /// dictionary file gives them; throws `engineFailed` naming the first
    /// entry PocketSphinx refuses.
    func add(_ excerpt: DictionaryExcerpt) throws(TranscriberError) {
        let entries = excerpt.phones.sorted { $0.key < $1.key }.map { (name: $0.key, phones: $0.value) }
            + excerpt.alternates.map { (name: $0.name, phones: $0.phones) }
        for entry in entries where !add(word: entry.name, phones: entry.phones) {
            throw .engineFailed(engine: "pocketsphinx", detail: "the dictionary's pronunciation of \"\(entry.name)\" was refused")
        }
    }

    /// Makes sure every word of `text` is in the decoder's dictionary, adding
    /// unknown ones with `fallback`'s phones (mapped onto the model's phone
    /// set). Returns false when a word has no usable pronunciation.
    func ensureWords(of text: String, fallback: (String) -> [String]?) -> Bool {
        for word in TextNormalizer.words(text) where dictionaryPhones(of: word) == nil {
            guard let phones = fallback(word).map(PocketSphinxPhones.modelPhones), !phones.isEmpty else { return false }
            if ps_add_word(handle, word, phones.joined(separator: " "), 0) < 0 { return false }
        }
        return true
    }

    /// The phones of `text`, word by word from the dictionary; nil when a word is unknown.
    func phones(of text: String) -> [String]? {
        var phones: [String] = []
        for word in TextNormalizer.words(text) {
            guard let found = dictionaryPhones(of: word) else { return nil }
            phones += found
        }
        return phones
    }

    /// The current hypothesis and its path score (log base 1.0001, as
    /// PocketSphinx counts), or nil when there is none.
    func hypothesis() -> (text: String, score: Int32)? {
        var score: Int32 = 0
        guard let hyp = ps_get_hyp(handle, &score) else { return nil }
        return (String(cString: hyp), score)
    }

    /// `decodeWhole` from `adaptation` (the channel estimate the decoder
    /// loaded with) and a fresh front-end noise estimate, so a window's
    /// result does not depend on the windows decoded before it.
    func decodeWhole(_ samples: [Int16], search: String, from adaptation: Adaptation) throws(TranscriberError) -> (text: String, score: Int32, frames: Int) {
        adaptation.restore(into: handle)
        ps_start_stream(handle)
        return try decodeWhole(samples, search: search)
    }

    /// Decodes `samples` as one utterance with the search named `search`
    /// and returns the hypothesis (empty text when nothing was found).
    func decodeWhole(_ samples: [Int16], search: String) throws(TranscriberError) -> (text: String, score: Int32, frames: Int) {
        try call("ps_set_search") { ps_set_search($0, search) }
        try call("ps_start_utt") { ps_start_utt($0) }
        try call("ps_process_raw") { decoder in
            samples.withUnsafeBufferPointer { buffer in
                ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 1)
            }
        }
        try call("ps_end_utt") { ps_end_utt($0) }
        let frames = Int(ps_get_n_frames(handle))
        let hyp = hypothesis()
        return (hyp?.text ?? "", hyp?.score ?? 0, frames)
    }
}

/// The en-us acoustic model's phone set, and the mapping of ARPAbet
/// extensions (which letter-to-sound rules may produce) onto it.
enum PocketSphinxPhones {
    /// The phones the en-us model knows (SIL aside).
    static let known: Set<String> = [
        "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH", "IH", "IY",
        "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH",
    ]
    /// Extensions and their nearest model phones.
    static let extensions: [String: [String]] = [
        "AX": ["AH"], "AXR": ["ER"], "IX": ["IH"], "UX": ["UW"], "DX": ["T"], "NX": ["N"],
        "EL": ["AH", "L"], "EM": ["AH", "M"], "EN": ["AH", "N"], "Q": [],
    ]

    /// `phones` with stress digits removed and extensions mapped; unknown
    /// symbols are dropped.
    static func modelPhones(_ phones: [String]) -> [String] {
        phones.flatMap { phone -> [String] in
            let bare = phone.uppercased().filter { !$0.isNumber }
            if known.contains(bare) { return [bare] }
            return extensions[bare] ?? []
        }
    }
}
