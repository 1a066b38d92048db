import Foundation

/// SplitMix64: a small seeded random number generator of our own, so the
/// same seed gives the same shuffles, initial weights and dropout masks on
/// every machine and every Swift version (the standard library's generator
/// is neither seedable nor specified).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1, 24 random bits (exact in a Float).
    public mutating func unitFloat() -> Float {
        Float(next() >> 40) * (1.0 / Float(1 << 24))
    }

    /// Uniform in 0..<bound, without modulo bias worth speaking of (bound ≪ 2⁶⁴).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Standard normal, by Box–Muller on 53-bit uniforms.
    public mutating func gaussian() -> Float {
        let u1 = (Double(next() >> 11) + 1) * (1.0 / 9_007_199_254_740_993.0)
        let u2 = Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
        return Float((-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }

    /// Fisher–Yates shuffle driven by this generator (the standard library's
    /// `shuffle(using:)` does not promise the same order across versions).
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(i, below(i + 1))
        }
    }
}
