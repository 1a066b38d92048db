#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import EarsSystem
import Foundation
import Synchronization

/// libvosk.so, opened with `dlopen` once per process, and the dozen C entry
/// points ears calls.
///
/// ears has no link-time dependency on Vosk: it builds and runs without it and
/// says how to install it when `--engine vosk` is asked for. The function
/// types below restate the part of `vosk_api.h` (Vosk 0.3.45) that ears uses;
/// `VoskModel` and `VoskTranscriber` are the only callers.
///
/// Immutable after loading and never closed (every model and recognizer made
/// from it calls into it), so one instance is shared by the process.
package final class VoskLibrary: Sendable {
    /// The file name looked for in every search location.
    package static let fileName = "libvosk.so"
    /// The environment variable naming the library file; when set, it is the only place looked.
    package static let environmentVariable = "EARS_VOSK_LIBRARY"
    /// How a person gets the library (the end of the `libraryMissing` sentence).
    package static let installHint = "run make setup (installs the PyPI vosk wheel into .deps/vosk) or set EARS_VOSK_LIBRARY"
    /// Where `make vosk-setup` puts the library, relative to the repository root.
    package static let projectRelativePath = ".deps/vosk/vosk/libvosk.so"

    /// Vosk's log threshold for ears. Measured with 0.3.45: -1 still prints
    /// WARNING lines (they name grammar words) and -2 still prints ERROR
    /// lines; only -3 and below print nothing. Nothing Vosk says may reach a
    /// log unformatted, and ears reports every failure in its own sentence.
    static let silentLogLevel: Int32 = -3

    /// `vosk_set_log_level(level)`: prints messages of severity <= level.
    typealias SetLogLevel = @convention(c) (Int32) -> Void
    /// `vosk_model_new(path)`: the model, or NULL when it cannot be loaded.
    typealias ModelNew = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    /// `vosk_model_free(model)`: drops the caller's reference.
    typealias ModelFree = @convention(c) (OpaquePointer) -> Void
    /// `vosk_model_find_word(model, word)`: the word's symbol id, -1 when unknown.
    typealias ModelFindWord = @convention(c) (OpaquePointer, UnsafePointer<CChar>) -> Int32
    /// `vosk_recognizer_new(model, sample rate in Hz)`: NULL on failure.
    typealias RecognizerNew = @convention(c) (OpaquePointer, Float) -> OpaquePointer?
    /// `vosk_recognizer_new_grm(model, sample rate in Hz, JSON array of phrases)`: NULL on failure.
    typealias RecognizerNewGrammar = @convention(c) (OpaquePointer, Float, UnsafePointer<CChar>) -> OpaquePointer?
    /// The length argument counts samples (shorts), not bytes; the answer is
    /// 1 at an endpoint, 0 while decoding goes on, -1 on an exception.
    typealias AcceptWaveformShorts = @convention(c) (OpaquePointer, UnsafePointer<Int16>, Int32) -> Int32
    /// Result, partial and final result: JSON owned by the recognizer, valid
    /// until the next call on it.
    typealias RecognizerText = @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    /// `vosk_recognizer_reset` and `vosk_recognizer_free`.
    typealias RecognizerVoid = @convention(c) (OpaquePointer) -> Void

    /// The file that was opened (or the bare name when the dynamic linker's own search found it).
    package let path: String

    /// `vosk_model_new`.
    let modelNew: ModelNew
    /// `vosk_model_free`.
    let modelFree: ModelFree
    /// `vosk_model_find_word`.
    let modelFindWord: ModelFindWord
    /// `vosk_recognizer_new`.
    let recognizerNew: RecognizerNew
    /// `vosk_recognizer_new_grm`.
    let recognizerNewGrammar: RecognizerNewGrammar
    /// `vosk_recognizer_accept_waveform_s` (length in samples).
    let acceptWaveform: AcceptWaveformShorts
    /// `vosk_recognizer_result`: `{"text": ...}` after an endpoint.
    let result: RecognizerText
    /// `vosk_recognizer_partial_result`: `{"partial": ...}` while decoding.
    let partialResult: RecognizerText
    /// `vosk_recognizer_final_result`: `{"text": ...}`, flushing the stream.
    let finalResult: RecognizerText
    /// `vosk_recognizer_reset`: drops the current utterance.
    let reset: RecognizerVoid
    /// `vosk_recognizer_free`.
    let recognizerFree: RecognizerVoid

    /// The process's library, opened on first successful use. Throws
    /// `libraryMissing` (naming where it looked) or `engineFailed` when the
    /// file opened but lacks a symbol. A failure is not kept: a daemon that
    /// retries its engine finds a library installed after it started.
    package static func shared() throws(TranscriberError) -> VoskLibrary {
        try loaded.withLock { (library: inout VoskLibrary?) throws(TranscriberError) -> VoskLibrary in
            if let library { return library }
            let opened = try VoskLibrary()
            library = opened
            return opened
        }
    }

    /// Where the library is looked for, in order (`EARS_VOSK_LIBRARY` alone
    /// when set). The last entry is the bare name, for the dynamic linker.
    package static func searchPaths(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let explicit = environment[environmentVariable], !explicit.isEmpty { return [explicit] }
        var paths: [String] = []
        if let exe = LibrarySearch.executableDirectory {
            paths.append(LibrarySearch.normalized(exe + "/../lib/ears/" + fileName))
            if let local = LibrarySearch.upward(from: exe, relativePath: projectRelativePath) { paths.append(local) }
        }
        paths += ["/usr/local/lib/ears/" + fileName, "/usr/lib/ears/" + fileName, fileName]
        return paths
    }

    /// The first search path that is an existing file (the bare name is not
    /// checked here), or nil: what the status report shows without loading.
    package static func installedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        searchPaths(environment: environment).first { $0.contains("/") && LibrarySearch.isFile($0) }
    }

    private static let loaded = Mutex<VoskLibrary?>(nil)

    private init() throws(TranscriberError) {
        let opened: DynamicLibrary
        do throws(DynamicLibrary.NotFound) {
            opened = try DynamicLibrary.open(firstOf: VoskLibrary.searchPaths())
        } catch {
            throw .libraryMissing(engine: "vosk", library: VoskLibrary.fileName,
                                  install: VoskLibrary.installHint + " (looked in " + error.tried.joined(separator: ", ") + ")")
        }
        func symbol<F>(_ name: String, as type: F.Type) throws(TranscriberError) -> F {
            do throws(DynamicLibrary.MissingSymbol) {
                return try opened.symbol(name, as: type)
            } catch {
                throw .engineFailed(engine: "vosk", detail: error.sentence)
            }
        }
        let setLogLevel = try symbol("vosk_set_log_level", as: SetLogLevel.self)
        modelNew = try symbol("vosk_model_new", as: ModelNew.self)
        modelFree = try symbol("vosk_model_free", as: ModelFree.self)
        modelFindWord = try symbol("vosk_model_find_word", as: ModelFindWord.self)
        recognizerNew = try symbol("vosk_recognizer_new", as: RecognizerNew.self)
        recognizerNewGrammar = try symbol("vosk_recognizer_new_grm", as: RecognizerNewGrammar.self)
        acceptWaveform = try symbol("vosk_recognizer_accept_waveform_s", as: AcceptWaveformShorts.self)
        result = try symbol("vosk_recognizer_result", as: RecognizerText.self)
        partialResult = try symbol("vosk_recognizer_partial_result", as: RecognizerText.self)
        finalResult = try symbol("vosk_recognizer_final_result", as: RecognizerText.self)
        reset = try symbol("vosk_recognizer_reset", as: RecognizerVoid.self)
        recognizerFree = try symbol("vosk_recognizer_free", as: RecognizerVoid.self)
        path = opened.path
        // Before any model loads: model loading is the chattiest part.
        setLogLevel(VoskLibrary.silentLogLevel)
    }
}

/// libvosk's own file-system lookup (the shared ones are `LibrarySearch`, EarsSystem).
enum VoskSearch {
    /// Total bytes of the regular files under `path` (symlinks followed once
    /// at the top only), or of `path` itself when it is a file.
    static func size(of path: String) -> Int64 {
        let files = FileManager.default
        let root = (try? files.destinationOfSymbolicLink(atPath: path)).map {
            $0.hasPrefix("/") ? $0 : (path as NSString).deletingLastPathComponent + "/" + $0
        } ?? path
        if LibrarySearch.isFile(root) {
            return (try? files.attributesOfItem(atPath: root)[.size] as? NSNumber)?.int64Value ?? 0
        }
        guard let walker = files.enumerator(atPath: root) else { return 0 }
        var total: Int64 = 0
        while let relative = walker.nextObject() as? String {
            guard let attributes = try? files.attributesOfItem(atPath: root + "/" + relative),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            total += (attributes[.size] as? NSNumber)?.int64Value ?? 0
        }
        return total
    }
}
