/// Adds the faintest noise a 16-bit stream can carry — −1, 0 or +1 to each
/// sample, equally likely (about −92 dBFS) — to what the engines hear, so
/// that digital silence never reaches them. Measured and not kept (the
/// commit after this one reverts it; docs/training.md, the row "the engines
/// never hear digital silence"): near-misses 29 → 32 for one clean call.
///
/// Why: a microphone always delivers its own noise, many times this level;
/// exact zeros come from a muted input, a software noise gate, a satellite
/// that sends silence between utterances — and the benchmark's "clean"
/// stream, whose calls sit in digital silence. The heads never heard exact
/// zeros in training, and heard fewer calls there than over a 40 dB noise
/// floor. The benchmark's clean stream with about this much white noise
/// added (0.6 and 1.2 LSB RMS, by sox) gave the page of record's models 4
/// and 3 more of the 105 calls of the voices they trained on, and 1 and 2
/// more of the 60 of the engines they never heard (docs/training.md, the
/// row "the heads never hear digital silence").
///
/// On audio from a real microphone it changes nothing that matters: its
/// noise floor is tens of decibels above one least significant bit. The
/// ring a capture hands on keeps the audio as it came.
///
/// Deterministic: a fixed seed, restarted by `reset()`, so a file scanned
/// twice is heard the same way. Pure; one instance per stream.
package struct LeastBitDither: Sendable, Equatable {
    /// The generator's state after `reset()`.
    package static let seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var state: UInt64 = LeastBitDither.seed

    /// A dither at its seed.
    package init() {}

    /// Restarts the noise at its seed (a new stream).
    package mutating func reset() {
        state = Self.seed
    }

    /// `samples` with −1, 0 or +1 added to each, equally likely; a sample at
    /// the end of the 16-bit range stays there. Same count, same order.
    package mutating func apply(_ samples: [Int16]) -> [Int16] {
        samples.map { sample in
            let step = Int32(next() % 3) - 1
            return Int16(clamping: Int32(sample) + step)
        }
    }

    /// xorshift64*: the high bits of its product are evenly spread, which is
    /// all a dither asks (the modulo's bias over 2^32 values is below 1e-9).
    private mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return (state &* 0x2545_F491_4F6C_DD1D) >> 32
    }
}
