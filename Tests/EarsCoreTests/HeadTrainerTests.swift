import Testing
@testable import EarsCore
@testable import EarsNeural

/// Training a wake head: loss goes down, a separable toy set is separated,
/// and a seed fixes the outcome.
@Suite struct HeadTrainerTests {
    /// Windows of 4 × 3 values; the label is which side of a fixed plane the window lies on.
    static func toySet(count: Int, seed: UInt64) -> [WakeExample] {
        var generator = SeededGenerator(seed: seed)
        let plane: [Float] = (0..<12).map { Float($0 % 5) - 2 + 0.3 }
        return (0..<count).map { _ in
            let window = (0..<12).map { _ in generator.gaussianFloat() * 2 + 1 }
            let side = zip(window, plane).reduce(Float(0)) { $0 + $1.0 * $1.1 } - 3
            return WakeExample(window: window, label: side > 0 ? 1 : 0)
        }
    }

    static func toySettings(seed: UInt64 = 5) -> HeadTrainer.Settings {
        var s = HeadTrainer.Settings()
        s.windowEmbeddings = 4
        s.dimension = 3
        s.hidden = [8]
        s.epochs = 40
        s.batchSize = 16
        s.learningRate = 0.01
        s.seed = seed
        return s
    }

    @Test func oneTrainingStepLowersTheLoss() {
        let examples = [
            WakeExample(window: [1, 0, 2, 1, 0, 1, 1, 1, 0, 2, 0, 1], label: 1),
            WakeExample(window: [0, 1, 0, 0, 2, 0, 0, 1, 1, 0, 2, 0], label: 0),
            WakeExample(window: [2, 0, 1, 1, 0, 2, 1, 0, 0, 1, 0, 2], label: 1),
            WakeExample(window: [0, 2, 0, 1, 1, 0, 0, 2, 1, 0, 1, 0], label: 0),
        ]
        var s = Self.toySettings()
        s.epochs = 1
        s.batchSize = 4
        s.normalize = false
        s.weightDecay = 0
        var generator = SeededGenerator(seed: s.seed)
        let untrained = WakeHead.initialized(windowEmbeddings: 4, dimension: 3, hidden: [8], generator: &generator)
        let (trained, report) = HeadTrainer(settings: s).train(examples: examples, validation: examples)
        let before = HeadTrainer.evaluate(untrained, examples) { $0.weight }.loss
        let after = HeadTrainer.evaluate(trained, examples) { $0.weight }.loss
        #expect(report.epochs.count == 1)
        #expect(abs(report.epochs[0].trainLoss - before) < 1e-5, "the step's loss is the untrained head's")
        #expect(after < before)
    }

    @Test("the backpropagated gradient matches finite differences, for a dense first layer and a temporal convolution",
          arguments: [0, 2])
    func theBackpropagatedGradientMatchesFiniteDifferences(kernelEmbeddings: Int) {
        var generator = SeededGenerator(seed: 17)
        let head = WakeHead.initialized(windowEmbeddings: 4, dimension: 3, hidden: [5, 6], leak: 0.3,
                                        kernelEmbeddings: kernelEmbeddings, generator: &generator)
        let examples = (0..<7).map { k in
            WakeExample(window: (0..<12).map { _ in generator.gaussianFloat() }, label: k % 3 == 0 ? 1 : 0)
        }
        var s = HeadTrainer.Settings()
        s.weightDecay = 0
        var state = BatchState(head: head, batchSize: examples.count)
        var stepped = head
        _ = state.step(head: &stepped, examples: examples, batch: Array(examples.indices)[...], weight: { _ in 1 },
                       settings: s, step: 1, generator: &generator)
        func loss(_ h: WakeHead) -> Double {
            examples.reduce(0.0) { total, e in
                let z = e.window.withUnsafeBufferPointer { h.logit(window: $0) }
                return total + Double(NeuralKernels.softplus(z) - e.label * z)
            } / Double(examples.count)
        }
        for l in head.layers.indices {
            for k in stride(from: 0, to: head.layers[l].weights.count, by: 3) {
                var plus = head, minus = head
                plus.layers[l].weights[k] += 1e-2
                minus.layers[l].weights[k] -= 1e-2
                let numeric = (loss(plus) - loss(minus)) / 2e-2
                let analytic = Double(state.weightGradients[l][k])
                #expect(abs(numeric - analytic) < 2e-3 + 0.02 * abs(analytic), "layer \(l) weight \(k)")
            }
            for k in head.layers[l].biases.indices {
                var plus = head, minus = head
                plus.layers[l].biases[k] += 1e-2
                minus.layers[l].biases[k] -= 1e-2
                let numeric = (loss(plus) - loss(minus)) / 2e-2
                #expect(abs(numeric - Double(state.biasGradients[l][k])) < 2e-3 + 0.02 * abs(numeric), "layer \(l) bias \(k)")
            }
        }
    }

