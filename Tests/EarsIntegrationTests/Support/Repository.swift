import Foundation

/// The repository the tests run from: its files, its `make` rules, the
/// version the program's source declares.
enum Repository {
    /// The repository root (this file is Tests/EarsIntegrationTests/Support/Repository.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The text of `relative` (e.g. "etc/ears.conf").
    static func file(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    /// `make -C <repository> ...`, without the make flags of a `make test` around us.
    static func make(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try runCommand("/usr/bin/make", ["-C", root, "--no-print-directory"] + arguments,
                       environment: ["MAKEFLAGS": "", "MFLAGS": "", "MAKELEVEL": ""].merging(environment) { $1 })
    }

    /// The program's version as its source declares it (`static let version =
    /// "…"`; the integration tests do not link the program), wherever the
    /// command-line code keeps it — as `make man` finds it.
    static func earsVersion() throws -> String {
        let sources = root + "/Sources"
        let walker = FileManager.default.enumerator(atPath: sources)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift"), let source = try? file("Sources/" + relative),
                  let match = source.firstMatch(of: /static let version = "([^"]+)"/) else { continue }
            return String(match.1)
        }
        throw RepositoryError(description: "no `static let version = \"…\"` under \(sources)")
    }
}

/// A repository file the tests need is not as expected.
struct RepositoryError: Error, CustomStringConvertible {
    var description: String
}
