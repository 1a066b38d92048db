/// RIFF/WAVE bytes for 16 kHz mono S16 audio, built in memory. ears never
/// writes audio to a file; these bytes go to a consumer's pipe or socket.
package enum WAVEncoder {
    /// Size of the canonical 44-byte header.
    package static let headerBytes = 44

    /// A complete WAV (header + little-endian samples) for `samples`.
    package static func encode(_ samples: [Int16], sampleRate: Int = AudioFormat.sampleRate) -> [UInt8] {
        let dataBytes = samples.count * AudioFormat.bytesPerSample
        var out: [UInt8] = []
        out.reserveCapacity(headerBytes + dataBytes)
        out += Array("RIFF".utf8)
        append32(&out, UInt32(36 + dataBytes))
        out += Array("WAVE".utf8)
        out += Array("fmt ".utf8)
        append32(&out, 16) // PCM format chunk size
        append16(&out, 1) // PCM
        append16(&out, UInt16(AudioFormat.channels))
        append32(&out, UInt32(sampleRate))
        append32(&out, UInt32(sampleRate * AudioFormat.channels * AudioFormat.bytesPerSample)) // byte rate
        append16(&out, UInt16(AudioFormat.channels * AudioFormat.bytesPerSample)) // block align
        append16(&out, UInt16(AudioFormat.bytesPerSample * 8)) // bits per sample
        out += Array("data".utf8)
        append32(&out, UInt32(dataBytes))
        for sample in samples { append16(&out, UInt16(bitPattern: sample)) }
        return out
    }

    private static func append16(_ out: inout [UInt8], _ value: UInt16) {
        out.append(UInt8(value & 0xff))
        out.append(UInt8(value >> 8))
    }

    private static func append32(_ out: inout [UInt8], _ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((value >> UInt32(shift)) & 0xff)) }
    }
}
