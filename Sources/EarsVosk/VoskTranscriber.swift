import EarsCore
import Foundation

/// Streaming transcription with Vosk (Kaldi): Korean with the default model,
/// any language with a Vosk model directory.
///
/// Vosk's endpointer splits the stream into utterances: each fed buffer either
/// ends one (`accept_waveform` answers 1, and the result is a final piece) or
/// extends the current guess (a volatile piece, when the partial text changed).
/// Decoding is free over the model's whole vocabulary, or restricted to a
/// grammar: a list of phrases, from which Vosk builds a small language model
/// so that only those words can come out.
///
/// Vosk adapts as it listens: its feature pipeline keeps online i-vector and
/// cepstral statistics across utterances. `start` and `reset` keep the
/// pipeline when the last utterance ended at an endpoint; only a final result
/// on a running stream frees it (the next audio then builds a new one), and
/// `forgetAdaptation` makes sure of that.
///
/// This class is the only owner of the recognizer and frees it in `deinit`;
/// it holds the model strongly, so the model outlives the recognizer. Used
/// from one thread (the audio owner's), like every transcriber.
package final class VoskTranscriber: Transcriber {
    /// Always `vosk`.
    package let engineName = "vosk"
    /// The model directory.
    package let modelName: String
    /// The phrases decoding is restricted to, or nil for free decoding.
    package let grammar: [String]?
    /// Longest run of samples handed to Vosk in one call: one second, so a
    /// caller feeding a long buffer still sees each endpoint in its place.
    package static let maximumSamplesPerCall = AudioFormat.sampleRate

    private let model: VoskModel
    private let recognizer: OpaquePointer
    private var library: VoskLibrary { model.library }

    private var streamStartSample: Int64 = 0
    /// Samples since the stream start up to the end of the last fed buffer,
    /// on the caller's clock (a speech gate may skip silence).
    private var samplesFed: Int64 = 0
    private var lastCallStartSample: Int64 = 0
    private var inUtterance = false
    private var utteranceStartSample: Int64 = 0
    private var utteranceNumber = 0
    private var lastPartial = ""
    private var streaming = false

    /// Makes a 16 kHz recognizer for `model`.
    ///
    /// `grammar`, when given, lists the phrases (one or more space-separated
    /// words each) that decoding is restricted to; Vosk drops words its model
    /// does not know, so at least one word must be known (see
    /// `VoskModel.unknownWords`). Throws `engineFailed` for an empty or
    /// wholly unknown grammar, or when Vosk refuses to make a recognizer.
    package init(model: VoskModel, grammar: [String]? = nil) throws(TranscriberError) {
        let library = model.library
        let made: OpaquePointer?
        if let grammar {
            let words = grammar.flatMap { $0.split(whereSeparator: \.isWhitespace) }.map(String.init)
            guard words.contains(where: model.knows) else {
                throw .engineFailed(engine: "vosk", detail: grammar.isEmpty
                                    ? "the grammar is empty"
                                    : "no word of the grammar is in the vocabulary of the model in \(model.directory)")
            }
            // Vosk parses the grammar with its own JSON reader and crashes on
            // malformed text (seen with 0.3.45), so it is always written by a
            // JSON writer (`JSONValue`), never by string pasting.
            let json = JSONValue.array(grammar.map { .string($0) }).jsonText
            made = json.withCString { library.recognizerNewGrammar(model.handle, Float(AudioFormat.sampleRate), $0) }
        } else {
            made = library.recognizerNew(model.handle, Float(AudioFormat.sampleRate))
        }
        guard let made else {
            let function = grammar == nil ? "vosk_recognizer_new" : "vosk_recognizer_new_grm"
            throw .engineFailed(engine: "vosk", detail: "\(function) refused the model in \(model.directory)")
        }
        self.recognizer = made
        self.model = model
        self.grammar = grammar
        self.modelName = model.directory
    }

    deinit {
        library.recognizerFree(recognizer)
    }

    /// A grammar for listening for wake phrases: each phrase `phraseWeight`
    /// times, then each filler word on its own.
    ///
    /// Vosk turns a grammar into a bigram language model counted over its
    /// entries, so repeating a phrase raises its probability against the
    /// fillers; the fillers give other speech somewhere to go, without which
    /// every sound is forced into the phrase (a phrase-only grammar woke on
    /// 16 of 16 Korean sentences without it). Measured on espeak-ng Korean
    /// (4 voices x 4 speeds) with `koreanFillerWords`: weight 1 woke on 1 of
    /// 16 spoken phrases, 20 on 6, 50 on 7, 100 on 10; on 40 other sentences
    /// (some with 피자, 델리) weight 50 woke 2 times and 100 woke 3 times.
    /// Free decoding woke on none of either.
    package static func wakeGrammar(phrases: [String], fillers: [String], phraseWeight: Int = 50) -> [String] {
        let phrases = phrases.filter { !$0.allSatisfy(\.isWhitespace) }
        return Array(phrases.map { Array(repeating: $0, count: max(1, phraseWeight)) }.joined())
            + fillers.filter { !phrases.contains($0) }
    }

    /// Frequent Korean words and particles that the small Korean model knows
    /// (all 58 checked with `VoskModel.knows`): the fillers `wakeGrammar`
    /// was measured with. Dictionary forms such as 가다 are not in its
    /// vocabulary, which is segmented into stems and endings.
    package static let koreanFillerWords = [
        "그리고", "하지만", "그래서", "나", "너", "우리", "이", "그", "저", "것", "있다", "없다", "하다", "오다",
        "좋다", "네", "아니요", "오늘", "내일", "어제", "저녁", "아침", "점심", "뭐", "어디", "언제", "누구", "왜",
        "어떻게", "먹다", "먹을까", "보다", "말", "사람", "시간", "집", "학교", "친구", "정말", "아주", "많이", "조금",
        "다", "안", "못", "이다", "가", "을", "를", "은", "는", "에", "의", "도", "로", "와", "과", "요",
    ]

    /// Begins a fresh stream whose audio time starts at `startSample`
    /// (samples); any utterance still open in Vosk is dropped. Never throws.
    package func start(atSample startSample: Int64) throws(TranscriberError) {
        reset()
        streamStartSample = startSample
        samplesFed = 0
        lastCallStartSample = 0
        streaming = true
    }

    /// Decodes `samples` (16 kHz mono) that begin at audio time `startSample`;
    /// returns a volatile piece when the partial text changed and a final
    /// piece at each endpoint with text. Nothing before `start` (or after
    /// `finish`). Throws `engineFailed` when Vosk reports an exception.
    package func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        guard streaming, !samples.isEmpty else { return [] }
        var pieces: [TranscriptPiece] = []
        var offset = 0
        while offset < samples.count {
            let count = min(VoskTranscriber.maximumSamplesPerCall, samples.count - offset)
            let callStart = startSample - streamStartSample + Int64(offset)
            let status = samples.withUnsafeBufferPointer { buffer in
                library.acceptWaveform(recognizer, buffer.baseAddress! + offset, Int32(count))
            }
            lastCallStartSample = callStart
            samplesFed = callStart + Int64(count)
            if status < 0 {
                throw .engineFailed(engine: "vosk", detail: "vosk_recognizer_accept_waveform_s returned \(status)")
            }
            if status == 1 {
                pieces += closeUtterance(with: text(of: library.result(recognizer), key: "text"))
            } else {
                let partial = text(of: library.partialResult(recognizer), key: "partial")
                if !partial.isEmpty && partial != lastPartial {
                    openUtteranceIfNeeded()
                    lastPartial = partial
                    pieces.append(piece(.volatile, partial))
                }
            }
            offset += count
        }
        return pieces
    }

    /// Ends the stream: Vosk's last word on the open utterance as a final
    /// piece (none when it heard nothing). Never throws.
    package func finish() throws(TranscriberError) -> [TranscriptPiece] {
        guard streaming else { return [] }
        streaming = false
        // final_result flushes Vosk's feature pipeline, so the last few
        // frames count; the recognizer starts afresh on the next audio.
        return closeUtterance(with: text(of: library.finalResult(recognizer), key: "text"))
    }

    /// Drops Vosk's current utterance and this stream; the next call must be
    /// `start`. Utterance numbers keep counting up across streams.
    package func reset() {
        library.reset(recognizer)
        streaming = false
        inUtterance = false
        lastPartial = ""
    }

    /// `reset`, Vosk's feature pipeline dropped (the next audio starts a new
    /// one, as on a recognizer just made), and the C library's random numbers
    /// started over.
    ///
    /// Vosk's own reset keeps the pipeline; its final result on a running
    /// stream frees it. So an empty buffer makes the stream running and a
    /// final result (thrown away) ends it (vosk-api 0.3.45, src/recognizer.cc:
    /// `AcceptWaveform`, `FinalResult`, `CleanUp`). A new recognizer instead
    /// would cost about 70 ms with free decoding (the look-ahead composition
    /// is built again) and would not be enough on its own: Kaldi dithers each
    /// frame (the model's MFCC set-up keeps Kaldi's default dither of 1.0)
    /// with noise seeded from the process-wide `rand()`, so a file's
    /// transcript depends on how many frames the process computed before it.
    /// `srand(1)` starts `rand()` over where a new process starts it (POSIX:
    /// no `srand` call is the same as `srand(1)`); `ears scan` calls this
    /// before every file, the first too, so every file sees the same noise.
    /// Nothing else in ears uses `rand()`. ScanOrderTests checks the effect;
    /// all of this costs well under 1 ms.
    package func forgetAdaptation() {
        reset()
        var none: Int16 = 0
        _ = library.acceptWaveform(recognizer, &none, 0)
        _ = library.finalResult(recognizer)
        srand(1)
    }

    /// An utterance opens at the first text heard in it, dated to the start
    /// of the buffer that produced that text.
    private func openUtteranceIfNeeded() {
        guard !inUtterance else { return }
        inUtterance = true
        utteranceNumber += 1
        utteranceStartSample = lastCallStartSample
    }

    private func closeUtterance(with text: String) -> [TranscriptPiece] {
        defer {
            inUtterance = false
            lastPartial = ""
        }
        guard !text.isEmpty else { return [] }
        // A short word can reach an endpoint without any partial before it.
        openUtteranceIfNeeded()
        return [piece(.final, text)]
    }

    /// The string under `key` in a Vosk JSON answer; "" when there is none.
    /// A malformed answer counts as silence rather than stopping the ear.
    private func text(of json: UnsafePointer<CChar>?, key: String) -> String {
        guard let json else { return "" }
        let bytes = UnsafeRawBufferPointer(start: json, count: strlen(json))
        return (try? JSONValue.parse(bytes))?[key]?.stringValue ?? ""
    }

    private func piece(_ kind: TranscriptPiece.Kind, _ text: String) -> TranscriptPiece {
        TranscriptPiece(kind: kind, text: text, utterance: utteranceNumber,
                        startSeconds: AudioFormat.seconds(ofSamples: streamStartSample + utteranceStartSample),
                        endSeconds: AudioFormat.seconds(ofSamples: streamStartSample + samplesFed))
    }
}
