import Testing
@testable import EarsCore
@testable import EarsNeural

/// A stand-in for the melspectrogram model with its framing (a 512-sample
/// window every 160 samples, no padding): frame j's bin b is the frame's
/// sample b, so every value says where in the stream it came from.
private func fakeMel(_ samples: [Float], geometry: EmbeddingWindowing.Geometry = .openWakeWord) -> [Float] {
    let frames = geometry.frames(forSamples: samples.count)
    var out: [Float] = []
    for frame in 0..<frames {
        for bin in 0..<geometry.melBins { out.append(samples[frame * geometry.hopSamples + bin]) }
    }
    return out
}

/// Feeds `samples` in `chunks` (sizes cycled) and collects every window.
private func windows(of samples: [Int16], chunks: [Int]) throws -> [[Float]] {
    var windowing = EmbeddingWindowing()
    var all: [[Float]] = []
    var offset = 0
    var index = 0
    while offset < samples.count {
        let size = min(chunks[index % chunks.count], samples.count - offset)
        for request in windowing.append(Array(samples[offset..<(offset + size)])) {
            #expect(fakeMel(request.samples).count == request.expectedFrames * 32)
            all.append(try windowing.acceptMel(fakeMel(request.samples)))
        }
        offset += size
        index += 1
    }
    return all
}

/// A stream whose sample n is n mod 30 000 (so values name positions).
private func ramp(_ count: Int) -> [Int16] { (0..<count).map { Int16($0 % 30_000) } }

@Suite struct EmbeddingWindowingTests {
    @Test func oneEmbeddingPerWholeStepFromTheFirstStepOn() throws {
        #expect(try windows(of: ramp(1279), chunks: [1279]).isEmpty)
        #expect(try windows(of: ramp(1280), chunks: [1280]).count == 1)
        #expect(try windows(of: ramp(16_000), chunks: [16_000]).count == 12)
        #expect(EmbeddingWindowing.embeddingCount(forSamples: 16_000) == 12)
    }

    @Test func everyChunkingGivesTheWindowsOfOneCall() throws {
        let samples = ramp(40_000)
        let whole = try windows(of: samples, chunks: [samples.count])
        #expect(whole.count == 31)
        for chunks in [[1600], [1280], [1], [160, 999, 4000], [3], [2560], [1281, 1279]] {
            #expect(try windows(of: samples, chunks: chunks) == whole, "chunks \(chunks)")
        }
    }

    @Test func oneMelRunPerStepTheFirstWithoutLookBackTheOthersWithFourHundredEighty() throws {
        var windowing = EmbeddingWindowing()
        #expect(windowing.append(ramp(1000)).isEmpty)
        let first = windowing.append(Array(ramp(1600)[1000...]))
        #expect(first.count == 1)
        #expect(first[0].samples.count == 1280)
        #expect(first[0].expectedFrames == 5)
        #expect(windowing.pendingSamples == 320)
        _ = try windowing.acceptMel(fakeMel(first[0].samples))
        // 320 + 2400 samples complete two steps: two runs, never one over both
        // (the model's floor depends on everything in one run).
        let next = windowing.append(Array(ramp(4000)[1600...]))
        #expect(next.map(\.samples.count) == [480 + 1280, 480 + 1280])
        #expect(next.map { $0.samples.first } == [800, 2080])   // stream samples 800 and 2080
        #expect(next.map(\.expectedFrames) == [8, 8])
        #expect(windowing.outstandingRequests == 2)
        for request in next { _ = try windowing.acceptMel(fakeMel(request.samples)) }
        #expect(windowing.outstandingRequests == 0 && windowing.windowsEmitted == 3)
    }

    @Test func windowsAreTheLastSeventySixFramesWithTheOnesPaddingFirst() throws {
        let geometry = EmbeddingWindowing.Geometry.openWakeWord
        let all = try windows(of: ramp(16_000), chunks: [1600])
        // Window 0: 71 padding frames (1.0 everywhere), then audio frames 0...4.
        #expect(all[0].count == 76 * 32)
        #expect(all[0][0..<(71 * 32)].allSatisfy { $0 == 1 })
        // Audio frame m's bin 0 is sample 160 m, transformed x / 10 + 2.
        #expect(all[0][71 * 32] == EmbeddingWindowing.Geometry.transform(0))
        #expect(all[0][75 * 32] == EmbeddingWindowing.Geometry.transform(640))
        // Window 9 is all audio: frames 1...76.
        #expect(all[9][0] == EmbeddingWindowing.Geometry.transform(160))
        #expect(all[9][75 * 32] == EmbeddingWindowing.Geometry.transform(Float(160 * 76)))
        // Window k ends at audio frame 8k + 4, inside the audio up to (k + 1) * 1280.
        for k in 0..<all.count {
            let last = 8 * k + 4
            #expect(all[k][75 * 32] == EmbeddingWindowing.Geometry.transform(Float(last * 160)))
            #expect(last * geometry.hopSamples + geometry.frameSamples <= (k + 1) * geometry.samplesPerStep)
        }
    }

    @Test func resetStartsANewStream() throws {
        var windowing = EmbeddingWindowing()
        for request in windowing.append(ramp(3000)) { _ = try windowing.acceptMel(fakeMel(request.samples)) }
        windowing.reset()
        #expect(windowing.pendingSamples == 0 && windowing.windowsEmitted == 0 && windowing.stepsRequested == 0)
        let again = windowing.append(ramp(1280))
        #expect(again.map(\.samples.count) == [1280])
        let first = try windowing.acceptMel(fakeMel(again[0].samples))
        #expect([first] == (try windows(of: ramp(1280), chunks: [1280])))
    }

    @Test func aWrongFrameCountIsAnErrorAndResetsTheStream() throws {
        var windowing = EmbeddingWindowing()
        let requests = windowing.append(ramp(1280))
        #expect(requests.first?.expectedFrames == 5)
        #expect(throws: EmbeddingWindowing.FrameCountMismatch(expectedValues: 5 * 32, receivedValues: 3)) {
            try windowing.acceptMel([1, 2, 3])
        }
        #expect(windowing.stepsRequested == 0 && windowing.outstandingRequests == 0)
        #expect(throws: EmbeddingWindowing.FrameCountMismatch(expectedValues: 0, receivedValues: 0)) {
            try windowing.acceptMel([])
        }
    }

    @Test func memoryStaysBoundedOverALongStream() throws {
        var windowing = EmbeddingWindowing()
        let chunk = ramp(1600)
        var emitted = 0
        for _ in 0..<2_000 {   // 200 s
            for request in windowing.append(chunk) {
                _ = try windowing.acceptMel(fakeMel(request.samples))
                emitted += 1
            }
        }
        #expect(emitted == 2_000 * 1600 / 1280)
        #expect(windowing.pendingSamples < 1280)
    }
}

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex(SHA256.digest([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func piecewiseUpdatesEqualOneCall() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var hash = SHA256()
        hash.update(bytes[0..<63]); hash.update(bytes[63..<64]); hash.update(bytes[64..<500]); hash.update(bytes[500...])
        #expect(hash.finalize() == SHA256.digest(bytes))
    }
}
