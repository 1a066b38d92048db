import Foundation
import Testing

/// `ears status`, `tap` and `follow` find the running daemon without being
/// told where (issue 13): the system service's /run/ears is stood in for by a
/// temporary directory through EARS_SYSTEM_RUNTIME_DIR.
@Suite(.serialized) struct ServiceDiscoveryTests {
    /// An environment in which only the places under `dir` can hold a daemon
    /// (and /tmp/ears-<uid>, which the search always ends with).
    private func environment(_ dir: String) -> [String: String] {
        ["EARS_SYSTEM_RUNTIME_DIR": dir + "/system", "XDG_RUNTIME_DIR": dir + "/xdg", "RUNTIME_DIRECTORY": ""]
    }

    /// An empty configuration file, so /etc/ears/ears.conf on the test machine cannot add a place.
    private func emptyConfig(_ dir: String) throws -> String {
        try "".write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)
        return dir + "/ears.conf"
    }

    @Test("a daemon serving in the system service's directory is found by ears status and tap with no flags")
    func findsTheSystemService() throws {
        let dir = try scratchDirectory("discovery-system")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, _) = try EarsDaemon.closed(in: dir + "/system")
        defer { _ = daemon.terminate() }
        let config = try emptyConfig(dir)

        let status = try runCommand(earsBinary, ["status", "--config", config], environment: environment(dir))
        #expect(status.status == 0, "\(status.stderr)")
        // Piped: today's JSON, for scripts.
        let report = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(report?["phase"] as? String == "closed", "\(status.stdout)")

        let tap = try runCommand(earsBinary, ["tap", "--config", config], environment: environment(dir))
        #expect(tap.status == 0 && tap.stdout.contains("tap: a capture starts now"), "\(tap.stderr)")
    }

    @Test("with nothing running, the error names every place tried and why")
    func namesEveryPlace() throws {
        let dir = try scratchDirectory("discovery-none")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = try emptyConfig(dir)
        var environment = environment(dir)
        environment["RUNTIME_DIRECTORY"] = dir + "/service"
        for command in ["status", "tap", "follow"] {
            let result = try runCommand(earsBinary, [command, "--config", config], environment: environment)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            for place in [dir + "/service", dir + "/system", dir + "/xdg/ears", "/tmp/ears-\(getuid())"] {
                #expect(result.stderr.contains(place + " ("), "\(command): \(place) missing from \(result.stderr)")
            }
            #expect(result.stderr.contains("no socket"), "\(result.stderr)")
            #expect(result.stderr.contains("is `ears listen` running?"), "\(result.stderr)")
        }
    }

    @Test("a configuration named with --config must be good even for a client (exit 78)")
    func aNamedBadConfigIsAConfigError() throws {
        let result = try runCommand(earsBinary, ["status", "--config", "/nonexistent/ears.conf"])
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("/nonexistent/ears.conf"))
    }

    @Test("a socket the user may not open gives the permission sentence, not 'is it running?' alone")
    func permissionDenied() throws {
        let dir = try scratchDirectory("discovery-denied")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = dir + "/run"
        let (daemon, _) = try EarsDaemon.closed(in: run)
        defer { _ = daemon.terminate() }
        #expect(chmod(run + "/status.sock", 0) == 0)
        // Root ignores file modes, so the client runs as nobody when the tests run as root.
        let arguments = ["status", "--runtime-dir", run]
        let result = getuid() == 0
            ? try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", earsBinary] + arguments)
            : try runCommand(earsBinary, arguments)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.contains("permission denied"), "\(result.stderr)")
        #expect(result.stderr.contains("group") && result.stderr.contains("sudo"), "\(result.stderr)")
        #expect(!result.stderr.contains("is `ears listen` running?"), "\(result.stderr)")
    }

    @Test("on a terminal ears status prints a table; --json keeps the JSON there")
    func tableOnATerminal() throws {
        let dir = try scratchDirectory("discovery-table")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, _) = try EarsDaemon.closed(in: dir + "/run")
        defer { _ = daemon.terminate() }
        // script(1) gives the command a pseudo-terminal as its stdout.
        let table = try runCommand("/usr/bin/script", ["-qec", "\(earsBinary) status --runtime-dir \(dir)/run", "/dev/null"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.first?.hasPrefix("ears at \(dir)/run") == true, "\(table.stdout)")
        #expect(lines.contains { $0.hasPrefix("state") && $0.contains("closed") }, "\(table.stdout)")
        #expect(!table.stdout.contains("{\""), "\(table.stdout)")

        let json = try runCommand("/usr/bin/script", ["-qec", "\(earsBinary) status --json --runtime-dir \(dir)/run", "/dev/null"])
        #expect(json.stdout.contains("\"phase\":\"closed\""), "\(json.stdout)")
    }
}
