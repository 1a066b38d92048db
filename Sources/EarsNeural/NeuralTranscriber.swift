import EarsCore
/// The trained phrase models as an engine: audio goes through the shared
/// speech front end (`SpeechEmbedder`, one embedding every 80 ms), each
/// phrase's head scores the last 1.28 s of embeddings, and a detection comes
/// back as a final piece whose text is the phrase and whose `trainedScore`
/// is the head's score. The detector then matches the text exactly and the
/// judge takes the score as the decision (`WakeJudge`).
///
/// It is meant to hear every chunk as captured (`Ear.rawTranscriber`, or as
/// the ear's only engine with no gate and no suppressor): the heads were
/// trained on continuous, undenoised audio. A gap in the audio (a feed that
/// does not start where the last one ended) starts a new front-end stream,
/// as `start` does. Used from one thread.
package final class NeuralTranscriber: Transcriber {
    /// Utterance numbers start here, far from any other engine's, because an
    /// ear may hold this engine's pieces beside another's.
    package static let firstUtterance = 1 << 40

    package let engineName = "trained"
    /// The phrases' model files, for the status socket.
    package let modelName: String
    /// The models heard, in the order detections name them.
    package let models: [WakeModel]

    private let embedder: any SpeechEmbedder
    private let freshSpotter: NeuralWakeSpotter
    private var spotter: NeuralWakeSpotter
    /// Audio time of the front-end stream's first sample, in samples.
    private var streamStartSample: Int64 = 0
    /// Audio time the next feed should start at, in samples.
    private var nextSample: Int64 = 0
    private var utterance = NeuralTranscriber.firstUtterance
    /// Whether the models were trained on denoised audio (all of them, or none:
    /// `init` refuses a mix), so the ear should denoise what it feeds them.
    package let hearsDenoised: Bool
    /// Spotters deciding at other thresholds over the same embeddings (`watch`).
    private var watched: [Watched] = []

    /// One watched threshold: its spotter as made, as it runs, its utterance
    /// numbers and the pieces not yet taken.
    private struct Watched {
        var fresh: NeuralWakeSpotter
        var spotter: NeuralWakeSpotter
        var utterance = NeuralTranscriber.firstUtterance
        var pieces: [TranscriptPiece] = []
    }

    /// An engine for `models` on `embedder`. Every model must have been
    /// trained on this front end (`frontEndVersion`); otherwise this throws
    /// the sentence naming the phrase and `ears train` as the fix.
    /// `thresholdOverride` (0…1), when given, replaces every model's own
    /// threshold; `modelName` is what the status socket shows.
    package init(embedder: any SpeechEmbedder, models: [WakeModel], thresholdOverride: Double? = nil,
                modelName: String) throws(TranscriberError) {
        for model in models where model.embedderVersion != embedder.frontEndVersion {
            throw .engineFailed(engine: "trained", detail: "the model of \"\(model.phrase)\" was trained on the front end \(model.embedderVersion), "
                + "and this ears has \(embedder.frontEndVersion); run ears train \"\(model.phrase)\" again")
        }
        // One ear feeds every model the same audio: they must all want it denoised, or none.
        if let first = models.first, let other = models.first(where: { $0.heardDenoised != first.heardDenoised }) {
            let older = first.heardDenoised ? other : first
            throw .engineFailed(engine: "trained", detail: "the model of \"\(older.phrase)\" was trained on audio as captured by an earlier ears, "
                + "and the others on denoised audio; run ears train \"\(older.phrase)\" again")
        }
        hearsDenoised = models.first?.heardDenoised ?? false
        self.embedder = embedder
        self.models = models
        self.modelName = modelName
        let phrases = models.map { model in
            var phrase = NeuralWakeSpotter.Phrase(model: model)
            if let thresholdOverride { phrase.threshold = Float(thresholdOverride) }
            return phrase
        }
        var settings = NeuralWakeSpotter.Settings()
        settings.stepSeconds = Double(embedder.samplesPerEmbedding) / Double(AudioFormat.sampleRate)
        freshSpotter = NeuralWakeSpotter(phrases: phrases, dimension: embedder.dimension, settings: settings)
        spotter = freshSpotter
    }

    package func start(atSample startSample: Int64) throws(TranscriberError) {
        restart(at: startSample)
    }

    package func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        if startSample != nextSample { restart(at: startSample) }
        nextSample = startSample + Int64(samples.count)
        let embeddings = try embedder.feed(samples)
        for index in watched.indices {
            for detection in watched[index].spotter.push(contentsOf: embeddings) {
                watched[index].utterance += 1
                watched[index].pieces.append(piece(for: detection, utterance: watched[index].utterance))
            }
        }
        return spotter.push(contentsOf: embeddings).map { detection in
            utterance += 1
            return piece(for: detection, utterance: utterance)
        }
    }

    /// A detection as a final piece, in stream time.
    private func piece(for detection: NeuralWakeSpotter.Detection, utterance: Int) -> TranscriptPiece {
        let offsetSeconds = AudioFormat.seconds(ofSamples: streamStartSample)
        return TranscriptPiece(kind: .final, text: detection.phrase, utterance: utterance,
                               startSeconds: offsetSeconds + detection.startSeconds,
                               endSeconds: offsetSeconds + detection.endSeconds,
                               trainedScore: Double(detection.score))
    }

    /// Also decides at each of `thresholds` (0…1, for every phrase) over the
    /// same embeddings, beside the engine's own decision: what `ears tune`
    /// sweeps. Each watched threshold gives exactly the pieces this engine
    /// would give with `thresholdOverride` set to it (utterance numbers
    /// apart). Replaces any earlier watch; call it before `start`.
    package func watch(thresholds: [Double]) {
        watched = thresholds.map { threshold in
            let phrases = freshSpotter.phrases.map { phrase in
                var moved = phrase
                moved.threshold = Float(threshold)
                return moved
            }
            let fresh = NeuralWakeSpotter(phrases: phrases, dimension: freshSpotter.dimension, settings: freshSpotter.settings)
            return Watched(fresh: fresh, spotter: fresh)
        }
    }

    /// The pieces each watched threshold gave since the last call, in
    /// `watch(thresholds:)` order.
    package func takeWatchedPieces() -> [[TranscriptPiece]] {
        defer { for index in watched.indices { watched[index].pieces.removeAll() } }
        return watched.map(\.pieces)
    }

    /// Nothing is pending at the end of a stream: a detection is reported as
    /// soon as its peak is past.
    package func finish() throws(TranscriberError) -> [TranscriptPiece] { [] }

    package func reset() { restart(at: nextSample) }

    /// The front end and heads adapt to nothing: the same as `reset`.
    package func forgetAdaptation() throws(TranscriberError) { reset() }

    /// The highest score each model's head gave since the last call, in
    /// `models` order (numbers only: for near misses and the benchmark).
    package func takeMaxScores() -> [Float] { spotter.takeMaxScores() }

    private func restart(at sample: Int64) {
        embedder.reset()
        spotter = freshSpotter
        for index in watched.indices {
            watched[index].spotter = watched[index].fresh
            watched[index].pieces.removeAll()
        }
        streamStartSample = sample
        nextSample = sample
    }
}
