@testable import EarsFiles
import Foundation
import Testing

/// Wyoming audio in any rate, width and channel count to 16 kHz S16 mono.
@Suite struct PCMFormatConverterTests {
    /// `seconds` of a `frequency` Hz sine at `amplitude` (0…1 of full scale),
    /// interleaved over `channels` (the same in each, or silence in all but
    /// the first when `onlyFirst`), as little-endian samples of `width` bytes.
    static func sine(rate: Int, width: Int, channels: Int, seconds: Double, frequency: Double = 440,
                     amplitude: Double = 0.5, onlyFirst: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in 0..<Int(Double(rate) * seconds) {
            let value = amplitude * sin(2 * .pi * frequency * Double(frame) / Double(rate))
            for channel in 0..<channels {
                let sample = onlyFirst && channel > 0 ? 0 : value
                switch width {
                case 1: bytes.append(UInt8(bitPattern: Int8((sample * 127).rounded())))
                case 2: withUnsafeBytes(of: Int16((sample * 32_767).rounded()).littleEndian) { bytes += $0 }
                default: withUnsafeBytes(of: Int32((sample * 2_147_483_647).rounded()).littleEndian) { bytes += $0 }
                }
            }
        }
        return bytes
    }

    /// Converts `bytes` in chunks of `chunkFrames` and flushes.
    static func convert(_ bytes: [UInt8], rate: Int, width: Int, channels: Int, chunkFrames: Int = 1024) throws -> [Int16] {
        let converter = try PCMFormatConverter(sampleRate: rate, sampleWidth: width, channels: channels)
        let step = chunkFrames * width * channels
        var out: [Int16] = []
        for start in stride(from: 0, to: bytes.count, by: step) {
            out += try converter.convert(Array(bytes[start..<min(start + step, bytes.count)]))
        }
        return out + (try converter.finish())
    }

    /// Peak of `samples` as a fraction of full scale, away from the edges.
    static func peak(_ samples: [Int16]) -> Double {
        let middle = samples.dropFirst(samples.count / 4).dropLast(samples.count / 4)
        return Double(middle.map { abs(Int($0)) }.max() ?? 0) / 32_768
    }

    /// Zero crossings per second: twice the frequency of a sine.
    static func crossingsPerSecond(_ samples: [Int16]) -> Double {
        var crossings = 0
        for index in 1..<samples.count where (samples[index - 1] < 0) != (samples[index] < 0) { crossings += 1 }
        return Double(crossings) / (Double(samples.count) / 16_000)
    }

    @Test("44.1 kHz stereo becomes 16 kHz mono: the length, the pitch and the level survive", arguments: [
        (44_100, 2, 2), (22_050, 2, 1), (48_000, 4, 1), (8_000, 1, 1), (16_000, 2, 1), (16_000, 2, 6),
    ])
    func rates(rate: Int, width: Int, channels: Int) throws {
        let out = try Self.convert(Self.sine(rate: rate, width: width, channels: channels, seconds: 1),
                                   rate: rate, width: width, channels: channels)
        #expect(abs(out.count - 16_000) <= 64, "\(out.count) samples for one second")
        #expect(abs(Self.crossingsPerSecond(out) - 880) < 20, "pitch moved: \(Self.crossingsPerSecond(out)) crossings/s")
        // 8-bit input is coarse; the others keep the level to within 2 %.
        #expect(abs(Self.peak(out) - 0.5) < (width == 1 ? 0.03 : 0.01), "peak \(Self.peak(out))")
    }

    @Test("channels are averaged: a tone in the left channel only comes out at half its level")
    func channelsAveraged() throws {
        let out = try Self.convert(Self.sine(rate: 16_000, width: 2, channels: 2, seconds: 1, amplitude: 0.8, onlyFirst: true),
                                   rate: 16_000, width: 2, channels: 2)
        #expect(abs(Self.peak(out) - 0.4) < 0.01)
    }

    @Test("unsupported formats are refused with a sentence")
    func refusals() {
        for (rate, width, channels) in [(16_000, 3, 1), (16_000, 2, 0), (0, 2, 1)] {
            #expect(throws: ConversionError.self) {
                try PCMFormatConverter(sampleRate: rate, sampleWidth: width, channels: channels)
            }
        }
    }
}
