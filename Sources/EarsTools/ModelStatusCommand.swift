import EarsCore
import EarsONNX
import EarsPocketSphinx
import EarsVosk
import Foundation
import EarsConfig
import EarsEngines

/// `ears model status [--json]`: for each engine, whether its model is
/// installed, where, how big, and one sentence on how to install it; then
/// the neural detector's parts: ONNX Runtime (`onnxruntime`) and
/// openWakeWord's front-end models (`frontend`). Reads the file system
/// only; nothing is loaded.
package enum ModelStatusCommand {
    /// One engine's installation, in the wire form of `--json`.
    package struct EngineInstallation: Equatable {
        /// `installed`, `not_installed` or `unsupported`.
        package var status: String
        /// The model directory found, or where one was looked for.
        package var path: String
        /// Bytes on disk of the model (and, for Vosk, its library).
        package var sizeBytes: Int64
        /// One sentence: what to do next.
        package var hint: String

        /// `{"status":…,"path":…,"size_bytes":…,"install":…}`.
        package var json: String {
            JSONText.object([("status", JSONText.string(status)), ("path", JSONText.string(path)),
                             ("size_bytes", String(sizeBytes)), ("install", JSONText.string(hint))])
        }
    }

    /// PocketSphinx's installation for the configured (or default) model.
    package static func pocketSphinx(configured: String?) -> EngineInstallation {
        do throws(TranscriberError) {
            let model = try PocketSphinxModel.locate(in: configured)
            return EngineInstallation(status: "installed", path: model.directory, sizeBytes: directorySize(model.directory),
                                      hint: "PocketSphinx is installed; it is the default engine.")
        } catch {
            return EngineInstallation(status: "not_installed", path: configured ?? PocketSphinxModel.defaultDirectory,
                                      sizeBytes: 0, hint: error.sentence)
        }
    }

    /// Vosk's installation for the configured (or default) model.
    package static func vosk(configured: String?) -> EngineInstallation {
        let found = VoskModel.status(configured: configured)
        return EngineInstallation(status: found.status.rawValue, path: found.path, sizeBytes: found.sizeBytes, hint: found.hint)
    }

    /// ONNX Runtime's library (libonnxruntime.so), where ears would load it from.
    package static func onnxRuntime() -> EngineInstallation {
        if let path = ONNXRuntimeLibrary.installedPath() {
            let size = (try? FileManager.default.attributesOfItem(atPath: (path as NSString).resolvingSymlinksInPath)[.size]
                        as? NSNumber)?.int64Value ?? 0
            return EngineInstallation(status: "installed", path: path, sizeBytes: size,
                                      hint: "ONNX Runtime is installed; the neural wake detector's front end runs on it.")
        }
        let searched = ONNXRuntimeLibrary.searchPaths().filter { $0.contains("/") }
        let missing = TranscriberError.libraryMissing(engine: "onnxruntime", library: ONNXRuntimeLibrary.fileName,
                                                      install: ONNXRuntimeLibrary.installHint)
        return EngineInstallation(status: "not_installed", path: searched.first ?? ONNXRuntimeLibrary.fileName,
                                  sizeBytes: 0, hint: missing.sentence)
    }

    /// openWakeWord's front-end models (melspectrogram.onnx, embedding_model.onnx).
    package static func frontEnd() -> EngineInstallation {
        let found = OpenWakeWordEmbedder.status()
        if found.installed {
            return EngineInstallation(status: "installed", path: found.path, sizeBytes: found.sizeBytes,
                                      hint: "openWakeWord \(OpenWakeWordEmbedder.openWakeWordVersion)'s front-end models are installed.")
        }
        let missing = TranscriberError.modelMissing(engine: "openwakeword front end",
                                                    path: found.path + "/" + OpenWakeWordEmbedder.melFileName,
                                                    install: OpenWakeWordEmbedder.installHint)
        return EngineInstallation(status: "not_installed", path: found.path, sizeBytes: 0, hint: missing.sentence)
    }

    /// One configured phrase's trained model (`ears train`), in the wire form of `--json`.
    package struct PhraseModel: Equatable {
        /// `trained`, `not_trained`, `unusable` or `off` (`[wake] trained_models = off`).
        package var status: String
        /// The phrase as configured.
        package var phrase: String
        /// Where its model is (or would be).
        package var path: String
        /// The model's threshold and its figures on held-out voices, when trained.
        package var detail: String
        /// One sentence: what to do next.
        package var hint: String

        /// `{"phrase":…,"status":…,"path":…,"detail":…,"hint":…}`.
        package var json: String {
            JSONText.object([("phrase", JSONText.string(phrase)), ("status", JSONText.string(status)),
                             ("path", JSONText.string(path)), ("detail", JSONText.string(detail)), ("hint", JSONText.string(hint))])
        }
    }

    /// Each configured phrase's trained model, read (not loaded into an engine).
    package static func phraseModels(config: EarsConfig) -> [PhraseModel] {
        config.phrases.map { phrase in
            let path = TrainedModels.path(of: phrase.text, config: config)
            guard config.trainedModels else {
                return PhraseModel(status: "off", phrase: phrase.text, path: path, detail: "",
                                   hint: "[wake] trained_models = off: the acoustic route hears this phrase.")
            }
            do throws(TranscriberError) {
                guard let model = try TrainedModels.read(path, phrase: phrase.text) else {
                    return PhraseModel(status: "not_trained", phrase: phrase.text, path: path, detail: "",
                                       hint: "The acoustic route hears this phrase; ears train \"\(phrase.text)\" builds a model for it.")
                }
                let percent = { (value: Double?) in value.map { "\(Int(($0 * 100).rounded()))%" } ?? "n/a" }
                let figures = model.validation
                let detail = "threshold \(model.threshold), trained \(model.training.createdAt); held-out voices: recall clean "
                    + "\(percent(figures.recallClean)), ~10 dB \(percent(figures.recallAt10dB)), ~5 dB \(percent(figures.recallAt5dB)), "
                    + "false wakes \(figures.falseWakesPerHour.map { JSONText.number($0, places: 1) } ?? "n/a")/h, "
                    + "sound-alikes \(percent(figures.soundAlikeWakeRate))"
                return PhraseModel(status: "trained", phrase: phrase.text, path: path, detail: detail,
                                   hint: "ears listen and ears scan hear this phrase with its trained model.")
            } catch {
                return PhraseModel(status: "unusable", phrase: phrase.text, path: path, detail: "", hint: error.sentence)
            }
        }
    }

    /// Runs the command for `config`; returns the exit status (0: the
    /// configured engine is installed and, when a phrase has a trained
    /// model, ONNX Runtime and the front end are too and every model is
    /// usable; 1 otherwise).
    package static func run(config: EarsConfig, json: Bool, output: (String) -> Void) -> Int32 {
        let engines: [(EngineKind, EngineInstallation)] = [
            (.pocketsphinx, pocketSphinx(configured: config.engine == .pocketsphinx ? config.model : nil)),
            (.vosk, vosk(configured: config.engine == .vosk ? config.model : nil)),
        ]
        let phrases = phraseModels(config: config)
        let neededNeural = phrases.contains { $0.status == "trained" || $0.status == "unusable" }
        let entries: [(name: String, configured: Bool, installation: EngineInstallation)] =
            engines.map { ($0.0.rawValue, $0.0 == config.engine, $0.1) }
            + [("onnxruntime", neededNeural, onnxRuntime()), ("frontend", neededNeural, frontEnd())]
        if json {
            output(JSONText.object(entries.map { ($0.name, $0.installation.json) }
                + [("phrases", "[" + phrases.map(\.json).joined(separator: ",") + "]")]))
        } else {
            for (name, configured, installation) in entries {
                let marker = configured ? " (configured)" : ""
                output("\(name)\(marker): \(installation.status.replacingOccurrences(of: "_", with: " "))")
                output("  path: \(installation.path)")
                if installation.sizeBytes > 0 {
                    output("  size: \(JSONText.number(Double(installation.sizeBytes) / 1_048_576, places: 1)) MiB")
                }
                output("  \(installation.hint)")
            }
            for phrase in phrases {
                output("phrase \"\(phrase.phrase)\": \(phrase.status.replacingOccurrences(of: "_", with: " "))")
                output("  path: \(phrase.path)")
                if !phrase.detail.isEmpty { output("  \(phrase.detail)") }
                output("  \(phrase.hint)")
            }
        }
        let required = entries.filter(\.configured).map(\.installation)
        let usable = !phrases.contains { $0.status == "unusable" }
        return required.allSatisfy({ $0.status == "installed" }) && usable ? 0 : 1
    }

    /// Total size of the regular files under `path` (or of `path` itself), in bytes.
    static func directorySize(_ path: String) -> Int64 {
        let files = FileManager.default
        guard let enumerator = files.enumerator(atPath: path) else {
            return (try? files.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        }
        var total: Int64 = 0
        while let name = enumerator.nextObject() as? String {
            if let size = (try? files.attributesOfItem(atPath: path + "/" + name))?[.size] as? NSNumber {
                total += size.int64Value
            }
        }
        return total
    }
}
