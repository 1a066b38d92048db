import Foundation
import Testing
@testable import EarsCore
@testable import EarsNeural

/// The wake head's forward pass, against arithmetic done by hand and a
/// plain reference loop.
@Suite struct WakeHeadTests {
    /// Window 2 × dimension 2, hidden 3, one output: small enough to compute by hand.
    static func tinyHead(leak: Float = 0, normalized: Bool = false) -> WakeHead {
        let hidden = WakeHead.Layer(inputs: 4, outputs: 3,
                                    weights: [1, 0, -1, 2,
                                              0.5, 0.5, 0.5, 0.5,
                                              -1, -1, 0, 0],
                                    biases: [0.5, -1, 0])
        let output = WakeHead.Layer(inputs: 3, outputs: 1, weights: [1, -2, 0.25], biases: [-0.5])
        return WakeHead(windowEmbeddings: 2, dimension: 2, layers: [hidden, output], leak: leak,
                        featureMean: normalized ? [1, 2] : [], featureScale: normalized ? [2, 0.5] : [])
    }

    static func sigmoid(_ z: Double) -> Double { 1 / (1 + exp(-z)) }

    @Test func theForwardPassEqualsTheHandComputation() {
        // x = [1, 2, 3, 4]
        // hidden pre-activations: 1 + 0 − 3 + 8 + 0.5 = 6.5; 0.5·10 − 1 = 4; −1 − 2 = −3 → ReLU [6.5, 4, 0]
        // output: 6.5 − 8 + 0 − 0.5 = −2
        let score = Self.tinyHead().score(window: [1, 2, 3, 4])
        #expect(abs(Double(score) - Self.sigmoid(-2)) < 1e-6)
    }

    @Test func aLeakyRectifierPassesASlopeOfNegativeInputs() {
        // As above with leak 0.1: the third hidden unit gives −0.3, the output 6.5 − 8 − 0.075 − 0.5 = −2.075.
        let score = Self.tinyHead(leak: 0.1).score(window: [1, 2, 3, 4])
        #expect(abs(Double(score) - Self.sigmoid(-2.075)) < 1e-6)
    }

    @Test func normalisationAppliesPerDimensionAcrossTheWindow() {
        // (x − [1, 2, 1, 2]) · [2, 0.5, 2, 0.5] for x = [2, 4, 0, 2] gives [2, 1, −2, 0]:
        // hidden 2 + 2 + 0.5 = 4.5; 0.5·1 − 1 = −0.5 → 0; −2 − 1 = −3 → 0; output 4.5 − 0.5 = 4.
        let score = Self.tinyHead(normalized: true).score(window: [2, 4, 0, 2])
        #expect(abs(Double(score) - Self.sigmoid(4)) < 1e-6)
    }

    @Test func aRealisticHeadAgreesWithAPlainReferenceLoop() {
        var generator = SeededGenerator(seed: 7)
        var head = WakeHead.initialized(windowEmbeddings: 16, dimension: 96, hidden: [37, 10], leak: 0.01,
                                        generator: &generator)
        head.featureMean = (0..<96).map { _ in generator.gaussianFloat() }
        head.featureScale = (0..<96).map { _ in 0.5 + generator.unitFloat() }
        let windows = (0..<5).map { _ in (0..<1536).map { _ in generator.gaussianFloat() } }
        let batch = head.scores(windows: windows.flatMap { $0 })
        for (window, batchScore) in zip(windows, batch) {
            var values = window.enumerated().map { Double(($1 - head.featureMean[$0 % 96]) * head.featureScale[$0 % 96]) }
            for (l, layer) in head.layers.enumerated() {
                values = (0..<layer.outputs).map { o in
                    var z = Double(layer.biases[o])
                    for i in 0..<layer.inputs { z += Double(layer.weights[o * layer.inputs + i]) * values[i] }
                    return l < head.layers.count - 1 && z < 0 ? z * 0.01 : z
                }
            }
            let expected = Self.sigmoid(values[0])
            #expect(abs(Double(head.score(window: window)) - expected) < 1e-5)
            #expect(abs(Double(batchScore) - expected) < 1e-5)
            #expect(abs(Double(head.score(window: window[...])) - expected) < 1e-5)
        }
    }

