import CPocketSphinx
import EarsCore
import Foundation
import EarsPhonetics
import EarsSystem

/// Acoustic keyphrase spotting with PocketSphinx's keyphrase search: each
/// phrase's triphone HMMs are matched against a free phone loop on every
/// frame, and a phrase is spotted when the log-likelihood ratio passes the
/// threshold. No language model is loaded, so it is cheap, and a phrase that
/// noise smeared is still scored on its sounds rather than snapped to other
/// words by a language model.
///
/// Seen as a `Transcriber`, each spotting is one final piece whose text is
/// the phrase (as written in the key list), whose times bound the phrase, and
/// whose `spotScore` is the spotter's ratio per frame. Nothing else is ever
/// transcribed. PocketSphinx's own voice detector is off (every frame is
/// searched, so frames map to audio time exactly); the decoder's utterance
/// ends at a gap the speech gate left and after 30 s (bounded decoding
/// state), not at a spotting — each detection is reported once instead, so
/// one phrase's spotting does not cut short another's that is under way.
package final class PocketSphinxSpotter: Transcriber {
    package let engineName = "pocketsphinx"
    package let modelName: String
    /// The phrases spotted (folded, as the key list holds them).
    package let phrases: [String]

    /// The decoder, with only the phrases' words in its dictionary (internal: tests read it).
    let engine: PocketSphinxDecoder
    private let loadedAdaptation: Adaptation
    private var decoding = false
    private var streamStartSample: Int64 = 0
    private var utteranceNumber = 0
    /// Where each buffer fed in the current decoder utterance started:
    /// samples into the utterance, and audio time in samples. Every frame
    /// is searched (PocketSphinx's own voice detector is off), so frame f
    /// starts f × 160 samples into the utterance; a gate may skip silence
    /// between buffers, which this list bridges.
    private var feedStarts: [(utteranceSample: Int64, audioSample: Int64)] = []
    private var utteranceSamples: Int64 = 0
    /// Audio time (samples) just past the last buffer fed.
    private var fedEndSample: Int64 = 0
    /// What the current decoder utterance has reported (`spotted()`).
    private var ledger = SpottingLedger()

    /// Longest decoder utterance, in samples (30 s): with the gate off and
    /// endless noise nothing else would end it, and its state would grow.
    private static let longestUtteranceSamples: Int64 = 30 * Int64(AudioFormat.sampleRate)
    /// Natural log of PocketSphinx's log base (1.0001): converts its scores.
    private static let naturalLogPerUnit = log(1.0001)
    /// The keyphrase search's phone-loop penalty (`-kws_plp`). PocketSphinx's
    /// default (1e-1) lets the free phone loop out-score a phrase said by some
    /// voices at any threshold (flite's slt and kal16 were never spotted).
    /// On the tuning corpus (bench/fit_verifier.py) the calls that became
    /// candidates were 62% at 1e-5, 84% at 1e-10 and 93% at 1e-20, with
    /// 22, 168 and 537 candidates on its 36 min of negatives: 1e-20 spots
    /// nearly every call, and the verifier refuses what it lets through.
    package static let phoneLoopPenalty = 1e-20
    /// Samples per 10 ms frame at 16 kHz.
    private static let frameSamples: Int64 = 160

    /// Loads the acoustic model and dictionary and listens for `phrases` at
    /// `threshold` (a likelihood ratio, e.g. 1e-30). Words the dictionary
    /// lacks are added with `fallback`'s phones (letter-to-sound rules); a
    /// phrase with a word that has none is refused with `engineFailed`.
    package init(model: PocketSphinxModel, phrases: [String], threshold: Double,
                fallback: (String) -> [String]? = { _ in nil }) throws(TranscriberError) {
        // Only the phrases' words, not the model's whole dictionary: one
        // spotter per stream, each ~22 MB lighter (`DictionaryExcerpt`).
        engine = try PocketSphinxDecoder(model: model, arguments: ["-remove_silence", "no", "-kws_threshold", "\(threshold)", "-kws_plp", "\(Self.phoneLoopPenalty)"],
                                         fullDictionary: false)
        let excerpt = try DictionaryExcerpt(path: model.dictionary, words: Set(phrases.flatMap(TextNormalizer.words)))
        try engine.add(excerpt)
        var folded: [String] = []
        for phrase in phrases {
            let words = TextNormalizer.words(phrase).joined(separator: " ")
            guard !words.isEmpty, !folded.contains(words) else { continue }
            guard engine.ensureWords(of: words, fallback: fallback) else {
                throw .engineFailed(engine: "pocketsphinx", detail: "no pronunciation for a word of \"\(phrase)\"")
            }
            folded.append(words)
        }
        guard !folded.isEmpty else { throw .engineFailed(engine: "pocketsphinx", detail: "no phrase to spot") }
        self.phrases = folded
        self.modelName = model.directory
        try Self.setKeyphrases(folded, threshold: threshold, on: engine)
        loadedAdaptation = Adaptation(of: engine.handle)
    }

    /// Longest keyphrase list, in bytes: it must fit a pipe's buffer (64 KiB on Linux).
    package static let longestKeyphraseList = 60_000

    /// PocketSphinx reads a list of several keyphrases only from a path, so
    /// the list (configuration text, never audio) goes through a pipe whose
    /// read end it opens as `/dev/fd/N`: nothing is written to disk.
    private static func setKeyphrases(_ phrases: [String], threshold: Double, on engine: PocketSphinxDecoder) throws(TranscriberError) {
        let list = phrases.map { "\($0) /\(threshold)/\n" }.joined()
        guard list.utf8.count <= longestKeyphraseList else {
            throw .engineFailed(engine: "pocketsphinx", detail: "the phrase list is longer than \(longestKeyphraseList) bytes")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .engineFailed(engine: "pocketsphinx", detail: "no pipe for the keyphrase list (errno \(errno))")
        }
        defer { close(ends[0]) }
        do throws(SystemCallError) {
            defer { close(ends[1]) }
            try SystemCall.writeAll(Array(list.utf8), to: ends[1], path: "the keyphrase pipe")
        } catch {
            throw .engineFailed(engine: "pocketsphinx", detail: "the keyphrase list could not be handed over (\(error.reason))")
        }
        try engine.call("ps_set_kws") { ps_set_kws($0, "wake", "/dev/fd/\(ends[0])") }
        try engine.call("ps_set_search") { ps_set_search($0, "wake") }
    }

    deinit {
        if decoding { ps_end_utt(engine.handle) }
    }

    package func start(atSample startSample: Int64) throws(TranscriberError) {
        reset()
        streamStartSample = startSample
        fedEndSample = startSample
        try beginUtterance()
    }

    package func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        guard decoding, !samples.isEmpty else { return [] }
        // A gap (the gate skipped silence) is a natural place to start a new
        // decoder utterance, which keeps its state bounded over hours.
        if utteranceSamples > 0 && (startSample != fedEndSample || utteranceSamples >= Self.longestUtteranceSamples) {
            try endUtterance()
            try beginUtterance()
        }
        feedStarts.append((utteranceSamples, startSample))
        try engine.call("ps_process_raw") { decoder in
            samples.withUnsafeBufferPointer { ps_process_raw(decoder, $0.baseAddress, $0.count, 0, 0) }
        }
        utteranceSamples += Int64(samples.count)
        fedEndSample = startSample + Int64(samples.count)
        // A spotting does not close the decoder's utterance: another phrase
        // may be half-way through its sounds (a spurious "alexa" on the
        // "hey" of "hey cordelia" used to end the utterance and lose the
        // call). `spotted()` reports each detection once instead.
        return spotted()
    }

    package func finish() throws(TranscriberError) -> [TranscriptPiece] {
        guard decoding else { return [] }
        try endUtterance()
        return spotted()
    }

    package func reset() {
        if decoding { ps_end_utt(engine.handle) }
        decoding = false
        feedStarts.removeAll()
        utteranceSamples = 0
    }

    package func forgetAdaptation() {
        reset()
        loadedAdaptation.restore(into: engine.handle)
    }

    private func beginUtterance() throws(TranscriberError) {
        feedStarts.removeAll()
        utteranceSamples = 0
        ledger.reset()
        // Debian's PocketSphinx numbers keyphrase detections from the start
        // of the stream, not of the utterance; a new stream per utterance
        // makes frame 0 this utterance's first sample exactly (counting the
        // frames of earlier utterances drifted by a frame each, which over
        // an hour put windows outside the ring). It also starts the front
        // end's noise estimate again, at a gap the gate left.
        ps_start_stream(engine.handle)
        try engine.call("ps_start_utt") { ps_start_utt($0) }
        decoding = true
    }

    private func endUtterance() throws(TranscriberError) {
        try engine.call("ps_end_utt") { ps_end_utt($0) }
        decoding = false
    }

    /// The detections the search reports now and has not reported before
    /// in this utterance, oldest first, as final pieces.
    private func spotted() -> [TranscriptPiece] {
        var listed: [SpottingLedger.Detection] = []
        var segment = ps_seg_iter(engine.handle)
        while let current = segment {
            var startFrame: Int32 = 0, endFrame: Int32 = 0
            ps_seg_frames(current, &startFrame, &endFrame)
            var acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
            let ratio = ps_seg_prob(current, &acoustic, &language, &backoff)
            if let word = ps_seg_word(current) {
                listed.append(.init(phrase: String(cString: word), startFrame: startFrame, endFrame: endFrame, ratio: ratio))
            }
            segment = ps_seg_next(current)
        }
        return ledger.fresh(listed).map { detection in
            utteranceNumber += 1
            let frames = max(1, Double(detection.endFrame - detection.startFrame + 1))
            return TranscriptPiece(
                kind: .final, text: detection.phrase, utterance: utteranceNumber,
                startSeconds: seconds(atFrame: Int64(detection.startFrame)), endSeconds: seconds(atFrame: Int64(detection.endFrame) + 1),
                spotScore: Double(detection.ratio) * Self.naturalLogPerUnit / frames)
        }
    }

    /// Audio time (seconds since the stream began) of a frame of the current utterance.
    private func seconds(atFrame frame: Int64) -> Double {
        let offset = frame * Self.frameSamples
        let start = feedStarts.last { $0.utteranceSample <= offset } ?? (0, fedEndSample)
        return AudioFormat.seconds(ofSamples: start.audioSample + (offset - start.utteranceSample))
    }
}
