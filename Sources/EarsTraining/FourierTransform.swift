import Foundation // sin and cos only

/// A complex discrete Fourier transform of one power-of-two size (iterative
/// radix-2 Cooley–Tukey), for the training augmentations that work on
/// spectra: the room's convolution (`RoomImpulseResponse`) and the formant
/// warp (`FormantWarp`). Pure and reusable: the twiddle factors and the
/// bit-reversal order are computed once per size.
///
/// Convention: `forward` computes X[k] = Σ x[n]·e^(−2πikn/N); `inverse`
/// computes x[n] = (1/N)·Σ X[k]·e^(+2πikn/N), so inverse(forward(x)) = x.
package struct FourierTransform: Sendable {
    /// Points per transform, a power of two ≥ 2.
    package let size: Int
    /// cos(2πk/N) and sin(2πk/N) for k < N/2.
    private let cosines: [Double]
    private let sines: [Double]
    /// Where each index lands after bit reversal.
    private let reversed: [Int]

    /// A transform of `size` points; `size` must be a power of two ≥ 2.
    package init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "a radix-2 transform needs a power-of-two size")
        self.size = size
        cosines = (0..<size / 2).map { cos(2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<size / 2).map { sin(2 * Double.pi * Double($0) / Double(size)) }
        var bits = 0
        while 1 << bits < size { bits += 1 }
        reversed = (0..<size).map { index in
            var result = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { result |= 1 << (bits - 1 - bit) }
            return result
        }
    }

    /// The smallest power of two ≥ `count` (and ≥ 2).
    package static func size(atLeast count: Int) -> Int {
        var size = 2
        while size < count { size <<= 1 }
        return size
    }

    /// The spectrum of `real` + i·`imaginary` (both `size` long), in place.
    package func forward(real: inout [Double], imaginary: inout [Double]) {
        transform(real: &real, imaginary: &imaginary, sign: -1)
    }

    /// The signal whose spectrum is `real` + i·`imaginary`, in place (scaled by 1/N).
    package func inverse(real: inout [Double], imaginary: inout [Double]) {
        transform(real: &real, imaginary: &imaginary, sign: 1)
        let scale = 1 / Double(size)
        for index in 0..<size {
            real[index] *= scale
            imaginary[index] *= scale
        }
    }

    /// The unscaled butterfly passes; `sign` −1 forward, +1 inverse.
    private func transform(real: inout [Double], imaginary: inout [Double], sign: Double) {
        precondition(real.count == size && imaginary.count == size, "a transform reads exactly size values")
        for index in 0..<size where index < reversed[index] {
            real.swapAt(index, reversed[index])
            imaginary.swapAt(index, reversed[index])
        }
        var span = 1
        while span < size {
            let stride = size / (span * 2)
            var start = 0
            while start < size {
                for offset in 0..<span {
                    let c = cosines[offset * stride], s = sign * sines[offset * stride]
                    let a = start + offset, b = a + span
                    let twiddledReal = real[b] * c - imaginary[b] * s
                    let twiddledImaginary = real[b] * s + imaginary[b] * c
                    real[b] = real[a] - twiddledReal
                    imaginary[b] = imaginary[a] - twiddledImaginary
                    real[a] += twiddledReal
                    imaginary[a] += twiddledImaginary
                }
                start += span * 2
            }
            span *= 2
        }
    }

    /// The full linear convolution of `signal` with `kernel` (length
    /// `signal.count + kernel.count − 1`), by one transform of each and one
    /// inverse: O(N log N), where the direct sum over a room's 10,000-tap
    /// response would cost seconds per clip.
    package static func convolve(_ signal: [Double], _ kernel: [Double]) -> [Double] {
        guard !signal.isEmpty, !kernel.isEmpty else { return [] }
        let count = signal.count + kernel.count - 1
        let transform = FourierTransform(size: size(atLeast: count))
        var signalReal = signal + [Double](repeating: 0, count: transform.size - signal.count)
        var signalImaginary = [Double](repeating: 0, count: transform.size)
        var kernelReal = kernel + [Double](repeating: 0, count: transform.size - kernel.count)
        var kernelImaginary = [Double](repeating: 0, count: transform.size)
        transform.forward(real: &signalReal, imaginary: &signalImaginary)
        transform.forward(real: &kernelReal, imaginary: &kernelImaginary)
        for index in 0..<transform.size {
            let real = signalReal[index] * kernelReal[index] - signalImaginary[index] * kernelImaginary[index]
            let imaginary = signalReal[index] * kernelImaginary[index] + signalImaginary[index] * kernelReal[index]
            signalReal[index] = real
            signalImaginary[index] = imaginary
        }
        transform.inverse(real: &signalReal, imaginary: &signalImaginary)
        return Array(signalReal[0..<count])
    }
}
