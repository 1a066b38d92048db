import Foundation
import Testing
@testable import EarsCore
@testable import EarsNeural

/// The streaming decision over wake heads, fed numbers: no audio, no clock.
@Suite struct NeuralWakeSpotterTests {
    /// A one-value head over a window of `window` one-value embeddings whose
    /// score is sigmoid(10·newest − 6): 0.98 for a 1, 0.0025 for a 0.
    static func newestValueHead(window: Int = 2) -> WakeHead {
        var weights = [Float](repeating: 0, count: window)
        weights[window - 1] = 10
        return WakeHead(windowEmbeddings: window, dimension: 1,
                        layers: [.init(inputs: window, outputs: 1, weights: weights, biases: [-6])])
    }

    static func spotter(threshold: Float = 0.5, settings: NeuralWakeSpotter.Settings = .init()) -> NeuralWakeSpotter {
        NeuralWakeSpotter(phrases: [.init(name: "hey ears", head: newestValueHead(), threshold: threshold, expectedSeconds: 0.8)],
                          dimension: 1, settings: settings)
    }

    /// Feeds raw scores straight to the decision, one step each.
    static func decide(_ spotter: inout NeuralWakeSpotter, _ scores: [Float], from start: Int = 0) -> [NeuralWakeSpotter.Detection] {
        scores.enumerated().flatMap { spotter.decide(scores: [$1], at: start + $0) }
    }

    @Test func aRunOfHighScoresFiresOnceAtItsPeak() throws {
        var spotter = Self.spotter()
        let detections = Self.decide(&spotter, [0.1, 0.2, 0.7, 0.9, 0.95, 0.9, 0.9, 0.9, 0.9, 0.2, 0.1])
        #expect(detections.count == 1)
        let d = try #require(detections.first)
        // Averages of two: 0.15, 0.45, 0.8 (crossing at 3), 0.925 (peak at 4), then 0.9…
        #expect(d.embeddingIndex == 4 && abs(d.score - 0.925) < 1e-6)
        #expect(abs(d.endSeconds - 0.4) < 1e-9 && abs(d.startSeconds - 0.0) < 1e-9) // 5 × 0.08, minus 0.8 clamped to 0
        #expect(d.phrase == "hey ears" && d.phraseIndex == 0)
    }

    @Test func scoresUnderTheThresholdNeverFire() {
        var spotter = Self.spotter(threshold: 0.6)
        // A lone spike averages to 0.5 with its neighbour: not a wake.
        #expect(Self.decide(&spotter, [0.1, 0.55, 0.59, 0.4, 0.75, 0.1, 0.58, 0.59, 0.3]).isEmpty)
    }

    @Test func aSecondRunWithinTheRefractoryPeriodDoesNotFireButOneAfterItDoes() {
        var spotter = Self.spotter()
        let high: [Float] = [0.9, 0.9, 0.9]
        let low: [Float] = [0.1, 0.1, 0.1]
        var detections = Self.decide(&spotter, high + low + high + low) // second run starts 0.48 s after the first
        #expect(detections.count == 1)
        // 1.5 s is 19 steps after the first detection (at step 1): a run starting at step 30 fires.
        detections = Self.decide(&spotter, [Float](repeating: 0.1, count: 18) + high, from: 12)
        #expect(detections.map(\.embeddingIndex) == [31])
    }

    @Test func aScoreHeldHighPastTheRefractoryPeriodStillFiresOnce() {
        var spotter = Self.spotter()
        #expect(Self.decide(&spotter, [Float](repeating: 0.95, count: 60)).count == 1)
    }

    @Test func withoutSmoothingOrPeakWaitingTheCrossingStepFires() {
        var settings = NeuralWakeSpotter.Settings()
        settings.averageSteps = 1
        settings.peakSteps = 0
        var spotter = Self.spotter(settings: settings)
        #expect(Self.decide(&spotter, [0.1, 0.7, 0.99, 0.1]).map(\.embeddingIndex) == [1])
    }

