import EarsCore

/// 16-bit PCM audio read from a WAV (the part engines write): the sample
/// rate, channel count and little-endian sample bytes.
struct PCMAudio: Sendable {
    /// Samples per second per channel, in Hz.
    let sampleRate: Int
    /// Interleaved channels.
    let channels: Int
    /// The sample bytes, 16-bit little-endian, interleaved.
    let bytes: [UInt8]

    /// Reads a RIFF/WAVE of 16-bit PCM. A data chunk whose size is a
    /// placeholder (espeak-ng writes 0x7ffff000 to a pipe) runs to the end.
    init(wav: [UInt8], command: String) throws(SynthError) {
        func word(_ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(wav[at + $1]) << (8 * $1) }
        }
        guard wav.count >= 12, wav[0..<4].elementsEqual("RIFF".utf8), wav[8..<12].elementsEqual("WAVE".utf8) else {
            throw .badAudio(command: command, detail: "not a WAV file")
        }
        var position = 12
        var format: (rate: Int, channels: Int, bits: Int)?
        while position + 8 <= wav.count {
            let id = wav[position..<position + 4]
            let size = word(position + 4, 4)
            let body = position + 8
            if id.elementsEqual("fmt ".utf8), body + 16 <= wav.count {
                format = (word(body + 4, 4), word(body + 2, 2), word(body + 14, 2))
            } else if id.elementsEqual("data".utf8) {
                guard let format else { throw .badAudio(command: command, detail: "data before format") }
                guard format.bits == 16, format.channels >= 1, format.rate > 0 else {
                    throw .badAudio(command: command, detail: "\(format.bits)-bit, \(format.channels) channels")
                }
                let end = min(wav.count, body + size) & ~1
                sampleRate = format.rate
                channels = format.channels
                bytes = Array(wav[body..<max(body, end)])
                return
            }
            position = body + size + (size & 1)
        }
        throw .badAudio(command: command, detail: "no data chunk")
    }

    /// Mono samples at `rate` Hz: as they are when already mono at that
    /// rate, else through `sox` (raw in, raw out, over pipes).
    func resampled(to rate: Int) throws(SynthError) -> [Int16] {
        if sampleRate == rate && channels == 1 { return Self.samples(bytes) }
        let raw = ["-t", "raw", "-e", "signed-integer", "-b", "16", "-L"]
        // -D: no dither, so the same input always gives the same samples.
        let output = try Subprocess.run(.sox, ["-V1", "-D"] + raw + ["-r", String(sampleRate), "-c", String(channels), "-"]
                                            + raw + ["-r", String(rate), "-c", "1", "-"], input: bytes)
        return Self.samples(output)
    }

    /// Little-endian 16-bit bytes as samples (a trailing odd byte is dropped).
    static func samples(_ bytes: [UInt8]) -> [Int16] {
        var samples = [Int16](repeating: 0, count: bytes.count / 2)
        for index in samples.indices {
            samples[index] = Int16(bitPattern: UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8)
        }
        return samples
    }

    /// Samples as little-endian 16-bit bytes.
    static func bytes(_ samples: [Int16]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            let bits = UInt16(bitPattern: sample)
            bytes[2 * index] = UInt8(bits & 0xff)
            bytes[2 * index + 1] = UInt8(bits >> 8)
        }
        return bytes
    }
}
