import Testing
@testable import EarsCore

/// Decoding the `[capture] awake_sound` WAV at configuration load.
@Suite struct AwakeSoundTests {
    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    /// A WAV of `samples` (interleaved) with an optional chunk after the data.
    private func wav(_ samples: [Int16], rate: UInt32 = 22_050, channels: UInt16 = 2, bits: UInt16 = 16,
                     dataSize: UInt32? = nil, trailer: [UInt8] = []) -> [UInt8] {
        let body = samples.flatMap { le16(UInt16(bitPattern: $0)) }
        var bytes = Array("RIFF".utf8) + le32(UInt32(36 + body.count)) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate)
        bytes += le32(rate * UInt32(channels) * UInt32(bits / 8)) + le16(channels * bits / 8) + le16(bits)
        bytes += Array("data".utf8) + le32(dataSize ?? UInt32(body.count)) + body + trailer
        return bytes
    }

    @Test("a 16-bit WAV keeps its own rate, channels and samples")
    func decodesItsOwnFormat() throws {
        let sound = try AwakeSound.decode(wav([1, -1, 300, -300, 32_767, -32_768]))
        #expect(sound.sampleRate == 22_050)
        #expect(sound.channels == 2)
        #expect(sound.samples == [1, -1, 300, -300, 32_767, -32_768])
        #expect(sound.frames == 3)
    }

    @Test("the data chunk's size is honoured: a LIST chunk after it is not played")
    func stopsAtTheDataChunksEnd() throws {
        let sound = try AwakeSound.decode(wav([5, 6, 7, 8], trailer: Array("LIST".utf8) + le32(4) + [1, 2, 3, 4]))
        #expect(sound.samples == [5, 6, 7, 8])
    }

    @Test("a data size past the file's end is cut to the whole frames that are there")
    func truncatedDataIsCut() throws {
        let sound = try AwakeSound.decode(wav([5, 6, 7], dataSize: 1_000))
        #expect(sound.samples == [5, 6])
    }

    @Test("what is not a WAV, not 16-bit, empty or too long is refused with what to do")
    func refusals() {
        #expect(throws: AwakeSound.Problem.self) { try AwakeSound.decode(Array("#!/bin/sh\necho hi\n".utf8)) }
        #expect(throws: AwakeSound.Problem.self) { try AwakeSound.decode(wav([1, 2], bits: 8)) }
        #expect(throws: AwakeSound.Problem.self) { try AwakeSound.decode(wav([])) }
        let long = [Int16](repeating: 0, count: 8_000 * 11)
        do {
            _ = try AwakeSound.decode(wav(long, rate: 8_000, channels: 1))
            Issue.record("an 11 s cue was accepted")
        } catch {
            #expect(error.description.contains("at most 10 s"))
        }
        do {
            _ = try AwakeSound.decode(Array("not a wav at all".utf8))
        } catch {
            #expect(error.description.contains("not a WAV file"))
        }
    }
}