    @Test func embeddingsFlowThroughTheWindowToTheHeadWithStreamTimes() {
        var settings = NeuralWakeSpotter.Settings()
        settings.endOffsetSeconds = -0.04
        var spotter = Self.spotter(settings: settings)
        // The first embedding alone never fires: the two-embedding window is not full yet.
        let values: [Float] = [1, 0, 0, 0, 1, 1, 1, 0, 0]
        let detections = spotter.push(contentsOf: values.map { [$0] })
        #expect(detections.count == 1)
        #expect(detections.first?.embeddingIndex == 5)
        #expect(abs((detections.first?.endSeconds ?? 0) - (6 * 0.08 - 0.04)) < 1e-9)
        #expect(detections.first?.startSeconds == 0) // 0.44 s minus 0.8 s expected length, clamped to the stream start
        #expect(spotter.embeddingCount == 9)
    }

    @Test func theWindowHoldsTheLastEmbeddingsOldestFirst() {
        // Score = sigmoid(0.001·a + 0.01·b + 0.1·c) for the window [a, b, c].
        let head = WakeHead(windowEmbeddings: 3, dimension: 1,
                            layers: [.init(inputs: 3, outputs: 1, weights: [0.001, 0.01, 0.1], biases: [0])])
        var spotter = NeuralWakeSpotter(phrases: [.init(name: "x", head: head, threshold: 2)], dimension: 1)
        let values: [Float] = [3, 1, 4, 1, 5, 9, 2, 6]
        for (k, value) in values.enumerated() {
            _ = spotter.push([value])
            let score = spotter.takeMaxScores()[0]
            guard k >= 2 else { #expect(score == 0); continue }
            let logit = log(Double(score) / (1 - Double(score)))
            let expected = 0.001 * Double(values[k - 2]) + 0.01 * Double(values[k - 1]) + 0.1 * Double(value)
            #expect(abs(logit - expected) < 1e-4, "step \(k)")
        }
    }

    @Test func theMaximumScoreIsReportedOnceAndResetIsAFreshStream() {
        var spotter = Self.spotter()
        _ = spotter.push(contentsOf: [[0], [1], [0]])
        #expect(spotter.takeMaxScores()[0] > 0.98)
        #expect(spotter.takeMaxScores() == [0])
        _ = spotter.push(contentsOf: [[0], [1], [1]])
        spotter.reset()
        #expect(spotter.embeddingCount == 0)
        // After the reset, the old window is gone: one embedding does not fill it.
        #expect(spotter.push([1]).isEmpty && spotter.takeMaxScores() == [0])
    }

    @Test("scores taken once and decided at another threshold give what a spotter at that threshold pushes")
    func sharedScoresDecideLikeAPush() {
        // A medium run (scores 0.5, 0.73), then past the 1.5 s refractory time a loud one (0.98).
        let values: [[Float]] = [[0], [0.6], [0.7], [0]] + [[Float]](repeating: [0], count: 22) + [[1], [1], [0], [0]]
        var scorer = Self.spotter(threshold: 0.9)
        var shared = Self.spotter(threshold: 0.2) // decides only: never fed an embedding
        var pushedAtTheOwn = Self.spotter(threshold: 0.9)
        var pushedAtTheOther = Self.spotter(threshold: 0.2)
        var own: [NeuralWakeSpotter.Detection] = [], other: [NeuralWakeSpotter.Detection] = []
        var expectedOwn: [NeuralWakeSpotter.Detection] = [], expectedOther: [NeuralWakeSpotter.Detection] = []
        for value in values {
            let scored = scorer.score(value)
            own += scorer.decide(scores: scored.scores, at: scored.index)
            other += shared.decide(scores: scored.scores, at: scored.index)
            expectedOwn += pushedAtTheOwn.push(value)
            expectedOther += pushedAtTheOther.push(value)
        }
        #expect(own == expectedOwn && other == expectedOther)
        #expect(other.count > own.count, "the lower threshold hears the medium run too: \(other.count) vs \(own.count)")
        #expect(shared.embeddingCount == 0 && scorer.embeddingCount == values.count)
    }
}
