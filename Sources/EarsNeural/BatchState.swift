import Foundation
import EarsCore

/// The trainer's working memory for one batch: activations, gradients and
/// Adam's moments, allocated once per run.
struct BatchState {
    /// The batch's windows, normalised, one row of `WakeHead.inputCount` each.
    var input: [Float]
    /// The convolution's unrolled input (`WakeHead.forward`), empty without one.
    var columns: [Float]
    /// Each layer's outputs for the batch (after its activation, dropout applied).
    var activations: [[Float]]
    /// Each hidden layer's dropout mask (0 or 1 / keep), the shape of its activations.
    var masks: [[Float]]
    /// The loss's gradient with respect to each layer's pre-activation outputs.
    var deltas: [[Float]]
    /// Each layer's weight gradient for the batch.
    var weightGradients: [[Float]]
    /// Each layer's bias gradient for the batch.
    var biasGradients: [[Float]]
    /// Adam's first moments of each layer's weights, kept across steps.
    var weightMoments: [[Float]]
    /// Adam's second moments of each layer's weights, kept across steps.
    var weightVariances: [[Float]]
    /// Adam's first moments of each layer's biases, kept across steps.
    var biasMoments: [[Float]]
    /// Adam's second moments of each layer's biases, kept across steps.
    var biasVariances: [[Float]]

    /// Zeroed memory for batches of up to `batchSize` windows of `head`.
    init(head: WakeHead, batchSize: Int) {
        input = [Float](repeating: 0, count: batchSize * head.inputCount)
        columns = [Float](repeating: 0, count: batchSize * head.columnsPerWindow)
        activations = head.layers.indices.map { [Float](repeating: 0, count: batchSize * head.activationWidth($0)) }
        masks = activations
        deltas = activations
        weightGradients = head.layers.map { [Float](repeating: 0, count: $0.weights.count) }
        biasGradients = head.layers.map { [Float](repeating: 0, count: $0.biases.count) }
        weightMoments = weightGradients
        weightVariances = weightGradients
        biasMoments = biasGradients
        biasVariances = biasGradients
    }

    /// Masks, in a batch of normalised windows (`rows` × `windowEmbeddings`
    /// × `dimension`, oldest embedding first), a run of embeddings with
    /// `embeddingMaskChance` and a band of channels with `channelMaskChance`
    /// per window, setting them to 0 (the training mean after normalisation).
    static func mask(_ input: inout [Float], rows: Int, windowEmbeddings: Int, dimension: Int,
                     settings s: HeadTrainer.Settings, generator: inout SeededGenerator) {
        let width = windowEmbeddings * dimension
        for r in 0..<rows {
            let base = r * width
            if s.embeddingMaskChance > 0, generator.unitFloat() < s.embeddingMaskChance {
                let run = 1 + generator.index(below: max(1, min(s.embeddingMaskMaxRun, windowEmbeddings)))
                let start = generator.index(below: windowEmbeddings - run + 1)
                for i in (base + start * dimension)..<(base + (start + run) * dimension) { input[i] = 0 }
            }
            if s.channelMaskChance > 0, generator.unitFloat() < s.channelMaskChance {
                let band = 1 + generator.index(below: max(1, min(s.channelMaskMaxBand, dimension)))
                let start = generator.index(below: dimension - band + 1)
                for e in 0..<windowEmbeddings {
                    let first = base + e * dimension + start
                    for i in first..<(first + band) { input[i] = 0 }
                }
            }
        }
    }

