import Testing
@testable import EarsCore
@testable import EarsNeural

/// The wake model file: exact round trips, and every kind of damage refused
/// with the error that names it.
@Suite struct WakeModelFileTests {
    static func model() -> WakeModel {
        var generator = SeededGenerator(seed: 9)
        var head = WakeHead.initialized(windowEmbeddings: 16, dimension: 96, hidden: [12, 5], leak: 0.01,
                                        generator: &generator)
        head.featureMean = (0..<96).map { _ in generator.gaussianFloat() }
        head.featureScale = (0..<96).map { _ in generator.unitFloat() + 0.5 }
        return WakeModel(
            phrase: "hey computer", language: "en-US", frontEndVersion: "openwakeword-0.5.1 melspec:ab12 embed:cd34",
            head: head, threshold: 0.62,
            training: .init(voices: ["flite-slt", "espeak-en-us"], heldOutVoices: ["flite-awb"], positives: 1_234,
                            negatives: 48_000, audioSeconds: 3_600.5, trainingSeconds: 71.25, createdAt: "2026-11-30T15:20:00Z"),
            validation: .init(recallClean: 0.97, recallAt10dB: 0.9, recallAt5dB: nil, falseWakesPerHour: 0.25,
                              soundAlikeWakeRate: 0.05))
    }

    @Test func aModelRoundTripsExactly() throws {
        let original = Self.model()
        let bytes = original.encoded()
        #expect(Array(bytes.prefix(8)) == WakeModelFile.magic)
        let decoded = try WakeModel.decode(bytes)
        #expect(decoded == original)
        #expect(decoded.encoded() == bytes)
        let bare = WakeModel(phrase: "öffne die Tür", language: "de", frontEndVersion: "", head: original.head, threshold: 0.5)
        #expect(try WakeModel.decode(bare.encoded()) == bare)
    }

    @Test func aTruncatedFileIsRefusedAsTruncated() {
        let bytes = Self.model().encoded()
        for length in [0, 5, 12, WakeModelFile.headerSize, bytes.count / 2, bytes.count - 1] {
            #expect(throws: WakeModelError.truncated) { try WakeModel.decode(Array(bytes.prefix(length))) }
        }
    }

    @Test func aFileWithTheWrongMagicIsRefused() {
        var bytes = Self.model().encoded()
        bytes[1] = UInt8(ascii: "X")
        #expect(throws: WakeModelError.wrongMagic) { try WakeModel.decode(bytes) }
        #expect(throws: WakeModelError.wrongMagic) { try WakeModel.decode(Array("[wake]\nphrase = hi\n".utf8)) }
    }

    @Test func aFileOfAnotherVersionIsRefusedWithBothVersions() {
        var bytes = Self.model().encoded()
        bytes[8] = 3
        #expect(throws: WakeModelError.unsupportedVersion(found: 3, expected: 2)) { try WakeModel.decode(bytes) }
    }

    @Test func aHeadWithoutAConvolutionIsStillWrittenAsVersion1AndOneWithItAsVersion2() throws {
        #expect(Self.model().encoded()[8] == 1)
        var generator = SeededGenerator(seed: 4)
        var temporal = Self.model()
        temporal.head = WakeHead.initialized(windowEmbeddings: 16, dimension: 96, hidden: [8, 4], kernelEmbeddings: 3,
                                             generator: &generator)
        let bytes = temporal.encoded()
        #expect(bytes[8] == 2)
        let decoded = try WakeModel.decode(bytes)
        #expect(decoded == temporal)
        #expect(decoded.head.kernelEmbeddings == 3)
    }

    @Test func aFlippedByteAnywhereInThePayloadFailsTheChecksum() {
        let bytes = Self.model().encoded()
        for position in [WakeModelFile.headerSize, WakeModelFile.headerSize + 40, bytes.count / 2, bytes.count - 1] {
            var damaged = bytes
            damaged[position] ^= 0x10
            #expect(throws: WakeModelError.checksumMismatch) { try WakeModel.decode(damaged) }
        }
        var damaged = bytes
        damaged[16] ^= 0x01 // the stored checksum itself
        #expect(throws: WakeModelError.checksumMismatch) { try WakeModel.decode(damaged) }
    }

    @Test func aWellSealedPayloadThatMakesNoSenseIsMalformed() {
        var payload = WakeModelFile.Writer()
        payload.string("hi")
        payload.u32(1_000) // a length that runs past the end
        var file = WakeModelFile.Writer()
        file.bytes = WakeModelFile.magic
        file.u32(1)
        file.u32(payload.bytes.count)
        file.u32(Int(CRC32.checksum(payload.bytes[...])))
        file.bytes += payload.bytes
        #expect {
            try WakeModel.decode(file.bytes)
        } throws: { error in
            guard case .malformed = error as? WakeModelError else { return false }
            return true
        }
        #expect(throws: WakeModelError.malformed("1 bytes follow the payload")) { try WakeModel.decode(Self.model().encoded() + [0]) }
    }

    /// Found by `make fuzz-smoke`: a positives count above `Int.max` was
    /// clamped on reading, so the file decoded to a model that encodes to
    /// other bytes. Such a count is refused instead.
    @Test func aWellSealedCountBeyondWhatAnIntHoldsIsMalformedNotClamped() throws {
        let bytes = Self.model().encoded()
        var payload = Array(bytes[WakeModelFile.headerSize...])
        // The positives count (1,234) as the encoder wrote it: 8 bytes, least significant first, then the negatives (48,000).
        let written = (0..<8).map { UInt8(truncatingIfNeeded: 1_234 >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: 48_000 >> (8 * $0)) }
        let at = try #require((0...(payload.count - written.count)).first { Array(payload[$0..<($0 + written.count)]) == written })
        payload[at + 7] = 0xB7 // 1,234 + 0xB7 << 56: above Int.max
        var file = WakeModelFile.Writer()
        file.bytes = Array(bytes.prefix(16)) // the magic, the version and the payload's length, unchanged
        file.u32(Int(CRC32.checksum(payload[...])))
        file.bytes += payload
        #expect(file.bytes.count == bytes.count)
        #expect {
            try WakeModel.decode(file.bytes)
        } throws: { error in
            guard case let .malformed(sentence) = error as? WakeModelError else { return false }
            return sentence.contains("positive windows' count")
        }
    }

    @Test func theChecksumIsTheStandardCRC32() {
        #expect(CRC32.checksum(Array("123456789".utf8)[...]) == 0xCBF4_3926)
    }

    @Test func everyErrorSaysToTrainAgain() {
        let errors: [WakeModelError] = [.truncated, .wrongMagic, .unsupportedVersion(found: 3, expected: 2),
                                        .unsupportedVersion(found: 0, expected: 1), .checksumMismatch, .malformed("x")]
        for error in errors {
            #expect(error.sentence.contains("`ears train \"PHRASE\"`"), "\(error)")
        }
    }
}
