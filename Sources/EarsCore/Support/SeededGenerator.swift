import Foundation // log and cos only

/// A small, seeded, reproducible random number generator (SplitMix64,
/// Steele, Lea and Flood 2014) for everything `ears train` draws: the plan,
/// the noise and augmentations, the shuffles, initial weights and dropout
/// masks. The same seed gives the same model on every machine and Swift
/// version (`SystemRandomNumberGenerator` cannot be seeded, and the standard
/// library's distributions over it are not promised to be stable, so the
/// helpers below derive their values from the raw 64-bit words themselves).
package struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    /// The SplitMix64 state: advanced by the golden-ratio increment per word.
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniform in [0, 1), from the top 53 bits.
    package mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A double uniform in `range`.
    package mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// An integer uniform in `0..<count` (`count` > 0); the tiny modulo bias
    /// of 64-bit words over small counts does not matter here.
    package mutating func index(below count: Int) -> Int {
        precondition(count > 0, "index(below:) needs a positive count")
        return Int(next() % UInt64(count))
    }

    /// An integer uniform in `range` (one `index(below: range.count)` draw).
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + index(below: range.count)
    }

    /// A uniformly chosen element of a non-empty array.
    package mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[index(below: elements.count)]
    }

    /// A standard normal deviate (Box–Muller), for white noise.
    package mutating func gaussian() -> Double {
        let u1 = max(unit(), 1e-300)
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A new generator seeded from this one: a child stream per clip, so a
    /// clip's randomness does not depend on how many draws came before it in
    /// another part of the plan.
    package mutating func child() -> SeededGenerator {
        SeededGenerator(seed: next())
    }

    /// Uniform in 0..<1, 24 random bits (exact in a Float).
    package mutating func unitFloat() -> Float {
        Float(next() >> 40) * (1.0 / Float(1 << 24))
    }

    /// Uniform in 0..<bound, without modulo bias worth speaking of (bound ≪ 2⁶⁴).
    package mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A standard normal deviate as a Float, by Box–Muller on 53-bit
    /// uniforms (initial weights).
    package mutating func gaussianFloat() -> Float {
        let u1 = (Double(next() >> 11) + 1) * (1.0 / 9_007_199_254_740_993.0)
        let u2 = Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
        return Float((-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }

    /// Fisher–Yates shuffle driven by this generator (the standard library's
    /// `shuffle(using:)` does not promise the same order across versions).
    package mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(i, below(i + 1))
        }
    }
}
