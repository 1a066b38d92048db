import EarsCore
import Foundation
import Testing
@testable import EarsONNX

/// The ONNX front end on the real models and runtime from `make onnx-setup`
/// (.deps/onnx), against openWakeWord's pipeline run by Python onnxruntime
/// (reference_embeddings.py, which gives exactly what openwakeword 0.5.1's
/// own `AudioFeatures` streaming gives: checked by hand, max difference 0.0).
///
/// Tolerance: the same float32 models run by the same runtime, but with
/// other batch shapes (the clip path batches up to 128 windows) and other
/// look-back lengths in the mel runs, so kernels may sum in another order.
/// Embedding values are of magnitude ~1–50; agreement within 1e-3 absolute
/// is far below anything a wake head can notice and far above float noise.
@Suite(.serialized) struct OpenWakeWordEmbedderTests {
    static let tolerance: Float = 1e-3
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let modelsDirectory = repositoryRoot + "/" + OpenWakeWordEmbedder.projectRelativeDirectory
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("reference_embeddings.py").path

    /// "hey cordelia" by flite's kal16 voice, 16 kHz mono, with 0.3 s of
    /// silence before and 0.5 s after: the WAV path and its samples.
    static func phrase(in directory: String) throws -> (wav: String, samples: [Int16]) {
        let flite = directory + "/flite.wav"
        let wav = directory + "/phrase.wav"
        try run("/usr/bin/flite", ["-voice", "kal16", "-t", "hey cordelia", "-o", flite])
        try run("/usr/bin/sox", [flite, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", wav, "pad", "0.3", "0.5"])
        let raw = directory + "/phrase.raw"
        try run("/usr/bin/sox", [wav, "-t", "raw", "-e", "signed-integer", "-b", "16", "-L", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
        return (wav, samples)
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure(detail: "\(executable) \(arguments) failed: \(String(decoding: stderr, as: UTF8.self))")
        }
        return String(decoding: stdout, as: UTF8.self)
    }

    static func scratch(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "ears-onnx-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func maxDifference(_ a: [[Float]], _ b: [[Float]]) -> Float {
        zip(a, b).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
    }

    static func feedInChunks(_ embedder: OpenWakeWordEmbedder, _ samples: [Int16], chunk: Int) throws -> [[Float]] {
        var out: [[Float]] = []
        var offset = 0
        while offset < samples.count {
            let end = min(offset + chunk, samples.count)
            out += try embedder.feed(Array(samples[offset..<end]))
            offset = end
        }
        return out
    }

    @Test func streamingEmbeddingsEqualPythonOnnxruntime() throws {
        let dir = try Self.scratch("reference")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phrase = try Self.phrase(in: dir)
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.repositoryRoot + "/.deps/onnx"
        let json = try Self.run("/usr/bin/env", ["python3", Self.reference, Self.modelsDirectory, phrase.wav],
                                environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["sample_count"] as? Int == phrase.samples.count)
        let expected = try #require(object["embeddings"] as? [[Double]]).map { $0.map(Float.init) }

        let embedder = try OpenWakeWordEmbedder.locate()
        let streamed = try Self.feedInChunks(embedder, phrase.samples, chunk: AudioFormat.chunkSamples)
        #expect(streamed.count == phrase.samples.count / 1280)
        #expect(streamed.count == expected.count)
        #expect(streamed.allSatisfy { $0.count == 96 })
        let difference = Self.maxDifference(streamed, expected)
        #expect(difference <= Self.tolerance, "max abs difference \(difference)")
        // Not all zeros or constants: the comparison means something.
        #expect(Set(streamed[12].map { Int($0 * 100) }).count > 20)
    }

    @Test func streamingInDaemonChunksEqualsTheWholeClip() throws {
        let dir = try Self.scratch("chunks")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let samples = try Self.phrase(in: dir).samples
        let embedder = try OpenWakeWordEmbedder.locate()
        let clip = try embedder.embeddings(ofClip: samples)
        #expect(clip.count == samples.count / embedder.samplesPerEmbedding)
        for chunk in [1600, 1280, 777, 5000] {
            embedder.reset()
            let streamed = try Self.feedInChunks(embedder, samples, chunk: chunk)
            #expect(streamed.count == clip.count, "chunk \(chunk)")
            let difference = Self.maxDifference(streamed, clip)
            #expect(difference <= Self.tolerance, "chunk \(chunk): max abs difference \(difference)")
        }
        // reset starts a new stream: the same audio again gives the same embeddings.
        embedder.reset()
        let again = try Self.feedInChunks(embedder, samples, chunk: 1600)
        #expect(Self.maxDifference(again, clip) <= Self.tolerance)
        #expect(try embedder.embeddings(ofClip: Array(samples.prefix(1279))).isEmpty)
    }

    @Test("two streams share one pair of sessions yet keep their own state: interleaved on two threads, each gets what it gets alone")
    func streamsShareTheSessionsButNotTheirState() async throws {
        let dir = try Self.scratch("shared")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let samples = try Self.phrase(in: dir).samples
        let first = try OpenWakeWordEmbedder.locate()
        let second = try OpenWakeWordEmbedder.locate()
        #expect(OpenWakeWordEmbedder.liveModelCount == 1, "one directory, one pair of sessions")
        let alone = try first.embeddings(ofClip: samples)
        let silence = [Int16](repeating: 0, count: samples.count)
        let quiet = try first.embeddings(ofClip: silence)
        // Two streams at once, each in its own chunks, on two threads.
        async let speech = Self.feedInChunks(first, samples, chunk: 1600)
        async let nothing = Self.feedInChunks(second, silence, chunk: 777)
        let (heard, heardNothing) = try await (speech, nothing)
        #expect(Self.maxDifference(heard, alone) <= Self.tolerance)
        #expect(Self.maxDifference(heardNothing, quiet) <= Self.tolerance)
    }

    @Test func frontEndVersionNamesTheModelsByDigest() throws {
        let embedder = try OpenWakeWordEmbedder.locate()
        let version = embedder.frontEndVersion
        #expect(version.hasPrefix("openwakeword-0.5.1 mel:"))
        let mel = try Data(contentsOf: URL(fileURLWithPath: Self.modelsDirectory + "/melspectrogram.onnx"))
        #expect(version.contains("mel:" + String(SHA256.hex(SHA256.digest(mel)).prefix(12)) + " emb:"))
        #expect(version.count == "openwakeword-0.5.1 mel:".count + 12 + " emb:".count + 12)
        #expect(embedder.dimension == 96 && embedder.samplesPerEmbedding == 1280)
    }

    @Test func sessionsReadTheModelsNamesAndRuntimeErrorsComeBackAsSentences() throws {
        let mel = try ONNXSession(path: Self.modelsDirectory + "/melspectrogram.onnx")
        #expect(mel.inputName == "input" && mel.outputName == "output")
        let embedding = try ONNXSession(path: Self.modelsDirectory + "/embedding_model.onnx")
        #expect(embedding.inputName == "input_1")
        let frames = try mel.run(input: [Float](repeating: 0, count: 1760), shape: [1, 1760])
        #expect(frames.shape == [1, 1, 8, 32] && frames.values.count == 8 * 32)
        // Too short for one frame: ONNX Runtime's own message, through the funnel.
        do {
            _ = try mel.run(input: [Float](repeating: 0, count: 100), shape: [1, 100])
            Issue.record("a 100-sample mel run succeeded")
        } catch {
            #expect(error.operation == "Run (melspectrogram.onnx)")
            #expect(error.message.contains("Invalid input shape"), "\(error.message)")
            #expect(error.sentence.hasPrefix("ONNX Runtime failed in Run (melspectrogram.onnx): "))
        }
        #expect(throws: ONNXError.self) { try mel.run(input: [1, 2, 3], shape: [1, 4]) }
    }

    @Test func aMissingModelNamesTheFileAndMakeSetup() throws {
        let dir = try Self.scratch("missing")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            _ = try OpenWakeWordEmbedder.locate(environment: ["EARS_FRONTEND_DIR": dir])
            Issue.record("an empty directory loaded")
        } catch {
            #expect(error.sentence.contains(dir + "/melspectrogram.onnx"), "\(error.sentence)")
            #expect(error.sentence.contains("make setup"), "\(error.sentence)")
        }
        try FileManager.default.copyItem(atPath: Self.modelsDirectory + "/melspectrogram.onnx", toPath: dir + "/melspectrogram.onnx")
        do {
            _ = try OpenWakeWordEmbedder.locate(environment: ["EARS_FRONTEND_DIR": dir])
            Issue.record("a directory without embedding_model.onnx loaded")
        } catch {
            #expect(error.sentence == "The openwakeword front end model is not installed at \(dir)/embedding_model.onnx; "
                    + OpenWakeWordEmbedder.installHint + ".")
        }
    }

    @Test func aMissingLibraryNamesTheFileAndMakeSetup() throws {
        let absent = "/nonexistent/ears/libonnxruntime.so"
        do {
            _ = try ONNXRuntimeLibrary(searchPaths: [absent])
            Issue.record("a missing library loaded")
        } catch {
            #expect(error.sentence.hasPrefix("The onnxruntime library libonnxruntime.so is not installed; run make setup"),
                    "\(error.sentence)")
            #expect(error.sentence.contains(absent))
        }
        #expect(ONNXRuntimeLibrary.searchPaths(environment: ["EARS_ONNXRUNTIME_LIBRARY": absent]) == [absent])
        // A file that is not a library: the dynamic linker's reason is kept.
        let dir = try Self.scratch("notalibrary")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("not an ELF file".utf8).write(to: URL(fileURLWithPath: dir + "/libonnxruntime.so"))
        #expect(throws: TranscriberError.self) { try ONNXRuntimeLibrary(searchPaths: [dir + "/libonnxruntime.so"]) }
    }

    @Test func theProjectLibraryIsFoundAndIsThePinnedVersion() throws {
        let library = try ONNXRuntimeLibrary.shared()
        #expect(library.version == ONNXRuntimeLibrary.pinnedVersion)
        #expect(library.path.hasSuffix("libonnxruntime.so." + ONNXRuntimeLibrary.pinnedVersion))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var detail: String
    var description: String { detail }
}
