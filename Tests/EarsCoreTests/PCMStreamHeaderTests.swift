import EarsCore
import Testing

/// Deciding what a stream on standard input holds, from its first bytes.
@Suite struct PCMStreamHeaderTests {
    /// A canonical WAV header: RIFF, WAVE, optional extra chunk, fmt, then data.
    private func wav(rate: UInt32 = 16_000, channels: UInt16 = 1, bits: UInt16 = 16, tag: UInt16 = 1,
                     extra: [UInt8] = [], dataSize: UInt32 = 0x7FFF_FFFF) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var bytes = Array("RIFF".utf8) + le32(0xFFFF_FFFF) + Array("WAVE".utf8) + extra
        bytes += Array("fmt ".utf8) + le32(16) + le16(tag) + le16(channels) + le32(rate)
        bytes += le32(rate * UInt32(channels) * UInt32(bits / 8)) + le16(channels * bits / 8) + le16(bits)
        bytes += Array("data".utf8) + le32(dataSize)
        return bytes
    }

    @Test("a stream that does not start with RIFF is raw S16_LE 16 kHz mono from its first byte")
    func rawStream() {
        #expect(PCMStreamHeader.decide([1, 2, 3, 4, 5], ended: false) == .samples(.raw, headerBytes: 0))
        #expect(PCMStreamHeader.decide([0x52], ended: true) == .samples(.raw, headerBytes: 0))
    }

    @Test("a prefix of RIFF asks for more bytes until the stream ends")
    func riffPrefixNeedsMore() {
        #expect(PCMStreamHeader.decide(Array("RI".utf8), ended: false) == .needMore)
        #expect(PCMStreamHeader.decide([], ended: false) == .needMore)
    }

    @Test("arecord's WAV header gives its format and where the samples start, whatever its sizes say")
    func arecordHeader() {
        let header = wav(rate: 44_100, channels: 2)
        #expect(PCMStreamHeader.decide(header + [0, 0], ended: false)
                == .samples(.init(sampleRate: 44_100, channels: 2), headerBytes: 44))
    }

    @Test("chunks before fmt and data are skipped, odd sizes padded")
    func extraChunksAreSkipped() {
        let list = Array("LIST".utf8) + [3, 0, 0, 0, 7, 8, 9, 0]
        #expect(PCMStreamHeader.decide(wav(extra: list), ended: false) == .samples(.raw, headerBytes: 56))
    }

    @Test("every prefix of a header but the whole asks for more, and is refused if the stream ends there")
    func truncatedHeaders() {
        let header = wav()
        for length in 4..<header.count {
            let prefix = Array(header[0..<length])
            #expect(PCMStreamHeader.decide(prefix, ended: false) == .needMore, "length \(length)")
            guard case .refused = PCMStreamHeader.decide(prefix, ended: true) else {
                Issue.record("length \(length) not refused at end of stream")
                continue
            }
        }
    }

    @Test("8-bit, float and zero-channel WAV streams are refused with what to do")
    func unsupportedFormatsAreRefused() {
        for header in [wav(bits: 8), wav(bits: 32, tag: 3), wav(channels: 0), wav(rate: 100)] {
            guard case let .refused(sentence) = PCMStreamHeader.decide(header, ended: false) else {
                Issue.record("accepted \(header)")
                continue
            }
            #expect(!sentence.isEmpty && !sentence.hasSuffix("."))
        }
        guard case let .refused(sentence) = PCMStreamHeader.decide(wav(bits: 8), ended: false) else { return }
        #expect(sentence.contains("sox") && sentence.contains("arecord -f S16_LE"))
    }

    @Test("RIFF that is not WAVE, and data before fmt, are refused")
    func malformedRiffIsRefused() {
        var notWave = wav()
        notWave.replaceSubrange(8..<12, with: Array("AVI ".utf8))
        guard case .refused = PCMStreamHeader.decide(notWave, ended: false) else {
            Issue.record("RIFF AVI accepted")
            return
        }
        let dataFirst = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8) + Array("data".utf8) + [0, 0, 0, 0]
        guard case .refused = PCMStreamHeader.decide(dataFirst, ended: false) else {
            Issue.record("data before fmt accepted")
            return
        }
    }

    @Test("a header that never reaches its samples is refused past the limit rather than read forever")
    func endlessHeaderIsRefused() {
        let huge = Array("JUNK".utf8) + [0xFF, 0xFF, 0xFF, 0x7F]
        guard case .refused = PCMStreamHeader.decide(wav(extra: huge), ended: false) else {
            Issue.record("a 2 GB chunk before data was waited for")
            return
        }
    }
}
