#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import Foundation
import EarsPhonetics
import EarsConfig
import EarsNeural

/// The trained models (`ears train`) for the configured phrases: found in
/// the models directory by each phrase's file name, read, and checked.
///
/// A phrase without a file is simply untrained (it takes the acoustic
/// route). A file that exists but cannot be used — truncated, corrupt,
/// another format version — is an error whose sentence names the file and
/// `ears train` as the fix: `ears listen` closes with it, `ears scan` exits
/// with it. Nothing is loaded into an engine here.
package enum TrainedModels {
    /// One phrase's model, as found on disk.
    package struct Found: Sendable {
        /// The configured phrase the model is for (its text is what wakes report).
        package var phrase: WakePhrase
        /// The model, its phrase set to the configured text.
        package var model: WakeModel
        /// The file it was read from.
        package var path: String
    }

    /// What a kept-aside model's file name ends in, after `<phrase>.wakemodel`:
    /// `ears train` found the acoustic route better (listen and scan never read it).
    package static let asideSuffix = ".aside"
    /// `ears train`'s exit status when it kept the model aside.
    package static let keptAsideExitStatus: Int32 = 3

    /// The models directory for `config` (`PhraseModelDirectory`).
    package static func directory(for config: EarsConfig) -> String {
        PhraseModelDirectory.resolve(configured: config.modelsDirectory, environment: ProcessInfo.processInfo.environment,
                                     userID: getuid())
    }

    /// The path `phrase`'s model has (or would have) in `config`'s models directory.
    package static func path(of phrase: String, config: EarsConfig) -> String {
        directory(for: config) + "/" + PhraseModelDirectory.fileName(forPhrase: phrase)
    }

    /// The models of `config`'s phrases that have one, in phrase order; none
    /// when `[wake] trained_models` is off. Throws for a file that is there
    /// but unusable.
    package static func load(for config: EarsConfig) throws(TranscriberError) -> [Found] {
        guard config.trainedModels else { return [] }
        var found: [Found] = []
        for phrase in config.phrases {
            let path = path(of: phrase.text, config: config)
            guard let model = try read(path, phrase: phrase.text) else { continue }
            var named = model
            named.phrase = phrase.text
            found.append(Found(phrase: phrase, model: named, path: path))
        }
        return found
    }

    /// The model at `path`, nil when there is no file; throws when there is
    /// one that cannot be used.
    package static func read(_ path: String, phrase: String) throws(TranscriberError) -> WakeModel? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .engineFailed(engine: "trained", detail: "the model file \(path) cannot be read; check its permissions, or run ears train \"\(phrase)\" again")
        }
        do throws(WakeModelError) {
            return try WakeModel.decode([UInt8](data))
        } catch {
            throw .engineFailed(engine: "trained", detail: "the model file \(path) is unusable: \(error.sentence.replacingOccurrences(of: "\"PHRASE\"", with: "\"\(phrase)\""))")
        }
    }

    /// What identifies the model files `config` would load (path, size,
    /// modification time, or absence), so a reload can tell that `ears train`
    /// wrote a new one since the engine loaded.
    package static func signature(for config: EarsConfig) -> [String] {
        guard config.trainedModels else { return [] }
        return config.phrases.map { phrase in
            let path = path(of: phrase.text, config: config)
            var info = stat()
            guard stat(path, &info) == 0 else { return path + " absent" }
            return "\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)"
        }
    }
}
