import EarsCore
/// A trained wake head: a small multilayer perceptron that reads the last
/// `windowEmbeddings` embeddings of a speech front end (flattened oldest
/// first, `windowEmbeddings × dimension` values) and answers how sure it is
/// that the window ends on its phrase, 0…1.
///
/// With `kernelEmbeddings` > 0 the first layer is a temporal convolution: the
/// same `kernelEmbeddings × dimension → outputs` weights read every run of
/// `kernelEmbeddings` consecutive embeddings (`positions` of them, stride 1),
/// so a sound is recognised by one set of weights wherever it falls in the
/// window; the next layer reads all positions' outputs (position-major), so
/// where the phrase ends still counts. With 0 the first layer reads the
/// whole flattened window.
///
/// Layout: each `Layer` holds `outputs × inputs` weights, row-major (row *o*
/// is output *o*'s fan-in), and `outputs` biases. Hidden layers use a
/// (leaky) rectifier with slope `leak` below zero (0 is a plain ReLU); the
/// last layer has one output and a logistic sigmoid. When `featureMean` and
/// `featureScale` are set (one value per embedding dimension, shared by
/// every position in the window), each input is first replaced by
/// `(x − mean[d]) · scale[d]`.
///
/// A value type with no shared state: `score` may run on any thread, and a
/// forward pass over 16 × 96 inputs takes microseconds.
package struct WakeHead: Sendable, Equatable {
    /// One dense layer: `outputs × inputs` row-major weights and `outputs` biases.
    package struct Layer: Sendable, Equatable {
        package let inputs: Int
        package let outputs: Int
        /// `weights[o * inputs + i]` is input *i*'s weight into output *o*.
        package var weights: [Float]
        package var biases: [Float]

        package init(inputs: Int, outputs: Int, weights: [Float], biases: [Float]) {
            precondition(inputs > 0 && outputs > 0, "a layer needs inputs and outputs")
            precondition(weights.count == inputs * outputs, "a layer needs inputs × outputs weights")
            precondition(biases.count == outputs, "a layer needs one bias per output")
            self.inputs = inputs
            self.outputs = outputs
            self.weights = weights
            self.biases = biases
        }
    }

    /// Embeddings per window (16 is 1.28 s at 80 ms a step).
    package let windowEmbeddings: Int
    /// Values per embedding (96 for openWakeWord's front end).
    package let dimension: Int
    /// The hidden layers then the output layer (one output).
    package var layers: [Layer]
    /// Slope of the rectifier below zero in hidden layers (0: ReLU).
    package var leak: Float
    /// Per-dimension mean subtracted from every input, or empty for none.
    package var featureMean: [Float]
    /// Per-dimension factor applied after the mean, or empty for none.
    package var featureScale: [Float]
    /// Embeddings one kernel of the first layer reads (a temporal
    /// convolution), or 0 when the first layer reads the whole window.
    package let kernelEmbeddings: Int

    package init(windowEmbeddings: Int, dimension: Int, layers: [Layer], leak: Float = 0,
                featureMean: [Float] = [], featureScale: [Float] = [], kernelEmbeddings: Int = 0) {
        precondition(windowEmbeddings > 0 && dimension > 0, "a head needs a window and a dimension")
        let problem = Self.problem(windowEmbeddings: windowEmbeddings, dimension: dimension, layers: layers,
                                   featureMean: featureMean, featureScale: featureScale, kernelEmbeddings: kernelEmbeddings)
        precondition(problem == nil, problem ?? "")
        self.kernelEmbeddings = kernelEmbeddings
        self.windowEmbeddings = windowEmbeddings
        self.dimension = dimension
        self.layers = layers
        self.leak = leak
        self.featureMean = featureMean
        self.featureScale = featureScale
    }

    /// Why these parts do not make a head, or nil when they do (the model
    /// file checks a decoded head with this before building it).
    static func problem(windowEmbeddings: Int, dimension: Int, layers: [Layer],
                        featureMean: [Float], featureScale: [Float], kernelEmbeddings: Int = 0) -> String? {
        guard windowEmbeddings > 0, dimension > 0 else { return "the window or dimension is empty" }
        guard let first = layers.first, let last = layers.last else { return "the head has no layers" }
        guard kernelEmbeddings >= 0, kernelEmbeddings <= windowEmbeddings else {
            return "a kernel of \(kernelEmbeddings) embeddings does not fit a window of \(windowEmbeddings)"
        }
        let readsWindow = kernelEmbeddings > 0 ? kernelEmbeddings * dimension : windowEmbeddings * dimension
        guard first.inputs == readsWindow else {
            return "the first layer reads \(first.inputs) values, the \(kernelEmbeddings > 0 ? "kernel" : "window") holds \(readsWindow)"
        }
        guard kernelEmbeddings == 0 || layers.count >= 2 else { return "a convolution needs a layer after it" }
        guard last.outputs == 1 else { return "the last layer has \(last.outputs) outputs, not 1" }
        let positions = kernelEmbeddings > 0 ? windowEmbeddings - kernelEmbeddings + 1 : 1
        for (index, (a, b)) in zip(layers, layers.dropFirst()).enumerated() {
            let fed = a.outputs * (index == 0 ? positions : 1)
            if fed != b.inputs { return "a layer of \(fed) outputs feeds one of \(b.inputs) inputs" }
        }
        guard featureMean.count == featureScale.count, featureMean.isEmpty || featureMean.count == dimension else {
            return "the normalisation has \(featureMean.count) means and \(featureScale.count) scales for \(dimension) dimensions"
        }
        return nil
    }

    /// A freshly initialised head (He-normal hidden layers, small output
    /// layer, zero biases, no normalisation), the same for the same generator state.
    /// With `kernelEmbeddings` > 0 the first hidden width is the
    /// convolution's channels (so `hidden` must not be empty).
    package static func initialized(windowEmbeddings: Int = 16, dimension: Int = 96, hidden: [Int] = [64],
                                   leak: Float = 0, kernelEmbeddings: Int = 0, generator: inout SeededGenerator) -> WakeHead {
        precondition(kernelEmbeddings == 0 || !hidden.isEmpty, "a convolution needs channels")
        var layers: [Layer] = []
        var fanIn = kernelEmbeddings > 0 ? kernelEmbeddings * dimension : windowEmbeddings * dimension
        let positions = kernelEmbeddings > 0 ? windowEmbeddings - kernelEmbeddings + 1 : 1
        for (index, width) in (hidden + [1]).enumerated() {
            let isOutput = index == hidden.count
            let deviation = ((isOutput ? 1 : 2) / Float(fanIn)).squareRoot()
            let weights = (0..<(fanIn * width)).map { _ in generator.gaussianFloat() * deviation }
            layers.append(Layer(inputs: fanIn, outputs: width, weights: weights,
                                biases: [Float](repeating: 0, count: width)))
            fanIn = width * (index == 0 ? positions : 1)
        }
        return WakeHead(windowEmbeddings: windowEmbeddings, dimension: dimension, layers: layers, leak: leak,
                        kernelEmbeddings: kernelEmbeddings)
    }

    /// Values per window: `windowEmbeddings × dimension`.
    package var inputCount: Int { windowEmbeddings * dimension }
    /// Widths of the hidden layers, e.g. `[64]`.
    package var hiddenSizes: [Int] { layers.dropLast().map(\.outputs) }
    /// Weights and biases in all layers.
    package var parameterCount: Int { layers.reduce(0) { $0 + $1.weights.count + $1.biases.count } }
    /// Whether inputs are normalised before the first layer.
    package var normalizes: Bool { !featureMean.isEmpty }
    /// Places the convolution's kernel is applied at (1 without one).
    package var positions: Int { kernelEmbeddings > 0 ? windowEmbeddings - kernelEmbeddings + 1 : 1 }
    /// Values layer `index` writes per window: its outputs, times `positions` for a convolution.
    package func activationWidth(_ index: Int) -> Int { layers[index].outputs * (index == 0 ? positions : 1) }
    /// Values the convolution's unrolled input holds per window (0 without one).
    var columnsPerWindow: Int { kernelEmbeddings > 0 ? positions * kernelEmbeddings * dimension : 0 }

    /// How sure the head is that `window` (`inputCount` values, oldest
    /// embedding first) ends on its phrase, 0…1.
    package func score(window: [Float]) -> Float {
        window.withUnsafeBufferPointer { score(window: $0) }
    }

    /// `score(window:)` for a slice, e.g. the tail of a longer history.
    package func score(window: ArraySlice<Float>) -> Float {
        window.withUnsafeBufferPointer { score(window: $0) }
    }

    /// `score(window:)` for a buffer of exactly `inputCount` values.
    package func score(window: UnsafeBufferPointer<Float>) -> Float {
        NeuralKernels.sigmoid(logit(window: window))
    }

    /// The output before the sigmoid (log-odds).
    package func logit(window: UnsafeBufferPointer<Float>) -> Float {
        precondition(window.count == inputCount, "a window of \(window.count) values for a head reading \(inputCount)")
        let widest = layers.indices.map(activationWidth).max() ?? 1
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: inputCount + 2 * widest) { scratch in
            let base = scratch.baseAddress!
            var input = UnsafePointer(window.baseAddress!)
            if normalizes {
                normalize(window.baseAddress!, into: base, rows: 1)
                input = UnsafePointer(base)
            }
            var current = base + inputCount
            var next = current + widest
            for (index, layer) in layers.enumerated() {
                // A convolution: the same weights at every position, whose
                // kernel-long run of embeddings is contiguous in the window.
                let places = index == 0 ? positions : 1
                layer.weights.withUnsafeBufferPointer { w in
                    layer.biases.withUnsafeBufferPointer { b in
                        for place in 0..<places {
                            NeuralKernels.affineRow(x: input + place * dimension, inputs: layer.inputs, w: w.baseAddress!,
                                                    bias: b.baseAddress!, outputs: layer.outputs, z: current + place * layer.outputs)
                        }
                    }
                }
                if index < layers.count - 1 {
                    activate(current, count: layer.outputs * places)
                }
                input = UnsafePointer(current)
                swap(&current, &next)
            }
            return input[0]
        }
    }

    /// Scores many windows at once (`windows.count` a multiple of
    /// `inputCount`), faster than one at a time, on two threads if
    /// `threads` > 1 (same results); the same values as `score` up to
    /// rounding in the last place.
    package func scores(windows: [Float], threads: Int = 1) -> [Float] {
        precondition(windows.count % inputCount == 0, "windows must be whole")
        let rows = windows.count / inputCount
        var logits = [Float](repeating: 0, count: rows)
        let chunk = 256
        var hidden: [[Float]] = layers.indices.map { [Float](repeating: 0, count: chunk * activationWidth($0)) }
        var normalized = [Float](repeating: 0, count: normalizes ? chunk * inputCount : 0)
        var columns = [Float](repeating: 0, count: chunk * columnsPerWindow)
        windows.withUnsafeBufferPointer { all in
            var start = 0
            while start < rows {
                let count = min(chunk, rows - start)
                let input = all.baseAddress! + start * inputCount
                if normalizes {
                    normalized.withUnsafeMutableBufferPointer { n in
                        normalize(input, into: n.baseAddress!, rows: count)
                        forward(input: UnsafePointer(n.baseAddress!), rows: count, into: &hidden, columns: &columns, threads: threads)
                    }
                } else {
                    forward(input: input, rows: count, into: &hidden, columns: &columns, threads: threads)
                }
                for r in 0..<count { logits[start + r] = hidden[layers.count - 1][r] }
                start += count
            }
        }
        return logits.map(NeuralKernels.sigmoid)
    }

    /// Runs the layers over `rows` already-normalised rows; `outputs[l]` gets
    /// layer *l*'s activations (the last one's logits). With a convolution,
    /// `columns` (at least `rows × columnsPerWindow`) gets the unrolled
    /// input the first layer read: one row of `kernelEmbeddings × dimension`
    /// per window and position, so the convolution is one matrix product.
    func forward(input: UnsafePointer<Float>, rows: Int, into outputs: inout [[Float]], columns: inout [Float],
                 threads: Int = 1) {
        var previous = input
        if kernelEmbeddings > 0 {
            columns.withUnsafeMutableBufferPointer { unrolled in
                unroll(input, rows: rows, into: unrolled.baseAddress!)
                previous = UnsafePointer(unrolled.baseAddress!)
            }
        }
        for (index, layer) in layers.enumerated() {
            let layerRows = rows * (index == 0 ? positions : 1)
            // `previous` points into `columns` or an earlier `outputs` entry, neither touched below.
            outputs[index].withUnsafeMutableBufferPointer { out in
                layer.weights.withUnsafeBufferPointer { w in
                    layer.biases.withUnsafeBufferPointer { b in
                        NeuralKernels.affine(x: previous, rows: layerRows, inputs: layer.inputs, w: w.baseAddress!,
                                             bias: b.baseAddress!, outputs: layer.outputs, z: out.baseAddress!,
                                             threads: threads)
                    }
                }
                if index < layers.count - 1 { activate(out.baseAddress!, count: layerRows * layer.outputs) }
                previous = UnsafePointer(out.baseAddress!)
            }
        }
    }

    /// The convolution's input as rows: for each window and position, the
    /// `kernelEmbeddings × dimension` values starting at that position.
    func unroll(_ input: UnsafePointer<Float>, rows: Int, into target: UnsafeMutablePointer<Float>) {
        let run = kernelEmbeddings * dimension
        var offset = 0
        for row in 0..<rows {
            let window = input + row * inputCount
            for place in 0..<positions {
                (target + offset).update(from: window + place * dimension, count: run)
                offset += run
            }
        }
    }

    /// Writes `rows` normalised windows from `source` into `target`.
    func normalize(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, rows: Int) {
        featureMean.withUnsafeBufferPointer { mean in
            featureScale.withUnsafeBufferPointer { scale in
                var offset = 0
                for _ in 0..<(rows * windowEmbeddings) {
                    for d in 0..<dimension {
                        target[offset + d] = (source[offset + d] - mean[d]) * scale[d]
                    }
                    offset += dimension
                }
            }
        }
    }

    /// The hidden-layer rectifier, in place.
    @inline(__always)
    func activate(_ values: UnsafeMutablePointer<Float>, count: Int) {
        let slope = leak
        for i in 0..<count where values[i] < 0 { values[i] *= slope }
    }
}
