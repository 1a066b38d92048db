import Foundation // cos, atan2 and hypot only

/// Vocal-tract-length perturbation (VTLP, Jaitly and Hinton 2013) on the
/// waveform: every short-time spectrum's frequency axis is stretched by
/// `factor` below a boundary and squeezed above it so that 0 and the Nyquist
/// frequency stay put, then the frames are added back together. A factor
/// above 1 moves formants up (a shorter vocal tract, as a child's or a small
/// adult's), below 1 down: speakers the synthesizers' stock voices do not
/// have. The speech's timing is kept, and so is its length to the sample.
///
/// Method: a phase vocoder. 32 ms Hann frames every 8 ms (75% overlap);
/// each output bin takes the magnitude interpolated at its source frequency,
/// and its phase advances frame to frame at the nearest source bin's
/// measured frequency, warped (so a moved harmonic stays one coherent tone
/// rather than a smear); overlap-add with the window's squared sum divided
/// out. Pure: samples in, samples out.
package struct FormantWarp: Sendable, Equatable {
    /// Warp factors the planner draws (±12%: the spread between adult voices).
    package static let factorRange: ClosedRange<Double> = 0.88...1.12
    /// Frame length in samples (32 ms at 16 kHz), a power of two for the transform.
    package static let frameSamples = 512
    /// Hop between frames in samples (8 ms).
    package static let hopSamples = 128
    /// The boundary frequency of the piecewise-linear warp, in Hz: below it
    /// frequencies scale by the factor, above it they bend to keep Nyquist.
    package static let boundaryHertz = 4_800.0
    /// The sample rate, in Hz.
    package static let sampleRate = Double(NoiseGenerator.sampleRate)

    /// The stretch of the frequency axis (1 = none).
    package let factor: Double

    /// A warp by `factor` (> 0).
    package init(factor: Double) {
        precondition(factor > 0, "a warp factor must be positive")
        self.factor = factor
    }

    /// The source frequency whose energy lands at `hertz` after warping (the
    /// inverse of the forward map f → f·factor below the boundary, linear to
    /// Nyquist above it).
    package func sourceFrequency(of hertz: Double) -> Double {
        let nyquist = Self.sampleRate / 2
        let boundary = Self.boundaryHertz * min(factor, 1) / factor
        let warpedBoundary = boundary * factor
        if hertz <= warpedBoundary { return hertz / factor }
        return nyquist - (nyquist - hertz) * (nyquist - boundary) / (nyquist - warpedBoundary)
    }

    /// `samples` with their formants moved by `factor`; the same length.
    package func apply(_ samples: [Float]) -> [Float] {
        guard factor != 1, samples.count > 0 else { return samples }
        let frame = Self.frameSamples, hop = Self.hopSamples, bins = frame / 2 + 1
        let window = (0..<frame).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(frame)) }
        let transform = FourierTransform(size: frame)
        // Pad so every sample is covered by full frames on both sides.
        let padded = [Double](repeating: 0, count: frame) + samples.map(Double.init)
            + [Double](repeating: 0, count: frame + hop)
        var output = [Double](repeating: 0, count: padded.count)
        var weight = [Double](repeating: 0, count: padded.count)
        let binHertz = Self.sampleRate / Double(frame)
        let sources = (0..<bins).map { sourceFrequency(of: Double($0) * binHertz) / binHertz }
        // The phase a bin advances per hop at its own centre frequency.
        let expectedAdvance = (0..<bins).map { 2 * Double.pi * Double($0) * Double(hop) / Double(frame) }
        var previousPhases = [Double](repeating: 0, count: bins)
        var outputPhases = [Double](repeating: 0, count: bins)
        var start = 0
        var first = true
        while start + frame <= padded.count {
            var real = (0..<frame).map { padded[start + $0] * window[$0] }
            var imaginary = [Double](repeating: 0, count: frame)
            transform.forward(real: &real, imaginary: &imaginary)
            let magnitudes = (0..<bins).map { hypot(real[$0], imaginary[$0]) }
            let phases = (0..<bins).map { atan2(imaginary[$0], real[$0]) }
            // Each source bin's measured advance per hop (its true frequency).
            let advances = (0..<bins).map { bin in
                expectedAdvance[bin] + Self.principal(phases[bin] - previousPhases[bin] - expectedAdvance[bin])
            }
            previousPhases = phases
            var warpedReal = [Double](repeating: 0, count: frame)
            var warpedImaginary = [Double](repeating: 0, count: frame)
            for bin in 0..<bins {
                let source = min(max(sources[bin], 0), Double(bins - 1))
                let below = Int(source), above = min(below + 1, bins - 1), fraction = source - Double(below)
                let magnitude = magnitudes[below] * (1 - fraction) + magnitudes[above] * fraction
                let nearest = Int(source.rounded())
                if first || bin == 0 || source == 0 {
                    outputPhases[bin] = phases[nearest]
                } else {
                    outputPhases[bin] = Self.principal(outputPhases[bin] + advances[nearest] * Double(bin) / source)
                }
                var phase = outputPhases[bin]
                // DC and Nyquist bins of a real signal are real.
                if bin == 0 || bin == frame / 2 { phase = cos(phase) < 0 ? Double.pi : 0 }
                warpedReal[bin] = magnitude * cos(phase)
                warpedImaginary[bin] = magnitude * sin(phase)
                if bin > 0 && bin < frame / 2 {
                    warpedReal[frame - bin] = warpedReal[bin]
                    warpedImaginary[frame - bin] = -warpedImaginary[bin]
                }
            }
            first = false
            transform.inverse(real: &warpedReal, imaginary: &warpedImaginary)
            for index in 0..<frame {
                output[start + index] += warpedReal[index] * window[index]
                weight[start + index] += window[index] * window[index]
            }
            start += hop
        }
        return (0..<samples.count).map { index in
            let at = index + frame
            return weight[at] > 1e-9 ? Float(output[at] / weight[at]) : 0
        }
    }

    /// `angle` wrapped into −π…π.
    static func principal(_ angle: Double) -> Double {
        angle - 2 * Double.pi * (angle / (2 * Double.pi)).rounded()
    }
}
