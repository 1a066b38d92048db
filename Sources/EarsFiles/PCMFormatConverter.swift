import EarsCore

/// Converts interleaved PCM in any Wyoming format (rate, sample width 1, 2
/// or 4 bytes, any channel count) to ears' one format, 16 kHz S16 mono:
/// channels averaged, samples scaled to ±1, resampled with libsamplerate
/// (`SampleRateConverter`, which keeps its filter state across calls), then
/// rounded back to S16 (`PCMConversion`).
///
/// Widths follow Python's `audioop`, which Wyoming's `AudioChunkConverter`
/// uses: width 1 is signed 8-bit, 2 is S16LE, 4 is S32LE.
///
/// Used from one thread (a remote connection's). Memory only.
package final class PCMFormatConverter {
    /// Input rate in hertz.
    package let sampleRate: Int
    /// Input bytes per sample.
    package let sampleWidth: Int
    /// Input channels.
    package let channels: Int
    /// nil when the input already is 16 kHz (only mixing and scaling).
    private let resampler: SampleRateConverter?

    /// Makes a converter from the given input format.
    ///
    /// - Throws: `ConversionError` naming a format it cannot take or
    ///   libsamplerate's complaint.
    package init(sampleRate: Int, sampleWidth: Int, channels: Int) throws(ConversionError) {
        guard [1, 2, 4].contains(sampleWidth), channels >= 1, sampleRate > 0 else {
            throw ConversionError(sentence: "cannot convert \(sampleRate) Hz, \(sampleWidth)-byte samples, \(channels) channels")
        }
        self.sampleRate = sampleRate
        self.sampleWidth = sampleWidth
        self.channels = channels
        if sampleRate == AudioFormat.sampleRate {
            resampler = nil
        } else {
            do throws(SampleRateError) {
                resampler = try SampleRateConverter(inputRate: sampleRate, outputRate: AudioFormat.sampleRate)
            } catch {
                throw ConversionError(sentence: "libsamplerate: \(error.detail)")
            }
        }
    }

    /// Converts `bytes` (whole frames) and returns the 16 kHz mono samples
    /// they make available (the resampler holds back a few milliseconds).
    package func convert(_ bytes: [UInt8]) throws(ConversionError) -> [Int16] {
        let mono = mix(bytes)
        guard let resampler else { return mono.map(PCMConversion.int16(fromUnitFloat:)) }
        do throws(SampleRateError) {
            return try resampler.process(mono, endOfInput: false).map(PCMConversion.int16(fromUnitFloat:))
        } catch {
            throw ConversionError(sentence: "libsamplerate: \(error.detail)")
        }
    }

    /// The samples the resampler still holds, at the end of the stream.
    /// The converter cannot be used afterwards.
    package func finish() throws(ConversionError) -> [Int16] {
        guard let resampler else { return [] }
        do throws(SampleRateError) {
            return try resampler.process([], endOfInput: true).map(PCMConversion.int16(fromUnitFloat:))
        } catch {
            throw ConversionError(sentence: "libsamplerate: \(error.detail)")
        }
    }

    /// Interleaved little-endian frames to mono floats at full scale ±1.
    private func mix(_ bytes: [UInt8]) -> [Float] {
        let frameBytes = sampleWidth * channels
        let frames = bytes.count / frameBytes
        var mono = [Float](repeating: 0, count: frames)
        let scale: Float = 1 / Float(channels)
        bytes.withUnsafeBytes { raw in
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<channels {
                    let offset = frame * frameBytes + channel * sampleWidth
                    switch sampleWidth {
                    case 1:
                        sum += Float(Int8(bitPattern: raw[offset])) / 128
                    case 2:
                        sum += Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self))) / 32_768
                    default:
                        sum += Float(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self))) / 2_147_483_648
                    }
                }
                mono[frame] = sum * scale
            }
        }
        return mono
    }
}

/// Why remote audio could not be converted: one sentence, no audio.
package struct ConversionError: Error, Sendable {
    /// What failed.
    package let sentence: String
}
