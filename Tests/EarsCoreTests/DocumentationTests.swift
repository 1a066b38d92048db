import Foundation
import Testing
@testable import EarsCore
@testable import EarsConfig

/// The docs are part of the product: they must match the code.
@Suite struct DocumentationTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func read(_ relative: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test func everyConfigKeyIsDocumentedWithItsSection() throws {
        let doc = try read("docs/configuration.md")
        for (key, _) in ConfigParser.documentedKeys {
            let parts = key.split(separator: ".")
            let row = doc.split(separator: "\n").first { $0.contains("`[\(parts[0])]`") && $0.contains("`\(parts[1])`") }
            #expect(row != nil, "docs/configuration.md has no row for [\(parts[0])] \(parts[1])")
        }
    }

    @Test func theExampleConfigParsesAndSetsOnlyDefaults() throws {
        let text = try read("etc/ears.conf")
        let config = try ConfigParser.parse(text, file: "etc/ears.conf")
        #expect(config == EarsConfig())
    }

    @Test func theReadmeStartsWithTheTwoCommands() throws {
        let readme = try read("README.md")
        let firstBlock = readme.components(separatedBy: "```sh\n").dropFirst().first ?? ""
        let commands = firstBlock.components(separatedBy: "```").first?.split(separator: "\n")
            .map { $0.split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? []
        #expect(commands == ["make run", "make test"])
    }
}
