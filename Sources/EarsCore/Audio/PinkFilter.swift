/// Paul Kellet's refined 1/f filter (seven one-pole sections over white
/// noise): −3 dB per octave across the speech band, the published
/// coefficients. Shared by the microphone floor and training's pink noise
/// (`NoiseGenerator`). Its RMS for unit white noise in is
/// `MicrophoneFloor.filterGain` (about 3.05), not 1: callers scale.
package struct PinkFilter: Sendable, Equatable {
    private var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0

    /// A filter at rest.
    package init() {}

    /// The filter's output for the next white sample.
    package mutating func next(white: Double) -> Double {
        b0 = 0.99886 * b0 + white * 0.0555179
        b1 = 0.99332 * b1 + white * 0.0750759
        b2 = 0.96900 * b2 + white * 0.1538520
        b3 = 0.86650 * b3 + white * 0.3104856
        b4 = 0.55000 * b4 + white * 0.5329522
        b5 = -0.7616 * b5 - white * 0.0168980
        let out = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
        b6 = white * 0.115926
        return out
    }
}
