import EarsCore
/// The trained phrase models as an engine: audio goes through the shared
/// speech front end (`SpeechEmbedder`, one embedding every 80 ms), each
/// phrase's head scores the last 1.28 s of embeddings, and a detection comes
/// back as a final piece whose text is the phrase and whose `trainedScore`
/// is the head's score. The detector then matches the text exactly and the
/// judge takes the score as the decision (`WakeJudge`).
///
/// It hears every chunk (`Ear.rawTranscriber`, or as the ear's only engine
/// with no gate): denoised by the ear when its models were all trained on
/// denoised audio (`hearsDenoised`), else as captured. Models trained each
/// way (an English head denoised, a Korean one as captured: `ears train`
/// decides per language) are heard on two lanes: the ear feeds audio as
/// captured, and the denoised lane passes it through its own suppressor and
/// front end (`DenoisedLane`), so every head hears what it was trained on.
/// A gap in the audio (a feed that does not start where the last one ended)
/// starts a new front-end stream, as `start` does. Used from one thread.
package final class NeuralTranscriber: Transcriber {
    /// Utterance numbers start here, far from any other engine's, because an
    /// ear may hold this engine's pieces beside another's.
    package static let firstUtterance = 1 << 40

    /// What a mix of models trained on denoised audio and on audio as
    /// captured needs for its denoised lane: a front end of its own (its
    /// stream state is separate) and the suppressor in front of it (the
    /// level the models were trained behind).
    package struct DenoisedLane {
        package var embedder: any SpeechEmbedder
        package var suppressor: any NoiseSuppressor

        package init(embedder: any SpeechEmbedder, suppressor: any NoiseSuppressor) {
            self.embedder = embedder
            self.suppressor = suppressor
        }
    }

    package let engineName = "trained"
    /// The phrases' model files, for the status socket.
    package let modelName: String
    /// The models heard, in the order detections name them.
    package let models: [WakeModel]
    /// Whether the ear should denoise what it feeds this engine: every model
    /// was trained on denoised audio. False for a mix heard on two lanes.
    package let hearsDenoised: Bool

    /// One front-end stream and the spotter of the models that hear it.
    fileprivate struct Lane {
        var embedder: any SpeechEmbedder
        /// Between the ear's audio and the front end (the denoised lane of a mix).
        var suppressor: (any NoiseSuppressor)?
        /// Indices into `models` of the phrases this lane's spotter holds, in its order.
        var modelIndices: [Int]
        var fresh: NeuralWakeSpotter
        var spotter: NeuralWakeSpotter
        /// Spotters deciding at the watched thresholds, in `watch` order.
        var watchedFresh: [NeuralWakeSpotter] = []
        var watched: [NeuralWakeSpotter] = []
    }

    private var lanes: [Lane]
    /// Audio time of the front-end stream's first sample, in samples.
    private var streamStartSample: Int64 = 0
    /// Audio time the next feed should start at, in samples.
    private var nextSample: Int64 = 0
    private var utterance = NeuralTranscriber.firstUtterance
    /// Per watched threshold: its utterance number and the pieces not yet taken.
    private var watchedUtterances: [Int] = []
    private var watchedPieces: [[TranscriptPiece]] = []

    /// An engine for `models` on `embedder`. Every model must have been
    /// trained on this front end (`frontEndVersion`); otherwise this throws
    /// the sentence naming the phrase and `ears train` as the fix.
    /// `thresholdOverride` (0…1), when given, replaces every model's own
    /// threshold; `modelName` is what the status socket shows. Models
    /// trained on denoised audio beside models trained on audio as captured
    /// are heard on two lanes when `denoisedLane` is given; without it such a
    /// mix is refused with a sentence, unless `sameAudio` says the caller
    /// feeds every model the same audio whatever it was trained on
    /// (`[wake] trained_denoise` set).
    package init(embedder: any SpeechEmbedder, models: [WakeModel], thresholdOverride: Double? = nil,
                modelName: String, denoisedLane: DenoisedLane? = nil, sameAudio: Bool = false) throws(TranscriberError) {
        for model in models where model.embedderVersion != embedder.frontEndVersion {
            throw .engineFailed(engine: "trained", detail: "the model of \"\(model.phrase)\" was trained on the front end \(model.embedderVersion), "
                + "and this ears has \(embedder.frontEndVersion); run ears train \"\(model.phrase)\" again")
        }
        let denoisedIndices = models.indices.filter { models[$0].heardDenoised }
        let capturedIndices = models.indices.filter { !models[$0].heardDenoised }
        let mixed = !sameAudio && !denoisedIndices.isEmpty && !capturedIndices.isEmpty
        if mixed && denoisedLane == nil {
            let captured = models[capturedIndices[0]], denoised = models[denoisedIndices[0]]
            throw .engineFailed(engine: "trained", detail: "the model of \"\(captured.phrase)\" was trained on audio as captured and that of "
                + "\"\(denoised.phrase)\" on denoised audio, and this ear has no denoised lane for them; set trained_denoise "
                + "to feed both the same audio, or run ears train for one of them again")
        }
        var settings = NeuralWakeSpotter.Settings()
        settings.stepSeconds = Double(embedder.samplesPerEmbedding) / Double(AudioFormat.sampleRate)
        func lane(_ indices: [Int], embedder: any SpeechEmbedder, suppressor: (any NoiseSuppressor)?) -> Lane {
            let phrases = indices.map { index in
                var phrase = NeuralWakeSpotter.Phrase(model: models[index])
                if let thresholdOverride { phrase.threshold = Float(thresholdOverride) }
                return phrase
            }
            let fresh = NeuralWakeSpotter(phrases: phrases, dimension: embedder.dimension, settings: settings)
            return Lane(embedder: embedder, suppressor: suppressor, modelIndices: indices, fresh: fresh, spotter: fresh)
        }
        if mixed, let denoisedLane {
            lanes = [lane(capturedIndices, embedder: embedder, suppressor: nil),
                     lane(denoisedIndices, embedder: denoisedLane.embedder, suppressor: denoisedLane.suppressor)]
            hearsDenoised = false
        } else {
            lanes = [lane(Array(models.indices), embedder: embedder, suppressor: nil)]
            hearsDenoised = !models.isEmpty && capturedIndices.isEmpty
        }
        self.models = models
        self.modelName = modelName
    }

    /// How many front-end streams the models are heard on: 2 for a mix of
    /// denoised and as-captured models, else 1.
    package var laneCount: Int { lanes.count }

    package func start(atSample startSample: Int64) throws(TranscriberError) {
        restart(at: startSample)
    }

    package func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        if startSample != nextSample { restart(at: startSample) }
        nextSample = startSample + Int64(samples.count)
        var detections: [NeuralWakeSpotter.Detection] = []
        var watchedDetections = [[NeuralWakeSpotter.Detection]](repeating: [], count: watchedPieces.count)
        for index in lanes.indices {
            let heard = lanes[index].suppressor?.denoise(samples) ?? samples
            for embedding in try lanes[index].embedder.feed(heard) {
                // Each head scores a window once; the watched thresholds
                // decide on the same scores (the heads are the same).
                let scored = lanes[index].spotter.score(embedding)
                for watch in lanes[index].watched.indices {
                    watchedDetections[watch] += lanes[index].watched[watch].decide(scores: scored.scores, at: scored.index)
                        .map { lanes[index].named($0) }
                }
                detections += lanes[index].spotter.decide(scores: scored.scores, at: scored.index).map { lanes[index].named($0) }
            }
        }
        for watch in watchedDetections.indices {
            for detection in Self.inTimeOrder(watchedDetections[watch]) {
                watchedUtterances[watch] += 1
                watchedPieces[watch].append(piece(for: detection, utterance: watchedUtterances[watch]))
            }
        }
        return Self.inTimeOrder(detections).map { detection in
            utterance += 1
            return piece(for: detection, utterance: utterance)
        }
    }

    /// Detections of several lanes in the order their peaks ended.
    private static func inTimeOrder(_ detections: [NeuralWakeSpotter.Detection]) -> [NeuralWakeSpotter.Detection] {
        detections.count < 2 ? detections : detections.sorted { ($0.endSeconds, $0.phraseIndex) < ($1.endSeconds, $1.phraseIndex) }
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
    /// sweeps, and the heads' leans with both routes. Each watched threshold
    /// gives exactly the pieces this engine would give with
    /// `thresholdOverride` set to it (utterance numbers apart), from the
    /// same head scores: a watch adds a decision per step, not a head
    /// evaluation. Replaces any earlier watch; call it before `start`.
    package func watch(thresholds: [Double]) {
        for index in lanes.indices {
            lanes[index].watchedFresh = thresholds.map { threshold in
                let fresh = lanes[index].fresh
                let phrases = fresh.phrases.map { phrase in
                    var moved = phrase
                    moved.threshold = Float(threshold)
                    return moved
                }
                return NeuralWakeSpotter(phrases: phrases, dimension: fresh.dimension, settings: fresh.settings)
            }
            lanes[index].watched = lanes[index].watchedFresh
        }
        watchedUtterances = thresholds.map { _ in Self.firstUtterance }
        watchedPieces = thresholds.map { _ in [] }
    }

    /// The pieces each watched threshold gave since the last call, in
    /// `watch(thresholds:)` order.
    package func takeWatchedPieces() -> [[TranscriptPiece]] {
        defer { for index in watchedPieces.indices { watchedPieces[index].removeAll() } }
        return watchedPieces
    }

    /// Nothing is pending at the end of a stream: a detection is reported as
    /// soon as its peak is past.
    package func finish() throws(TranscriberError) -> [TranscriptPiece] { [] }

    package func reset() { restart(at: nextSample) }

    /// The front end and heads adapt to nothing: the same as `reset`.
    package func forgetAdaptation() throws(TranscriberError) { reset() }

    /// The highest score each model's head gave since the last call, in
    /// `models` order (numbers only: for near misses and the benchmark).
    package func takeMaxScores() -> [Float] {
        var scores = [Float](repeating: 0, count: models.count)
        for index in lanes.indices {
            for (position, score) in lanes[index].spotter.takeMaxScores().enumerated() {
                scores[lanes[index].modelIndices[position]] = score
            }
        }
        return scores
    }

    private func restart(at sample: Int64) {
        for index in lanes.indices {
            lanes[index].embedder.reset()
            lanes[index].suppressor?.reset()
            lanes[index].spotter = lanes[index].fresh
            lanes[index].watched = lanes[index].watchedFresh
        }
        for index in watchedPieces.indices { watchedPieces[index].removeAll() }
        streamStartSample = sample
        nextSample = sample
    }
}

fileprivate extension NeuralTranscriber.Lane {
    /// `detection` with its phrase index into the engine's `models`.
    func named(_ detection: NeuralWakeSpotter.Detection) -> NeuralWakeSpotter.Detection {
        var named = detection
        named.phraseIndex = modelIndices[detection.phraseIndex]
        return named
    }
}