    @Test func trainingSeparatesALinearlySeparableSet() {
        let train = Self.toySet(count: 600, seed: 11)
        let validation = Self.toySet(count: 200, seed: 12)
        let test = Self.toySet(count: 400, seed: 13)
        let (head, report) = HeadTrainer(settings: Self.toySettings()).train(examples: train, validation: validation)
        let correct = test.count { (head.score(window: $0.window) >= 0.5) == ($0.label == 1) }
        #expect(Double(correct) / Double(test.count) >= 0.95, "\(correct) of \(test.count) right")
        #expect(report.bestEpoch > 0 && report.ending != .cancelled)
        #expect(report.positives + report.negatives == 600)
    }

    @Test func theSameSeedGivesIdenticalWeightsAndAnotherSeedDoesNot() {
        let train = Self.toySet(count: 200, seed: 21)
        let validation = Self.toySet(count: 60, seed: 22)
        var s = Self.toySettings()
        s.epochs = 5
        s.dropout = 0.2
        let first = HeadTrainer(settings: s).train(examples: train, validation: validation)
        let second = HeadTrainer(settings: s).train(examples: train, validation: validation)
        s.seed = 6
        let third = HeadTrainer(settings: s).train(examples: train, validation: validation)
        #expect(first.head == second.head)
        #expect(first.report.epochs == second.report.epochs)
        #expect(first.head != third.head)
    }

    @Test func twoThreadsTrainExactlyTheWeightsOneThreadDoes() {
        var generator = SeededGenerator(seed: 51)
        let examples = (0..<151).map { k in
            WakeExample(window: (0..<96).map { _ in generator.gaussianFloat() + (k % 4 == 0 ? 0.5 : 0) }, label: k % 4 == 0 ? 1 : 0)
        }
        var s = HeadTrainer.Settings()
        s.windowEmbeddings = 8
        s.dimension = 12
        s.hidden = [46, 9] // big enough to split, widths not multiples of four
        s.epochs = 3
        s.batchSize = 32
        s.dropout = 0.1
        let single = HeadTrainer(settings: s).train(examples: examples, validation: Array(examples.prefix(40)))
        s.threads = 2
        let double = HeadTrainer(settings: s).train(examples: examples, validation: Array(examples.prefix(40)))
        #expect(single.head == double.head)
        #expect(single.report.epochs == double.report.epochs)
        let windows = examples.flatMap(\.window)
        #expect(single.head.scores(windows: windows) == single.head.scores(windows: windows, threads: 2))
    }

    @Test func progressIsReportedEachEpochAndAStopRequestEndsTheRun() {
        let train = Self.toySet(count: 100, seed: 31)
        var s = Self.toySettings()
        s.epochs = 3
        s.patience = 0
        var seen: [Int] = []
        let full = HeadTrainer(settings: s).train(examples: train, validation: train,
                                                  progress: { epoch, epochs, _, validationLoss in
            #expect(epochs == 3 && validationLoss.isFinite)
            seen.append(epoch)
        })
        #expect(seen == [1, 2, 3] && full.report.ending == .completed)

        var asked = 0
        let stopped = HeadTrainer(settings: s).train(examples: train, validation: train, shouldStop: {
            asked += 1
            return asked > 10 // 7 batches an epoch: stops in the second epoch
        })
        #expect(stopped.report.ending == .cancelled)
        #expect(stopped.report.epochs.count == 1 && stopped.report.bestEpoch == 1)
    }

