/// The streaming decision over trained wake heads: fed a front end's
/// embeddings one at a time, it keeps the last window, scores every phrase's
/// head and reports a detection when a phrase's score crosses its threshold.
/// Pure value type: no I/O, no clock (time is the embedding count times the
/// step), so it is tested by feeding it numbers.
///
/// Per phrase: the score is smoothed by a moving average of the last
/// `averageSteps` scores (one high window alone is not a wake); once the
/// smoothed score reaches the threshold the spotter waits up to `peakSteps`
/// more steps for the peak, and reports the peak (its score and time: the
/// window that best ends on the phrase). After a detection the phrase stays
/// silent for `refractorySeconds` and until its smoothed score has fallen
/// below the threshold, so one utterance fires once.
package struct NeuralWakeSpotter: Sendable {
    /// One phrase to listen for.
    package struct Phrase: Sendable, Equatable {
        /// The phrase as configured, reported in detections.
        package var name: String
        package var head: WakeHead
        /// Smoothed score at or above which the phrase is heard.
        package var threshold: Float
        /// Typical spoken length, for the start-time estimate.
        package var expectedSeconds: Double

        package init(name: String, head: WakeHead, threshold: Float, expectedSeconds: Double = 1.0) {
            self.name = name
            self.head = head
            self.threshold = threshold
            self.expectedSeconds = expectedSeconds
        }

        /// A trained model's phrase, head and threshold.
        package init(model: WakeModel, expectedSeconds: Double = 1.0) {
            self.init(name: model.phrase, head: model.head, threshold: model.threshold, expectedSeconds: expectedSeconds)
        }
    }

    package struct Settings: Sendable, Equatable {
        /// Seconds of audio per embedding (0.08 for openWakeWord's front end).
        package var stepSeconds = 0.08
        /// Added to `(index + 1) × stepSeconds` to place an embedding's end
        /// in the stream (negative when the front end's output lags the audio).
        package var endOffsetSeconds = 0.0
        /// Scores averaged before the threshold (1: none).
        package var averageSteps = 2
        /// Steps to wait after the crossing for a higher score (0: report at once).
        package var peakSteps = 1
        /// Seconds after a detection in which the same phrase cannot fire.
        package var refractorySeconds = 1.5

        package init() {}
    }

    /// A heard phrase.
    package struct Detection: Sendable, Equatable {
        /// Index into `phrases`.
        package var phraseIndex: Int
        package var phrase: String
        /// The smoothed score at the peak, 0…1.
        package var score: Float
        /// Estimated start of the phrase, seconds since the stream started (≥ 0).
        package var startSeconds: Double
        /// Where the peak window ends, seconds since the stream started.
        package var endSeconds: Double
        /// The embedding (0-based, since the stream started) the peak window ends on.
        package var embeddingIndex: Int
    }

    /// Per-phrase decision state.
    struct Tracker: Sendable {
        var recent: [Float] = []
        var armed = true
        var quietUntil = 0
        var candidate: (index: Int, score: Float, stepsLeft: Int)?
        var maxScore: Float = 0
    }

    package let phrases: [Phrase]
    package let settings: Settings
    /// Values per embedding, the same for every head.
    package let dimension: Int
    /// Embeddings pushed since the stream started (or `reset`).
    package private(set) var embeddingCount = 0

    private let capacity: Int
    /// The last `capacity` embeddings, each written twice (slot and slot +
    /// capacity) so every window is one contiguous run.
    private var history: [Float]
    var trackers: [Tracker]

    package init(phrases: [Phrase], dimension: Int = 96, settings: Settings = Settings()) {
        precondition(phrases.allSatisfy { $0.head.dimension == dimension },
                     "every head must read embeddings of \(dimension) values")
        precondition(settings.stepSeconds > 0 && settings.averageSteps >= 1 && settings.peakSteps >= 0)
        self.phrases = phrases
        self.settings = settings
        self.dimension = dimension
        capacity = max(1, phrases.map(\.head.windowEmbeddings).max() ?? 1)
        history = [Float](repeating: 0, count: 2 * capacity * dimension)
        trackers = Array(repeating: Tracker(), count: phrases.count)
    }

    /// Feeds one embedding (`dimension` values); returns the detections it completed.
    package mutating func push(_ embedding: [Float]) -> [Detection] {
        let scored = score(embedding)
        return decide(scores: scored.scores, at: scored.index)
    }

    /// Keeps one embedding (`dimension` values) in the window and returns
    /// each phrase's raw score for the window ending on it (nil while that
    /// phrase's window is not full), with the embedding's index, without
    /// deciding: `push` is this then `decide(scores:at:)`. A caller that
    /// decides the same heads at other thresholds (`NeuralTranscriber.watch`)
    /// scores once here and hands the scores to every spotter's `decide`,
    /// rather than running each head once per threshold.
    package mutating func score(_ embedding: [Float]) -> (index: Int, scores: [Float?]) {
        precondition(embedding.count == dimension, "an embedding of \(embedding.count) values, expected \(dimension)")
        let index = embeddingCount
        let slot = index % capacity
        history.withUnsafeMutableBufferPointer { h in
            embedding.withUnsafeBufferPointer { e in
                (h.baseAddress! + slot * dimension).update(from: e.baseAddress!, count: dimension)
                (h.baseAddress! + (slot + capacity) * dimension).update(from: e.baseAddress!, count: dimension)
            }
        }
        embeddingCount += 1
        let end = (slot + 1) + capacity // one past the newest embedding, in the doubled buffer
        let scores: [Float?] = history.withUnsafeBufferPointer { h in
            phrases.map { phrase in
                let window = phrase.head.windowEmbeddings
                guard embeddingCount >= window else { return nil }
                let start = (end - window) * dimension
                return phrase.head.score(window: UnsafeBufferPointer(rebasing: h[start..<(start + window * dimension)]))
            }
        }
        return (index, scores)
    }

    /// Feeds embeddings in stream order; returns the detections, oldest first.
    package mutating func push(contentsOf embeddings: [[Float]]) -> [Detection] {
        embeddings.flatMap { push($0) }
    }

    /// The highest score each phrase's head gave since the last call (0 if
    /// none), for diagnostics and near misses; resets them.
    package mutating func takeMaxScores() -> [Float] {
        defer { for i in trackers.indices { trackers[i].maxScore = 0 } }
        return trackers.map(\.maxScore)
    }

    /// Forgets the stream: the next embedding is index 0 of a new one.
    package mutating func reset() {
        embeddingCount = 0
        history.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        trackers = Array(repeating: Tracker(), count: phrases.count)
    }

    /// The decision for one step, given each phrase's raw score for the
    /// window ending on embedding `index` (nil while its window is not full),
    /// in `phrases` order. Steps must come in index order; the window
    /// (`score`) is not needed, so a spotter that only decides — at other
    /// thresholds over another spotter's scores — keeps no embeddings.
    package mutating func decide(scores: [Float?], at index: Int) -> [Detection] {
        var detections: [Detection] = []
        let refractorySteps = Int((settings.refractorySeconds / settings.stepSeconds).rounded(.up))
        for p in phrases.indices {
            guard let raw = scores[p] else { continue }
            var t = trackers[p]
            t.maxScore = max(t.maxScore, raw)
            t.recent.append(raw)
            if t.recent.count > settings.averageSteps { t.recent.removeFirst() }
            let smoothed = t.recent.reduce(0, +) / Float(t.recent.count)
            let threshold = phrases[p].threshold

            if var candidate = t.candidate {
                if smoothed > candidate.score { candidate.index = index; candidate.score = smoothed }
                candidate.stepsLeft -= 1
                t.candidate = candidate
            } else if t.armed, index >= t.quietUntil, smoothed >= threshold {
                t.candidate = (index, smoothed, settings.peakSteps)
            } else if !t.armed, smoothed < threshold {
                t.armed = true
            }
            if let candidate = t.candidate, candidate.stepsLeft <= 0 || smoothed < threshold {
                detections.append(detection(phrase: p, index: candidate.index, score: candidate.score))
                t.candidate = nil
                t.armed = smoothed < threshold
                t.quietUntil = candidate.index + refractorySteps
            }
            trackers[p] = t
        }
        return detections
    }

    private func detection(phrase p: Int, index: Int, score: Float) -> Detection {
        let end = Double(index + 1) * settings.stepSeconds + settings.endOffsetSeconds
        return Detection(phraseIndex: p, phrase: phrases[p].name, score: score,
                         startSeconds: max(0, end - phrases[p].expectedSeconds), endSeconds: max(0, end),
                         embeddingIndex: index)
    }
}