    @Test func aTemporalConvolutionAppliesOneKernelAtEveryPositionThenReadsThemAll() {
        var generator = SeededGenerator(seed: 12)
        var head = WakeHead.initialized(windowEmbeddings: 16, dimension: 96, hidden: [6, 5], leak: 0.02,
                                        kernelEmbeddings: 4, generator: &generator)
        head.featureMean = (0..<96).map { _ in generator.gaussianFloat() }
        head.featureScale = (0..<96).map { _ in 0.5 + generator.unitFloat() }
        #expect(head.positions == 13)
        #expect(head.layers[0].inputs == 4 * 96 && head.layers[1].inputs == 13 * 6)
        let windows = (0..<4).map { _ in (0..<1536).map { _ in generator.gaussianFloat() } }
        let batch = head.scores(windows: windows.flatMap { $0 })
        let rectify = { (z: Double) in z < 0 ? z * 0.02 : z }
        for (window, batchScore) in zip(windows, batch) {
            let x = window.enumerated().map { Double(($1 - head.featureMean[$0 % 96]) * head.featureScale[$0 % 96]) }
            let kernel = head.layers[0]
            var values: [Double] = []
            for position in 0..<13 {
                for o in 0..<6 {
                    var z = Double(kernel.biases[o])
                    for i in 0..<(4 * 96) { z += Double(kernel.weights[o * 4 * 96 + i]) * x[position * 96 + i] }
                    values.append(rectify(z))
                }
            }
            for (l, layer) in head.layers.enumerated().dropFirst() {
                values = (0..<layer.outputs).map { o in
                    var z = Double(layer.biases[o])
                    for i in 0..<layer.inputs { z += Double(layer.weights[o * layer.inputs + i]) * values[i] }
                    return l < head.layers.count - 1 ? rectify(z) : z
                }
            }
            let expected = Self.sigmoid(values[0])
            #expect(abs(Double(head.score(window: window)) - expected) < 1e-5)
            #expect(abs(Double(batchScore) - expected) < 1e-5)
        }
    }

    @Test func aConvolutionThatDoesNotFitTheWindowOrHasNothingAfterItIsNotAHead() {
        let kernel = WakeHead.Layer(inputs: 6, outputs: 2, weights: [Float](repeating: 0, count: 12), biases: [0, 0])
        let output = WakeHead.Layer(inputs: 4, outputs: 1, weights: [0, 0, 0, 0], biases: [0])
        #expect(WakeHead.problem(windowEmbeddings: 3, dimension: 3, layers: [kernel, output], featureMean: [], featureScale: [],
                                 kernelEmbeddings: 2) == nil, "2 positions × 2 channels feed 4 inputs")
        #expect(WakeHead.problem(windowEmbeddings: 3, dimension: 3, layers: [kernel, output], featureMean: [], featureScale: [],
                                 kernelEmbeddings: 4) != nil)
        let single = WakeHead.Layer(inputs: 6, outputs: 1, weights: [Float](repeating: 0, count: 6), biases: [0])
        #expect(WakeHead.problem(windowEmbeddings: 3, dimension: 3, layers: [single], featureMean: [], featureScale: [],
                                 kernelEmbeddings: 2) != nil)
    }

    @Test func theSameSeedInitialisesTheSameHead() {
        var a = SeededGenerator(seed: 3), b = SeededGenerator(seed: 3), c = SeededGenerator(seed: 4)
        let first = WakeHead.initialized(generator: &a)
        #expect(first == WakeHead.initialized(generator: &b))
        #expect(first != WakeHead.initialized(generator: &c))
        #expect(first.inputCount == 1536 && first.hiddenSizes == [64])
    }
}
