import Foundation
import Testing

/// Privacy as a property of the source: the modules that touch audio or
/// transcript text (audio owner, ear, capture, transcribers, detector) must not
/// name an API that writes files. Reading is fine; writing is the line.
@Suite struct PrivacyBoundaryTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The audio-handling sources, by directory or file.
    static let audioHandling = [
        "Sources/EarsCore", "Sources/EarsPhonetics", "Sources/EarsConfig", "Sources/EarsNeural", "Sources/EarsTraining", "Sources/EarsALSA", "Sources/EarsFiles", "Sources/EarsPocketSphinx", "Sources/EarsVosk", "Sources/EarsWyoming", "Sources/EarsSpeex", "Sources/EarsONNX",
        "Sources/EarsDaemon/Capture", "Sources/EarsDaemon/Listen", "Sources/EarsTools/ScanCommand.swift", "Sources/EarsTools/TuneCommand.swift", "Sources/EarsTools/TuneReport.swift", "Sources/EarsCLI", "Sources/EarsTools/Train/PhraseTrainer.swift",
        "Sources/CALSA", "Sources/CSndFile", "Sources/CPocketSphinx", "Sources/CSpeexDSP",
    ]

    /// File-writing APIs, as the patterns that name them.
    static let forbidden: [(name: String, pattern: String)] = [
        ("Data/String write(to:)", #"\.write\(to:"#),
        ("write(toFile:)", #"write\(toFile:"#),
        ("FileHandle for writing", #"FileHandle\(forWriting|FileHandle\(forUpdating"#),
        ("FileManager.createFile", #"createFile\(atPath"#),
        ("fopen with a write mode", #"fopen\([^)]*"[wa+]"#),
        ("open with a write flag", #"\bO_(WRONLY|RDWR|CREAT|APPEND|TRUNC)\b"#),
        ("creat()", #"\bcreat\("#),
        ("libsndfile write mode", #"SFM_(WRITE|RDWR)"#),
        ("UserDefaults", #"UserDefaults"#),
        ("an output stream to a file", #"OutputStream\(|FileOutputStream"#),
    ]

    private func sources() throws -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        let manager = FileManager.default
        for entry in Self.audioHandling {
            let url = Self.root.appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                Issue.record("\(entry) is listed as audio-handling but does not exist")
                continue
            }
            let paths = isDirectory.boolValue
                ? (manager.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []).map { url.appendingPathComponent($0).path }
                : [url.path]
            for path in paths where path.hasSuffix(".swift") || path.hasSuffix(".h") || path.hasSuffix(".c") {
                files.append((path, try String(contentsOfFile: path, encoding: .utf8)))
            }
        }
        return files
    }

    @Test func audioHandlingSourcesNameNoFileWritingAPI() throws {
        let files = try sources()
        #expect(files.count > 20, "found only \(files.count) source files")
        for (path, text) in files {
            for (name, pattern) in Self.forbidden {
                let regex = try Regex(pattern)
                for line in text.split(separator: "\n") where line.contains(regex) {
                    Issue.record("\(path.replacingOccurrences(of: Self.root.path + "/", with: "")) names \(name): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }

    @Test func theForbiddenPatternsCatchWhatTheyShould() throws {
        let samples = ["try data.write(to: url)", "FileHandle(forWritingAtPath: p)", #"fopen(path, "wb")"#,
                       "open(path, O_WRONLY | O_CREAT)", "sf_open(path, SFM_WRITE, &info)", "UserDefaults.standard.set(x)",
                       "try text.write(toFile: p, atomically: true)", "FileManager.default.createFile(atPath: p)"]
        for sample in samples {
            let caught = try Self.forbidden.contains { try sample.contains(Regex($0.pattern)) }
            #expect(caught, "\(sample) slipped through")
        }
        let reads = [#"fopen(path, "rb")"#, "open(path, O_RDONLY)", "sf_open(path, SFM_READ, &info)", "FileManager.default.contents(atPath: p)"]
        for sample in reads {
            let caught = try Self.forbidden.contains { try sample.contains(Regex($0.pattern)) }
            #expect(!caught, "\(sample) is a read but was flagged")
        }
    }
}
