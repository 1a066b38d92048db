import Foundation
import Testing

/// The command line and configuration, through the real binary.
@Suite struct CommandLineTests {
    @Test func aBadConfigLineStopsStartUpWithSeventyEightAndFileLine() throws {
        let dir = try scratchDirectory("config")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ears.conf"
        try "[audio]\ndevice = default\n[wake]\nthreshhold = 0.5\n".write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["listen", "check-config", "scan"] {
            let arguments = command == "scan" ? [command, "x.wav", "--config", path] : [command, "--config", path]
            let result = try runCommand(earsBinary, arguments)
            #expect(result.status == 78, "\(command): \(result.status)")
            #expect(result.stderr.contains("\(path):4: unknown key 'threshhold' in [wake]; allowed keys:"), "\(result.stderr)")
        }
    }

    @Test func aMissingConfigFileGivenExplicitlyIsAConfigError() throws {
        let result = try runCommand(earsBinary, ["check-config", "--config", "/nonexistent/ears.conf"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("/nonexistent/ears.conf"))
    }

    @Test func aGoodConfigIsReportedByCheckConfig() throws {
        let dir = try scratchDirectory("config-good")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ears.conf"
        try "[wake]\nphrase = computer | 0.9\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runCommand(earsBinary, ["check-config", "--config", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"computer\""))
    }

    @Test func anUnknownCommandIsAUsageError() throws {
        let result = try runCommand(earsBinary, ["dance"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown command 'dance'"))
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try runCommand(earsBinary, ["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("ears "))
    }

    @Test func statusWithoutADaemonSaysHowToStartOne() throws {
        let dir = try scratchDirectory("status-none")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try runCommand(earsBinary, ["status", "--runtime-dir", dir])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is `ears listen` running?"))
    }

    @Test func soundAlikesPutWordsPeopleSayFirstAndVaryEveryWordOfThePhrase() throws {
        let result = try runCommand(earsBinary, ["soundalikes", "hey cordelia", "--count", "6"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "hey cornelia", "\(lines)")
        // Both words vary within the first few, and a rare spelling such as "schey" is not among them.
        let neighbours = Array(lines.prefix(6))
        #expect(neighbours.contains { $0.hasPrefix("hey ") } && neighbours.contains { $0.hasSuffix(" cordelia") }, "\(neighbours)")
        #expect(!neighbours.contains { $0.hasPrefix("schey") || $0.hasPrefix("seay") }, "\(neighbours)")
        #expect(lines.contains("hey cornelia, nice to see you"), "\(lines)")
    }
}
