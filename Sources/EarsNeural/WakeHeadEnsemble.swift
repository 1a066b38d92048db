import EarsCore

/// Several heads trained on the same windows from different seeds, joined
/// into one head whose logit is the mean of theirs.
///
/// Why one head and not a list: averaging the logits of dense heads that
/// read the same window with the same normalisation is itself a dense head.
/// The members' hidden units sit side by side (the first layer's rows
/// stacked, deeper hidden layers block-diagonal, so no unit reads another
/// member's), and the output layer reads all of them with each member's
/// weights divided by the member count and the biases averaged. The model
/// file, the spotter and the scoring code stay as they are; a 3-member
/// ensemble of 1,536 → 64 → 1 heads is a 1,536 → 192 → 1 head (about 0.3
/// million multiply-adds a window, 12.5 windows a second).
///
/// Why an ensemble: heads from different seeds make different confident
/// mistakes on speech they never heard; the mean logit keeps what they
/// agree on (docs/training.md, the lever table).
package enum WakeHeadEnsemble {
    /// Why `heads` cannot be joined, or nil when they can: at least one
    /// head; every head dense (no temporal kernel), with the same window,
    /// dimension, leak, normalisation and hidden layer count.
    package static func problem(_ heads: [WakeHead]) -> String? {
        guard let first = heads.first else { return "an ensemble needs at least one head" }
        for head in heads {
            guard head.kernelEmbeddings == 0 else { return "a head with a temporal kernel cannot be joined" }
            guard head.windowEmbeddings == first.windowEmbeddings, head.dimension == first.dimension else {
                return "the heads read different windows"
            }
            guard head.leak == first.leak, head.featureMean == first.featureMean, head.featureScale == first.featureScale else {
                return "the heads normalise or rectify differently"
            }
            guard head.layers.count == first.layers.count else { return "the heads have different depths" }
        }
        return nil
    }

    /// One head whose logit is the mean of `heads`' logits on every window;
    /// a single head comes back unchanged. Nil when `problem(heads)` names one.
    package static func joined(_ heads: [WakeHead]) -> WakeHead? {
        guard problem(heads) == nil, let first = heads.first else { return nil }
        if heads.count == 1 { return first }
        let depth = first.layers.count
        var layers: [WakeHead.Layer] = []
        for index in 0..<depth {
            let members = heads.map { $0.layers[index] }
            if index == depth - 1 {
                layers.append(averagedOutput(members))
            } else if index == 0 {
                layers.append(stacked(members))
            } else {
                layers.append(blockDiagonal(members))
            }
        }
        return WakeHead(windowEmbeddings: first.windowEmbeddings, dimension: first.dimension, layers: layers,
                        leak: first.leak, featureMean: first.featureMean, featureScale: first.featureScale)
    }

    /// First layers that read the same inputs: their rows one after another.
    private static func stacked(_ members: [WakeHead.Layer]) -> WakeHead.Layer {
        WakeHead.Layer(inputs: members[0].inputs, outputs: members.reduce(0) { $0 + $1.outputs },
                       weights: members.flatMap(\.weights), biases: members.flatMap(\.biases))
    }

    /// Hidden layers that each read only their own member's units.
    private static func blockDiagonal(_ members: [WakeHead.Layer]) -> WakeHead.Layer {
        let inputs = members.reduce(0) { $0 + $1.inputs }
        var weights: [Float] = []
        var offset = 0
        for member in members {
            for row in 0..<member.outputs {
                var full = [Float](repeating: 0, count: inputs)
                for column in 0..<member.inputs { full[offset + column] = member.weights[row * member.inputs + column] }
                weights += full
            }
            offset += member.inputs
        }
        return WakeHead.Layer(inputs: inputs, outputs: members.reduce(0) { $0 + $1.outputs },
                              weights: weights, biases: members.flatMap(\.biases))
    }

    /// Output layers (one output each) joined into one that reads every
    /// member's units: each member's weights over the count, biases averaged.
    private static func averagedOutput(_ members: [WakeHead.Layer]) -> WakeHead.Layer {
        let share = 1 / Float(members.count)
        return WakeHead.Layer(inputs: members.reduce(0) { $0 + $1.inputs }, outputs: 1,
                              weights: members.flatMap { $0.weights.map { $0 * share } },
                              biases: [members.reduce(0) { $0 + $1.biases[0] } * share])
    }
}