    @Test func aLossThatIsNotANumberEndsTheRunAsDiverged() {
        var train = Self.toySet(count: 64, seed: 41)
        train[3].window[5] = .nan
        let (head, report) = HeadTrainer(settings: Self.toySettings()).train(examples: train, validation: train)
        #expect(report.ending == .diverged && report.bestEpoch == 0)
        #expect(head.layers.allSatisfy { $0.weights.allSatisfy(\.isFinite) })
    }

    @Test func positivesAreWeightedUpToBalanceTheClasses() {
        let examples = (0..<40).map { WakeExample(window: [Float](repeating: Float($0), count: 12), label: $0 < 10 ? 1 : 0) }
        var s = Self.toySettings()
        s.epochs = 1
        #expect(HeadTrainer(settings: s).train(examples: examples).report.positiveWeight == 3)
    }

    @Test func averagePrecisionRanksPositivesAboveNegatives() {
        #expect(HeadTrainer.averagePrecision(scores: [0.9, 0.8, 0.1], labels: [1, 1, 0], weights: [1, 1, 1]) == 1)
        // Ranked: neg, pos, neg, pos → precision 1/2 at the first positive, 2/4 at the second.
        let ap = HeadTrainer.averagePrecision(scores: [0.9, 0.8, 0.7, 0.6], labels: [0, 1, 0, 1], weights: [1, 1, 1, 1])
        #expect(ap == 0.5)
        #expect(HeadTrainer.averagePrecision(scores: [0.5], labels: [1], weights: [1]) == nil)
    }

    @Test func aMaskCoversARunOfEmbeddingsOrABandOfChannelsAndNothingElse() {
        var s = Self.toySettings()
        s.embeddingMaskChance = 1
        s.embeddingMaskMaxRun = 2
        var generator = SeededGenerator(seed: 9)
        // 50 windows of 4 embeddings × 3 channels, every value 1.
        var input = [Float](repeating: 1, count: 50 * 12)
        BatchState.mask(&input, rows: 50, windowEmbeddings: 4, dimension: 3, settings: s, generator: &generator)
        var runs = Set<Int>()
        for r in 0..<50 {
            let zeroed = (0..<4).filter { e in (0..<3).allSatisfy { input[r * 12 + e * 3 + $0] == 0 } }
            let touched = (0..<4).filter { e in (0..<3).contains { input[r * 12 + e * 3 + $0] == 0 } }
            #expect(zeroed == touched, "whole embeddings are masked")
            #expect(zeroed.count == 1 || zeroed.count == 2)
            #expect(zeroed.last! - zeroed.first! == zeroed.count - 1, "one run")
            runs.insert(zeroed.count)
        }
        #expect(runs == [1, 2])

        s.embeddingMaskChance = 0
        s.channelMaskChance = 1
        s.channelMaskMaxBand = 2
        input = [Float](repeating: 1, count: 50 * 12)
        BatchState.mask(&input, rows: 50, windowEmbeddings: 4, dimension: 3, settings: s, generator: &generator)
        for r in 0..<50 {
            let channels = (0..<3).filter { c in input[r * 12 + c] == 0 }
            #expect(channels.count == 1 || channels.count == 2)
            for e in 1..<4 {
                #expect((0..<3).filter { c in input[r * 12 + e * 3 + c] == 0 } == channels, "the same band in every embedding")
            }
        }
    }

    @Test func noMaskChanceLeavesTrainingAsItWas() {
        let train = Self.toySet(count: 64, seed: 3)
        var masked = Self.toySettings()
        masked.epochs = 3
        let plain = HeadTrainer(settings: masked).train(examples: train).head
        masked.embeddingMaskChance = 0.5
        let changed = HeadTrainer(settings: masked).train(examples: train).head
        masked.embeddingMaskChance = 0
        let again = HeadTrainer(settings: masked).train(examples: train).head
        #expect(plain.layers[0].weights == again.layers[0].weights)
        #expect(plain.layers[0].weights != changed.layers[0].weights)
    }
}
