import Foundation
import EarsCore

/// One training window for a wake head: `window` holds `windowEmbeddings ×
/// dimension` values (oldest embedding first), `label` is 1 for "ends on the
/// phrase" and 0 otherwise, `weight` scales its share of the loss.
package struct WakeExample: Sendable, Equatable {
    package var window: [Float]
    package var label: Float
    package var weight: Float

    package init(window: [Float], label: Float, weight: Float = 1) {
        self.window = window
        self.label = label
        self.weight = weight
    }
}

/// Trains a `WakeHead` on labelled windows: mini-batch Adam on weighted
/// binary cross-entropy (positives weighted up to balance the classes),
/// decoupled weight decay, optional dropout after hidden layers, and early
/// stopping on a validation set that keeps the best epoch. Deterministic:
/// the same examples, settings and seed give bit-identical weights.
/// One thread by default (`Settings.threads` 2 uses a second core for the
/// big products, with identical results); about 20–30 µs per example and
/// epoch for a 1536-64-1 head on one core.
package struct HeadTrainer: Sendable {
    /// How the best epoch is chosen on the validation set.
    package enum Selection: String, Sendable {
        /// Lowest weighted validation cross-entropy.
        case validationLoss
        /// Highest average precision (area under the precision–recall curve):
        /// rewards ranking every positive above the negatives, the measure
        /// closest to "few false wakes at a usable recall".
        case averagePrecision
    }

    package struct Settings: Sendable, Equatable {
        package var windowEmbeddings = 16
        package var dimension = 96
        package var hidden = [64]
        /// Embeddings per kernel of a temporal convolution as the first
        /// layer (`WakeHead.kernelEmbeddings`; its channels are `hidden[0]`),
        /// 0 for a first layer that reads the whole window.
        package var kernelEmbeddings = 0
        /// Rectifier slope below zero (0: ReLU).
        package var leak: Float = 0
        package var epochs = 30
        package var batchSize = 128
        package var learningRate: Float = 1e-3
        /// Decoupled (AdamW) decay per step, as a fraction of the learning rate.
        package var weightDecay: Float = 1e-4
        /// Probability of dropping a hidden activation while training (0: none).
        package var dropout: Float = 0
        /// Probability that a training window has a run of its embeddings
        /// masked (set to the training mean) for one step, as SpecAugment
        /// masks time: the head may not hang on any one 80 ms of the phrase,
        /// which babble or a voice it never heard may change (0: none).
        package var embeddingMaskChance: Float = 0
        /// Longest run of embeddings one mask covers (1…this, uniformly).
        package var embeddingMaskMaxRun = 2
        /// Probability that a training window has a band of its channels
        /// masked in every embedding for one step (0: none).
        package var channelMaskChance: Float = 0
        /// Widest band of channels one mask covers (1…this, uniformly).
        package var channelMaskMaxBand = 12
        /// Weight of a positive relative to a negative; nil balances the classes
        /// (total positive weight equals total negative weight).
        package var positiveWeight: Float? = nil
        /// Fit a per-dimension mean and scale on the training windows.
        package var normalize = true
        /// Epochs without improvement before stopping (0: never stop early).
        package var patience = 6
        package var selection = Selection.validationLoss
        package var seed: UInt64 = 1
        /// Threads for the big layer's products: 1, or 2 to use a second
        /// core. The work is split so the weights are bit-identical either way.
        package var threads = 1

        package init() {}
    }

    /// What one epoch measured.
    package struct Epoch: Sendable, Equatable {
        /// Mean weighted loss over the epoch's batches (with dropout, if any).
        package var trainLoss: Float
        /// Weighted validation loss, nil without a validation set.
        package var validationLoss: Float?
        /// Validation average precision, nil without a validation set with both classes.
        package var averagePrecision: Float?
    }

    /// How a run ended and what it measured.
    package struct Report: Sendable, Equatable {
        package enum Ending: String, Sendable {
            /// Ran every epoch.
            case completed
            /// Stopped after `patience` epochs without improvement.
            case stoppedEarly
            /// `shouldStop` said so; the head is the best epoch finished before it.
            case cancelled
            /// The loss stopped being a number (inputs holding NaN or infinity,
            /// or far too high a learning rate); the head is the best epoch before it.
            case diverged
        }
        package var ending: Ending
        package var epochs: [Epoch]
        /// The 1-based epoch whose weights were kept (0: none finished).
        package var bestEpoch: Int
        package var trainingExamples: Int
        package var validationExamples: Int
        package var positives: Int
        package var negatives: Int
        /// The weight each positive carried relative to a negative.
        package var positiveWeight: Float
        /// Wall-clock seconds the run took.
        package var seconds: Double

        /// The kept epoch's figures, if one finished.
        package var best: Epoch? { bestEpoch > 0 ? epochs[bestEpoch - 1] : nil }
    }

    package var settings: Settings

    package init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Trains a head. `progress` is called after each epoch with (epoch,
    /// epochs, training loss, validation loss or NaN); `shouldStop` is asked
    /// between batches, and when it says yes the run ends with the best epoch
    /// finished so far (or the untrained head, if none) and `.cancelled`.
    package func train(examples: [WakeExample], validation: [WakeExample] = [],
                      progress: (_ epoch: Int, _ epochs: Int, _ trainLoss: Float, _ validationLoss: Float) -> Void = { _, _, _, _ in },
                      shouldStop: () -> Bool = { false }) -> (head: WakeHead, report: Report) {
        let started = ContinuousClock.now
        let s = settings
        let inputs = s.windowEmbeddings * s.dimension
        for example in [examples, validation].joined() {
            precondition(example.window.count == inputs, "a window of \(example.window.count) values, expected \(inputs)")
            precondition(example.label == 0 || example.label == 1, "labels are 0 or 1")
        }
        var generator = SeededGenerator(seed: s.seed)
        var head = WakeHead.initialized(windowEmbeddings: s.windowEmbeddings, dimension: s.dimension,
                                        hidden: s.hidden, leak: s.leak, kernelEmbeddings: s.kernelEmbeddings,
                                        generator: &generator)
        if s.normalize, !examples.isEmpty {
            (head.featureMean, head.featureScale) = Self.fitNormalization(examples, dimension: s.dimension)
        }

        // Class weights, normalised so the mean training weight is 1.
        let positiveTotal = examples.reduce(0.0) { $0 + ($1.label == 1 ? Double($1.weight) : 0) }
        let negativeTotal = examples.reduce(0.0) { $0 + ($1.label == 0 ? Double($1.weight) : 0) }
        let positiveWeight = s.positiveWeight
            ?? (positiveTotal > 0 && negativeTotal > 0 ? Float(negativeTotal / positiveTotal) : 1)
        let rawTotal = Double(positiveWeight) * positiveTotal + negativeTotal
        let unit = rawTotal > 0 ? Float(Double(examples.count) / rawTotal) : 1
        func effectiveWeight(_ e: WakeExample) -> Float { e.weight * (e.label == 1 ? positiveWeight : 1) * unit }

        var report = Report(ending: .completed, epochs: [], bestEpoch: 0, trainingExamples: examples.count,
                            validationExamples: validation.count,
                            positives: examples.count { $0.label == 1 }, negatives: examples.count { $0.label == 0 },
                            positiveWeight: positiveWeight, seconds: 0)
        guard !examples.isEmpty else {
            report.seconds = Self.seconds(since: started)
            return (head, report)
        }

        var state = BatchState(head: head, batchSize: s.batchSize)
        var order = Array(examples.indices)
        var best = head
        var bestMeasure = Float.infinity
        var sinceImprovement = 0
        var step = 0
        let epochCount = max(1, s.epochs)
        epochs: for epoch in 1...epochCount {
            generator.shuffle(&order)
            var lossSum: Double = 0, weightSum: Double = 0
            var start = 0
            while start < order.count {
                if shouldStop() {
                    report.ending = .cancelled
                    break epochs
                }
                let batch = order[start..<min(start + s.batchSize, order.count)]
                step += 1
                let loss = state.step(head: &head, examples: examples, batch: batch, weight: effectiveWeight,
                                      settings: s, step: step, generator: &generator)
                lossSum += Double(loss) * Double(batch.count)
                weightSum += Double(batch.count)
                start += s.batchSize
            }
            let trainLoss = Float(lossSum / max(weightSum, 1))
            guard trainLoss.isFinite else {
                report.ending = .diverged
                break
            }
            var record = Epoch(trainLoss: trainLoss, validationLoss: nil, averagePrecision: nil)
            if !validation.isEmpty {
                let scored = Self.evaluate(head, validation, threads: s.threads, weight: effectiveWeight)
                record.validationLoss = scored.loss
                record.averagePrecision = scored.averagePrecision
            }
            report.epochs.append(record)
            progress(epoch, epochCount, trainLoss, record.validationLoss ?? .nan)

            // Lower is better for the selection measure.
            let measure: Float = switch s.selection {
            case .validationLoss: record.validationLoss ?? trainLoss
            case .averagePrecision: record.averagePrecision.map { -$0 } ?? record.validationLoss ?? trainLoss
            }
            if measure < bestMeasure || report.bestEpoch == 0 {
                bestMeasure = measure
                best = head
                report.bestEpoch = epoch
                sinceImprovement = 0
            } else {
                sinceImprovement += 1
                if s.patience > 0, sinceImprovement >= s.patience, !validation.isEmpty {
                    report.ending = .stoppedEarly
                    break
                }
            }
        }
        report.seconds = Self.seconds(since: started)
        return (best, report)
    }

    /// Weighted loss and average precision of `head` on `examples`.
    static func evaluate(_ head: WakeHead, _ examples: [WakeExample], threads: Int = 1,
                         weight: (WakeExample) -> Float) -> (loss: Float, averagePrecision: Float?) {
        var scores: [Float] = []
        scores.reserveCapacity(examples.count)
        let chunk = 512
        var start = 0
        var flat: [Float] = []
        while start < examples.count {
            let end = min(start + chunk, examples.count)
            flat.removeAll(keepingCapacity: true)
            for e in examples[start..<end] { flat.append(contentsOf: e.window) }
            scores.append(contentsOf: head.scores(windows: flat, threads: threads))
            start = end
        }
        var loss: Double = 0, total: Double = 0
        for (e, p) in zip(examples, scores) {
            let w = Double(weight(e))
            let clamped = Double(min(max(p, 1e-7), 1 - 1e-7))
            loss -= w * (Double(e.label) * log(clamped) + Double(1 - e.label) * log(1 - clamped))
            total += w
        }
        let ap = averagePrecision(scores: scores, labels: examples.map(\.label), weights: examples.map(weight))
        return (Float(loss / max(total, 1e-12)), ap)
    }

    /// Weighted average precision: the mean, over positives ranked by
    /// score, of the precision at that positive's rank (ties broken
    /// pessimistically: negatives first). Nil unless both classes are present.
    package static func averagePrecision(scores: [Float], labels: [Float], weights: [Float]) -> Float? {
        let order = scores.indices.sorted {
            scores[$0] != scores[$1] ? scores[$0] > scores[$1] : labels[$0] < labels[$1]
        }
        let positiveTotal = zip(labels, weights).reduce(0.0) { $0 + ($1.0 == 1 ? Double($1.1) : 0) }
        guard positiveTotal > 0, labels.contains(0) else { return nil }
        var truePositive = 0.0, seen = 0.0, sum = 0.0
        for i in order {
            let w = Double(weights[i])
            seen += w
            if labels[i] == 1 {
                truePositive += w
                sum += w * truePositive / seen
            }
        }
        return Float(sum / positiveTotal)
    }

    /// Per-dimension mean and 1/standard deviation over every position of every window.
    static func fitNormalization(_ examples: [WakeExample], dimension: Int) -> (mean: [Float], scale: [Float]) {
        var sum = [Double](repeating: 0, count: dimension)
        var squares = [Double](repeating: 0, count: dimension)
        var count = 0.0
        for e in examples {
            e.window.withUnsafeBufferPointer { w in
                var offset = 0
                while offset < w.count {
                    for d in 0..<dimension {
                        let x = Double(w[offset + d])
                        sum[d] += x
                        squares[d] += x * x
                    }
                    offset += dimension
                }
            }
            count += Double(e.window.count / dimension)
        }
        var mean = [Float](repeating: 0, count: dimension)
        var scale = [Float](repeating: 1, count: dimension)
        for d in 0..<dimension {
            let m = sum[d] / count
            let variance = max(0, squares[d] / count - m * m)
            mean[d] = Float(m)
            scale[d] = variance > 1e-8 ? Float(1 / variance.squareRoot()) : 1
        }
        return (mean, scale)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
