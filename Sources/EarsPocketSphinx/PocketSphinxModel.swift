import EarsCore
import Foundation

/// Where a PocketSphinx model's three parts live: the acoustic model
/// directory (the one holding `mdef`), the language model, the dictionary.
package struct PocketSphinxModel: Sendable, Equatable {
    /// Debian's pocketsphinx-en-us install location.
    package static let defaultDirectory = "/usr/share/pocketsphinx/model/en-us"
    /// How a person gets the default model.
    package static let installHint = "install it with: apt-get install pocketsphinx-en-us (or run make setup)"

    /// Acoustic model directory (contains `mdef`).
    package var acousticModel: String
    /// Language model file (`.lm.bin`, `.lm` or `.DMP`).
    package var languageModel: String
    /// Pronunciation dictionary (`.dict`).
    package var dictionary: String
    /// The directory the parts were found in (shown on the status socket).
    package var directory: String

    /// Finds the parts inside `directory` (default: Debian's en-us model):
    /// the first subdirectory (or the directory itself) holding `mdef`, the
    /// first `*.lm.bin`/`*.lm`/`*.DMP` file and the first `*.dict` file.
    /// Throws `modelMissing` naming what is absent and how to install it.
    package static func locate(in directory: String?) throws(TranscriberError) -> PocketSphinxModel {
        let root = directory ?? defaultDirectory
        let files = FileManager.default
        let missing = { (what: String) -> TranscriberError in
            .modelMissing(engine: "pocketsphinx", path: root + " (no \(what))",
                          install: directory == nil ? installHint : "point [engine] model at a directory with an acoustic model, a .lm.bin and a .dict")
        }
        guard let entries = try? files.contentsOfDirectory(atPath: root).sorted() else {
            throw TranscriberError.modelMissing(engine: "pocketsphinx", path: root,
                                                install: directory == nil ? installHint : "check [engine] model")
        }
        var acoustic: String?
        if files.fileExists(atPath: root + "/mdef") {
            acoustic = root
        } else {
            acoustic = entries.map { root + "/" + $0 }.first { files.fileExists(atPath: $0 + "/mdef") }
        }
        let lm = entries.first { $0.hasSuffix(".lm.bin") && !$0.contains("phone") }
            ?? entries.first { $0.hasSuffix(".lm") || $0.hasSuffix(".DMP") }
        let dict = entries.first { $0.hasSuffix(".dict") }
        guard let acoustic else { throw missing("acoustic model directory with mdef") }
        guard let lm else { throw missing("language model .lm.bin") }
        guard let dict else { throw missing("dictionary .dict") }
        return PocketSphinxModel(acousticModel: acoustic, languageModel: root + "/" + lm,
                                 dictionary: root + "/" + dict, directory: root)
    }
}
