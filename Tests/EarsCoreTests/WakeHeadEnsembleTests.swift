import Testing
import EarsCore
@testable import EarsNeural

/// A head's logit on one window.
private func logit(_ head: WakeHead, _ window: [Float]) -> Float {
    window.withUnsafeBufferPointer { head.logit(window: $0) }
}

@Suite struct WakeHeadEnsembleTests {
    /// Three small heads from three seeds, sharing a normalisation, with biases set.
    private func members(hidden: [Int], leak: Float = 0.1) -> [WakeHead] {
        (1...3).map { seed in
            var generator = SeededGenerator(seed: UInt64(seed))
            var head = WakeHead.initialized(windowEmbeddings: 4, dimension: 3, hidden: hidden, leak: leak, generator: &generator)
            for index in head.layers.indices {
                head.layers[index].biases = head.layers[index].biases.map { _ in generator.gaussianFloat() * 0.3 }
            }
            head.featureMean = [0.1, -0.2, 0.3]
            head.featureScale = [1, 2, 0.5]
            return head
        }
    }

    @Test("the joined head's logit is the mean of its members' logits on every window", arguments: [[5], [5, 4]])
    func meanOfLogits(hidden: [Int]) throws {
        let heads = members(hidden: hidden)
        let joined = try #require(WakeHeadEnsemble.joined(heads))
        #expect(joined.hiddenSizes == hidden.map { $0 * 3 })
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<50 {
            let window = (0..<12).map { _ in generator.gaussianFloat() * 2 }
            let mean = heads.map { logit($0, window) }.reduce(0, +) / 3
            #expect(abs(logit(joined, window) - mean) < 1e-4)
        }
    }

    @Test("one head joins to itself; heads that read differently do not join")
    func compatibility() {
        let heads = members(hidden: [5])
        #expect(WakeHeadEnsemble.joined([heads[0]]) == heads[0])
        #expect(WakeHeadEnsemble.joined([]) == nil)
        var other = heads[1]
        other.featureMean = [0, 0, 0]
        #expect(WakeHeadEnsemble.problem([heads[0], other]) != nil)
        #expect(WakeHeadEnsemble.problem([heads[0], members(hidden: [5, 4])[0]]) == "the heads have different depths")
        var generator = SeededGenerator(seed: 1)
        let convolution = WakeHead.initialized(windowEmbeddings: 4, dimension: 3, hidden: [2, 2], kernelEmbeddings: 2, generator: &generator)
        #expect(WakeHeadEnsemble.joined([convolution, convolution]) == nil)
    }
}