    /// One Adam step on `batch`; returns the batch's mean weighted loss.
    mutating func step(head: inout WakeHead, examples: [WakeExample], batch: ArraySlice<Int>,
                       weight: (WakeExample) -> Float, settings s: HeadTrainer.Settings, step: Int,
                       generator: inout SeededGenerator) -> Float {
        let rows = batch.count
        let inputs = head.inputCount
        let layerCount = head.layers.count

        // Gather (and normalise) the batch into one contiguous block.
        input.withUnsafeMutableBufferPointer { block in
            for (r, index) in batch.enumerated() {
                examples[index].window.withUnsafeBufferPointer { w in
                    let target = block.baseAddress! + r * inputs
                    if head.normalizes {
                        head.normalize(w.baseAddress!, into: target, rows: 1)
                    } else {
                        target.update(from: w.baseAddress!, count: inputs)
                    }
                }
            }
        }

        if s.embeddingMaskChance > 0 || s.channelMaskChance > 0 {
            Self.mask(&input, rows: rows, windowEmbeddings: head.windowEmbeddings, dimension: head.dimension,
                      settings: s, generator: &generator)
        }

        // Forward, with inverted dropout on hidden activations.
        input.withUnsafeBufferPointer { x in
            head.forward(input: x.baseAddress!, rows: rows, into: &activations, columns: &columns, threads: s.threads)
        }
        if s.dropout > 0 {
            let keep = 1 - s.dropout
            for l in 0..<(layerCount - 1) {
                let count = rows * head.activationWidth(l)
                for i in 0..<count {
                    let m: Float = generator.unitFloat() < keep ? 1 / keep : 0
                    masks[l][i] = m
                    activations[l][i] *= m
                }
            }
            // Dropout changed what the later layers see: run them again.
            for l in 1..<layerCount {
                let layer = head.layers[l]
                let previous = activations[l - 1]
                activations[l].withUnsafeMutableBufferPointer { out in
                    previous.withUnsafeBufferPointer { x in
                        layer.weights.withUnsafeBufferPointer { w in
                            layer.biases.withUnsafeBufferPointer { b in
                                NeuralKernels.affine(x: x.baseAddress!, rows: rows, inputs: layer.inputs, w: w.baseAddress!,
                                                     bias: b.baseAddress!, outputs: layer.outputs, z: out.baseAddress!)
                            }
                        }
                    }
                    if l < layerCount - 1 {
                        head.activate(out.baseAddress!, count: rows * layer.outputs)
                        for i in 0..<(rows * layer.outputs) { out[i] *= masks[l][i] }
                    }
                }
            }
        }

        // Loss and the output delta: w (p − y) / rows.
        var loss: Float = 0
        let last = layerCount - 1
        for (r, index) in batch.enumerated() {
            let e = examples[index]
            let z = activations[last][r]
            let w = weight(e)
            loss += w * (NeuralKernels.softplus(z) - e.label * z)
            deltas[last][r] = w * (NeuralKernels.sigmoid(z) - e.label) / Float(rows)
        }

        // Backward.
        for l in stride(from: last, through: 0, by: -1) {
            let layer = head.layers[l]
            weightGradients[l].withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            biasGradients[l].withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            // A convolution's weights are shared by every position: their
            // gradient sums over (window, position) rows of the unrolled input.
            let below = l > 0 ? activations[l - 1] : head.kernelEmbeddings > 0 ? columns : input
            let layerRows = rows * (l == 0 ? head.positions : 1)
            deltas[l].withUnsafeBufferPointer { dz in
                below.withUnsafeBufferPointer { x in
                    weightGradients[l].withUnsafeMutableBufferPointer { dw in
                        biasGradients[l].withUnsafeMutableBufferPointer { db in
                            NeuralKernels.accumulateWeightGradient(dz: dz.baseAddress!, x: x.baseAddress!, rows: layerRows,
                                                                   inputs: layer.inputs, outputs: layer.outputs,
                                                                   dw: dw.baseAddress!, dbias: db.baseAddress!,
                                                                   threads: s.threads)
                        }
                    }
                }
            }
            if l > 0 {
                let slope = head.leak
                let dropping = s.dropout > 0
                let current = deltas[l]
                let activation = activations[l - 1]
                let mask = masks[l - 1]
                deltas[l - 1].withUnsafeMutableBufferPointer { dx in
                    current.withUnsafeBufferPointer { dz in
                        layer.weights.withUnsafeBufferPointer { w in
                            NeuralKernels.backpropagateInput(dz: dz.baseAddress!, w: w.baseAddress!, rows: rows,
                                                             inputs: layer.inputs, outputs: layer.outputs, dx: dx.baseAddress!)
                        }
                    }
                    // Through the rectifier (an output ≤ 0 came from a negative
                    // input, or was dropped) and the dropout mask.
                    for i in 0..<(rows * layer.inputs) {
                        if activation[i] <= 0 { dx[i] *= slope }
                        if dropping { dx[i] *= mask[i] }
                    }
                }
            }
        }

        // Adam with decoupled weight decay (on weights, not biases).
        let beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8
        let t = Float(step)
        let rate = s.learningRate * (1 - powf(beta2, t)).squareRoot() / (1 - powf(beta1, t))
        let decay = 1 - s.learningRate * s.weightDecay
        for l in 0...last {
            Self.adam(&head.layers[l].weights, weightGradients[l], &weightMoments[l], &weightVariances[l],
                      rate: rate, decay: decay, beta1: beta1, beta2: beta2, epsilon: epsilon)
            Self.adam(&head.layers[l].biases, biasGradients[l], &biasMoments[l], &biasVariances[l],
                      rate: rate, decay: 1, beta1: beta1, beta2: beta2, epsilon: epsilon)
        }
        return loss / Float(rows)
    }

    /// One Adam update of `parameters` in place from `gradient`, with the
    /// bias-corrected `rate` and `decay` (1: none) applied to the parameters first.
    static func adam(_ parameters: inout [Float], _ gradient: [Float], _ moment: inout [Float], _ variance: inout [Float],
                     rate: Float, decay: Float, beta1: Float, beta2: Float, epsilon: Float) {
        parameters.withUnsafeMutableBufferPointer { p in
            gradient.withUnsafeBufferPointer { g in
                moment.withUnsafeMutableBufferPointer { m in
                    variance.withUnsafeMutableBufferPointer { v in
                        for i in 0..<p.count {
                            let gi = g[i]
                            m[i] = beta1 * m[i] + (1 - beta1) * gi
                            v[i] = beta2 * v[i] + (1 - beta2) * gi * gi
                            p[i] = p[i] * decay - rate * m[i] / (v[i].squareRoot() + epsilon)
                        }
                    }
                }
            }
        }
    }
}
