import Foundation
import Testing

/// The module map as a rule (issue 22): which of the package's modules each
/// module may import. The core's five modules sit in layers and import no
/// edge and no C library; an edge imports the core, its own C library and at
/// most the socket layer; only the command line imports the daemon. A new
/// module, or an import that crosses the map, fails here with the file and
/// the line (docs/architecture.md draws the same map).
@Suite struct ModuleRulesTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The core's modules, lowest layer first.
    static let core = ["EarsCore", "EarsPhonetics", "EarsConfig", "EarsNeural", "EarsTraining"]
    /// The edges: one C library, engine, server or tool each.
    static let edges = ["EarsSystem", "EarsALSA", "EarsFiles", "EarsPocketSphinx", "EarsSpeex", "EarsSocket", "EarsStatus", "EarsVosk",
                        "EarsWyoming", "EarsONNX", "EarsSynth", "EarsSystemd", "EarsAvahi"]
    /// The package's C library targets.
    static let cLibraries = ["CALSA", "CSndFile", "CSampleRate", "CPocketSphinx", "CSpeexDSP", "CSystemd", "CAvahi"]

    /// The package's modules each module may import.
    static let allowed: [String: Set<String>] = [
        "EarsCore": [],
        "EarsPhonetics": ["EarsCore"],
        "EarsConfig": ["EarsCore", "EarsPhonetics"],
        "EarsNeural": ["EarsCore"],
        "EarsTraining": ["EarsCore", "EarsPhonetics", "EarsNeural"],
        "EarsALSA": ["EarsCore", "EarsSystem", "CALSA"],
        "EarsSystem": [],
        "EarsFiles": ["EarsCore", "EarsSystem", "CSndFile", "CSampleRate"],
        "EarsPocketSphinx": ["EarsCore", "EarsPhonetics", "EarsSystem", "CPocketSphinx"],
        "EarsSpeex": ["EarsCore", "CSpeexDSP"],
        "EarsSocket": ["EarsSystem"],
        "EarsStatus": ["EarsSocket"],
        "EarsVosk": ["EarsCore", "EarsSystem"],
        "EarsWyoming": ["EarsCore", "EarsConfig", "EarsSocket"],
        "EarsONNX": ["EarsCore", "EarsNeural", "EarsSystem"],
        "EarsSynth": ["EarsCore", "EarsTraining", "EarsSystem"],
        "EarsSystemd": ["CSystemd"],
        "EarsAvahi": ["CAvahi"],
        "EarsEngines": Set(core + ["EarsPocketSphinx", "EarsSpeex", "EarsVosk", "EarsONNX"]),
        "EarsTools": Set(core + ["EarsSystem", "EarsEngines", "EarsFiles", "EarsONNX", "EarsSynth", "EarsPocketSphinx", "EarsVosk"]),
        "EarsDaemon": Set(core + edges + ["EarsEngines"]),
        "EarsCLI": Set(core + edges + ["EarsEngines", "EarsTools", "EarsDaemon"]),
        "ears": ["EarsCLI"],
    ]

    /// What the core may import from outside the package: no C library, no Glibc.
    static let coreSystemModules: Set<String> = ["Foundation", "Synchronization", "Dispatch"]

    /// Why `module` may not import `imported`, or nil when it may.
    static func problem(_ module: String, imports imported: String) -> String? {
        let ours = imported.hasPrefix("Ears") || imported == "ears" || cLibraries.contains(imported)
        if ours {
            guard let allowed = allowed[module] else { return "\(module) is not on the module map" }
            return allowed.contains(imported) ? nil : "\(module) may not import \(imported)"
        }
        if core.contains(module), !coreSystemModules.contains(imported) {
            return "\(module) is in the pure-Swift core and may not import \(imported)"
        }
        return nil
    }

    @Test("every import in Sources follows the module map")
    func everyImportFollowsTheMap() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
        var checked = 0
        for module in modules.sorted() where !Self.cLibraries.contains(module) {
            #expect(Self.allowed[module] != nil, "Sources/\(module) is a module the map does not place; add it to ModuleRulesTests and docs/architecture.md")
            let directory = sources.appendingPathComponent(module)
            guard let files = FileManager.default.enumerator(atPath: directory.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index <= 1, index + 1 < words.count,
                          index == 0 || words[0] == "@testable" || words[0] == "@_exported" else { continue }
                    checked += 1
                    let imported = String(words[index + 1])
                    if let problem = Self.problem(module, imports: imported) {
                        Issue.record("Sources/\(module)/\(file):\(number + 1): \(problem)")
                    }
                }
            }
        }
        #expect(checked > 150, "the scan found the imports (\(checked))")
    }

    @Test("the rule bites: the core importing an edge or Glibc, an edge importing the daemon, the daemon importing the tools, and an unmapped module are refused")
    func theRuleBites() {
        #expect(Self.problem("EarsCore", imports: "EarsALSA") != nil)
        #expect(Self.problem("EarsPhonetics", imports: "EarsConfig") != nil, "a lower layer may not import a higher one")
        #expect(Self.problem("EarsNeural", imports: "Glibc") != nil)
        #expect(Self.problem("EarsWyoming", imports: "EarsDaemon") != nil)
        #expect(Self.problem("EarsALSA", imports: "CPocketSphinx") != nil, "an edge imports only its own C library")
        #expect(Self.problem("EarsNew", imports: "EarsCore") != nil)
        #expect(Self.problem("EarsDaemon", imports: "EarsTools") != nil, "the daemon never runs the offline tools")
        #expect(Self.problem("EarsEngines", imports: "EarsDaemon") != nil)
        #expect(Self.problem("EarsDaemon", imports: "EarsALSA") == nil)
        #expect(Self.problem("EarsALSA", imports: "Glibc") == nil)
    }
}
