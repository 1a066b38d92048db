import Foundation
import Testing

/// The README's tour (pasted by `make readme-examples`) against what the
/// program prints now: when a key or a row changes, this fails until the
/// examples are pasted again.
@Suite struct ReadmeExamplesTests {
    /// The lines between a README section's markers.
    private func section(_ name: String) throws -> [String] {
        let text = try Repository.file("README.md")
        let begin = try #require(text.range(of: "<!-- \(name):begin"), "README.md has no \(name) section")
        let end = try #require(text.range(of: "<!-- \(name):end -->"))
        return text[begin.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    /// Each JSON line's `event` (or "") and its key set.
    private func keys(_ lines: [String]) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for line in lines where line.hasPrefix("{") {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
            found[object["event"] as? String ?? ""] = Set(object.keys)
        }
        return found
    }

    /// The first column of a status table: its row names, top level only.
    private func rowNames(_ lines: [String]) -> Set<String> {
        Set(lines.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("$") && !$0.hasPrefix("ears at") && !$0.hasPrefix("```") }
            .compactMap { $0.components(separatedBy: "  ").first?.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty })
    }

    @Test("the scan and soundalikes examples have the keys the program prints")
    func jsonKeysMatch() throws {
        let dir = try scratchDirectory("readme-keys")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try Speech.wav("hey cordelia, what's for dinner", voice: "rms", at: dir + "/call.wav")
        let scan = try runCommand(earsBinary, ["scan", dir + "/call.wav", "--json", "--phrase", "hey cordelia", "--config", "/dev/null",
                                               "--models-dir", dir + "/models"])
        let documented = keys(try section("readme-tour-scan"))
        #expect(!documented.isEmpty)
        #expect(documented == keys(scan.stdout.split(separator: "\n").map(String.init)), "README: \(documented)\nears: \(scan.stdout)")
        let alikes = try runCommand(earsBinary, ["soundalikes", "hey cordelia", "--json", "--count", "1", "--config", "/dev/null"])
        #expect(keys(try section("readme-tour-soundalikes")) == keys(alikes.stdout.split(separator: "\n").map(String.init)))
    }

    @Test("the status example has the rows ears status prints on a terminal, in the same state (a --input file played to its end)")
    func statusRowsMatch() throws {
        let dir = try scratchDirectory("readme-status")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try Speech.wav("hey cordelia, what's for dinner", voice: "rms", at: dir + "/call.wav")
        let daemon = try EarsDaemon(["listen", "--input", dir + "/call.wav", "--phrase", "hey cordelia", "--config", "/dev/null",
                                     "--runtime-dir", dir + "/run", "--models-dir", dir + "/models"])
        defer { _ = daemon.terminate() }
        try #require(waitForStatus(dir + "/run/status.sock", within: 30) { $0["phase"] as? String == "ended" } != nil, "\(daemon.output)")
        let table = try runCommand("/usr/bin/script", ["-qec", "\(earsBinary) status --runtime-dir \(dir)/run", "/dev/null"])
        let printed = rowNames(table.stdout.split(whereSeparator: \.isNewline).map { String($0).trimmingCharacters(in: .init(charactersIn: "\r")) })
        let documented = rowNames(try section("readme-tour-status"))
        #expect(documented.count > 10)
        #expect(documented == printed, "only in README: \(documented.subtracting(printed)); only printed: \(printed.subtracting(documented))")
    }
}
