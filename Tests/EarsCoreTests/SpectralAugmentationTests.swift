import Foundation
import Testing
@testable import EarsCore
@testable import EarsTraining

/// A sine of `hertz` at 16 kHz, `count` samples, amplitude 0.5.
private func sine(_ hertz: Double, count: Int) -> [Float] {
    (0..<count).map { Float(0.5 * sin(2 * Double.pi * hertz * Double($0) / 16_000)) }
}

/// Energy (sum of squares) of `samples`.
private func energy<S: Sequence>(_ samples: S) -> Double where S.Element: BinaryFloatingPoint {
    samples.reduce(0) { $0 + Double($1) * Double($1) }
}

/// The frequency in Hz of the loudest DFT bin of `samples` (a 4,096-point slice from the middle).
private func peakHertz(_ samples: [Float]) -> Double {
    let transform = FourierTransform(size: 4_096)
    let start = (samples.count - 4_096) / 2
    var real = (0..<4_096).map { Double(samples[start + $0]) * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / 4_096)) }
    var imaginary = [Double](repeating: 0, count: 4_096)
    transform.forward(real: &real, imaginary: &imaginary)
    let loudest = (1..<2_048).max { hypot(real[$0], imaginary[$0]) < hypot(real[$1], imaginary[$1]) }!
    return Double(loudest) * 16_000 / 4_096
}

@Suite struct FourierTransformTests {
    @Test("the inverse of the forward transform gives back the signal")
    func roundTrip() {
        var generator = SeededGenerator(seed: 5)
        let signal = (0..<256).map { _ in generator.gaussian() }
        let transform = FourierTransform(size: 256)
        var real = signal, imaginary = [Double](repeating: 0, count: 256)
        transform.forward(real: &real, imaginary: &imaginary)
        transform.inverse(real: &real, imaginary: &imaginary)
        #expect(zip(real, signal).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(imaginary.allSatisfy { abs($0) < 1e-9 })
    }

    @Test("a cosine of 8 cycles lands in bins 8 and N−8, each with half its energy times N")
    func cosineBins() {
        let transform = FourierTransform(size: 64)
        var real = (0..<64).map { cos(2 * Double.pi * 8 * Double($0) / 64) }
        var imaginary = [Double](repeating: 0, count: 64)
        transform.forward(real: &real, imaginary: &imaginary)
        #expect(abs(real[8] - 32) < 1e-9 && abs(real[56] - 32) < 1e-9)
        #expect((0..<64).filter { $0 != 8 && $0 != 56 }.allSatisfy { hypot(real[$0], imaginary[$0]) < 1e-9 })
    }

    @Test("convolution by transforms equals the direct sum")
    func convolution() {
        let signal: [Double] = [1, 2, 3, 4, 5]
        let kernel: [Double] = [1, -1, 0.5]
        var direct = [Double](repeating: 0, count: 7)
        for n in 0..<5 {
            for k in 0..<3 { direct[n + k] += signal[n] * kernel[k] }
        }
        let fast = FourierTransform.convolve(signal, kernel)
        #expect(fast.count == 7)
        #expect(zip(fast, direct).allSatisfy { abs($0 - $1) < 1e-9 })
    }
}

@Suite struct RoomImpulseResponseTests {
    @Test("a room's response has unit energy, starts with the direct sound and is rt60 long")
    func shape() {
        let room = RoomImpulseResponse(rt60Seconds: 0.5, directToReverberantDecibels: 3, seed: 1)
        #expect(abs(energy(room.taps) - 1) < 1e-9)
        #expect(room.taps.count == 8_000)
        #expect(room.taps[0] == room.taps.map(abs).max(), "the direct sound is the loudest tap")
        let direct = room.taps[0] * room.taps[0]
        let ratio = 10 * log10(direct / (1 - direct))
        #expect(abs(ratio - 3) < 1e-6, "direct-to-reverberant ratio as asked: \(ratio) dB")
    }

    @Test("the tail decays: its last tenth holds under a thousandth of its first tenth's energy")
    func decays() {
        let room = RoomImpulseResponse(rt60Seconds: 0.8, directToReverberantDecibels: -3, seed: 2)
        let tenth = room.taps.count / 10
        let first = energy(room.taps[1..<tenth]), last = energy(room.taps[(room.taps.count - tenth)...])
        #expect(last < first / 1_000)
    }

    @Test("white noise through a room keeps its energy within 1 dB, and gains exactly the tail's length",
          arguments: [(0.2, 12.0), (0.5, 3.0), (0.9, -3.0)])
    func energyBounds(rt60: Double, ratio: Double) {
        var generator = SeededGenerator(seed: 9)
        let noise = (0..<32_000).map { _ in Float(0.1 * generator.gaussian()) }
        let room = RoomImpulseResponse(rt60Seconds: rt60, directToReverberantDecibels: ratio, seed: 3)
        let heard = room.apply(noise)
        #expect(heard.count == noise.count + room.taps.count - 1)
        let change = 10 * log10(energy(heard) / energy(noise))
        #expect(abs(change) < 1, "energy changed by \(change) dB")
    }

    @Test("the same seed gives the same room, another seed another")
    func seeded() {
        let a = RoomImpulseResponse(rt60Seconds: 0.4, directToReverberantDecibels: 0, seed: 7)
        #expect(a == RoomImpulseResponse(rt60Seconds: 0.4, directToReverberantDecibels: 0, seed: 7))
        #expect(a != RoomImpulseResponse(rt60Seconds: 0.4, directToReverberantDecibels: 0, seed: 8))
    }
}

@Suite struct FormantWarpTests {
    @Test("warping keeps the length to the sample", arguments: [0.88, 0.95, 1.05, 1.12])
    func keepsLength(factor: Double) {
        for count in [1, 100, 511, 16_000, 16_001] {
            #expect(FormantWarp(factor: factor).apply(sine(300, count: count)).count == count)
        }
    }

    @Test("a factor of 1 changes nothing")
    func identity() {
        let tone = sine(440, count: 4_000)
        #expect(FormantWarp(factor: 1).apply(tone) == tone)
    }

    @Test("a 1 kHz tone warped by 1.1 comes out near 1.1 kHz, and by 0.9 near 900 Hz, at about its energy",
          arguments: [(1.1, 1_100.0), (0.9, 900.0)])
    func movesFrequencies(factor: Double, expected: Double) {
        let tone = sine(1_000, count: 16_000)
        let warped = FormantWarp(factor: factor).apply(tone)
        #expect(abs(peakHertz(warped) - expected) < 20, "peak at \(peakHertz(warped)) Hz")
        let change = 10 * log10(energy(warped) / energy(tone))
        #expect(abs(change) < 3, "energy changed by \(change) dB")
    }

    @Test("the warp's map keeps 0 and Nyquist, and is continuous at the boundary")
    func map() {
        for factor in [0.88, 1.12] {
            let warp = FormantWarp(factor: factor)
            #expect(abs(warp.sourceFrequency(of: 0)) < 1e-9)
            #expect(abs(warp.sourceFrequency(of: 8_000) - 8_000) < 1e-9)
            let boundary = FormantWarp.boundaryHertz * min(factor, 1)
            #expect(abs(warp.sourceFrequency(of: boundary - 1e-6) - warp.sourceFrequency(of: boundary + 1e-6)) < 1e-3)
        }
    }
}
