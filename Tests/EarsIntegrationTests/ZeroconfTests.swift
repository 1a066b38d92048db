import Foundation
import Testing

/// `[wyoming] zeroconf`: the wake service's TCP address announced as
/// `_wyoming._tcp` through a real avahi-daemon, checked with avahi-browse
/// (the service Home Assistant's Wyoming integration looks for); and without
/// avahi-daemon, one sentence and a service that still serves.
@Suite(.serialized) struct ZeroconfTests {
    /// The config of a wake service on free loopback ports of `hosts`.
    private static func config(zeroconf: Bool?, hosts: [String] = ["127.0.0.1"]) throws -> String {
        try "[wake]\nphrase = hey jarvis\n[wyoming]\n" + hosts.map { "uri = tcp://\($0):\(try WyomingPeers.freePort())\n" }.joined()
            + (zeroconf.map { "zeroconf = \($0 ? "on" : "off")\n" } ?? "")
    }

    @Test("ears announces its wake service's port as _wyoming._tcp, and withdraws it when it stops",
          .enabled(if: AvahiFixture.unavailableReason == nil, "\(AvahiFixture.unavailableReason ?? "")"))
    func announcesThePort() throws {
        let dir = try scratchDirectory("zeroconf")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let avahi = try AvahiFixture(directory: dir)
        defer { avahi.stop() }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        // zeroconf left at its default: on, because a tcp uri is set.
        let (daemon, port) = try WyomingPeers.earsWakeService(in: dir, config: try Self.config(zeroconf: nil), mic: mic,
                                                              environment: avahi.environment)
        defer { _ = daemon.terminate() }
        // =;lo;IPv4;ears\032on\032HOST;_wyoming._tcp;local;HOST.local;127.0.0.1;PORT;"version=…"
        let line = avahi.waitForService("_wyoming._tcp", within: 15) { $0.split(separator: ";").dropFirst(8).first == Substring(String(port)) }
        let fields = try #require(line, "not announced: \(avahi.browse("_wyoming._tcp")) ears: \(daemon.output)")
            .split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        #expect(fields[1] == "lo", "a loopback address is announced on the loopback interface only: \(fields)")
        #expect(fields[3].hasPrefix("ears\\032on\\032"), "\(fields)")
        #expect(fields[4] == "_wyoming._tcp")
        #expect(fields[7] == "127.0.0.1")
        #expect(fields.count > 9 && fields[9].contains("version="), "\(fields)")
        #expect(daemon.output.contains { $0.contains("zeroconf: announcing _wyoming._tcp") })
        #expect(!daemon.output.contains { $0.contains("avahi-daemon is not running") })

        // Stopping ears withdraws the announcement.
        #expect(daemon.terminate() == 0)
        let gone = Date().addingTimeInterval(10)
        while Date() < gone && avahi.browse("_wyoming._tcp").contains(where: { $0.contains(";\(port);") }) { usleep(300_000) }
        #expect(!avahi.browse("_wyoming._tcp").contains { $0.contains(";\(port);") }, "still announced after ears stopped")
    }

    @Test("a name another program already announces gets avahi's alternative, \"#2\"",
          .enabled(if: AvahiFixture.unavailableReason == nil, "\(AvahiFixture.unavailableReason ?? "")"))
    func takenNameGetsAnAlternative() throws {
        let dir = try scratchDirectory("zeroconf-taken")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let avahi = try AvahiFixture(directory: dir)
        defer { avahi.stop() }
        // Someone else already has ears' name (avahi-publish, a client of the same daemon).
        let host = try runCommand("/bin/hostname", []).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try avahi.publish(name: "ears on \(host)", type: "_wyoming._tcp", port: 9)
        try #require(avahi.waitForService("_wyoming._tcp", within: 10) { $0.contains(";9;") } != nil, "avahi-publish never announced")

        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let (daemon, port) = try WyomingPeers.earsWakeService(in: dir, config: try Self.config(zeroconf: true), mic: mic,
                                                              environment: avahi.environment)
        defer { _ = daemon.terminate() }
        let line = avahi.waitForService("_wyoming._tcp", within: 15) { $0.contains(";\(port);") }
        let name = try #require(line, "not announced: \(avahi.browse("_wyoming._tcp")) ears: \(daemon.output)")
            .split(separator: ";", omittingEmptySubsequences: false)[3]
        // avahi-browse -p escapes the space and the '#' as decimal \DDD: "ears on HOST #2".
        #expect(name.hasSuffix("\\032\\0352"), "\(name)")
        #expect(daemon.output.contains { $0.contains("zeroconf: announcing _wyoming._tcp 'ears on \(host) #2'") }, "\(daemon.output)")
        // The other program's announcement is untouched.
        #expect(avahi.browse("_wyoming._tcp").contains { $0.contains(";9;") })
    }

    @Test("avahi-daemon started after ears: said once, then announced; restarted: announced again",
          .enabled(if: AvahiFixture.unavailableReason == nil, "\(AvahiFixture.unavailableReason ?? "")"))
    func daemonLaterAndRestarted() throws {
        let dir = try scratchDirectory("zeroconf-later")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The bus runs, avahi-daemon does not (yet).
        let avahi = try AvahiFixture(directory: dir, startingAvahi: false)
        defer { avahi.stop() }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let (daemon, port) = try WyomingPeers.earsWakeService(in: dir, config: try Self.config(zeroconf: nil), mic: mic,
                                                              environment: avahi.environment)
        defer { _ = daemon.terminate() }
        let waiting = daemon.output.filter { $0.contains("zeroconf:") }
        #expect(waiting.count == 1 && waiting[0].contains("as soon as avahi-daemon starts"), "\(daemon.output)")

        try avahi.startAvahi()
        #expect(avahi.waitForService("_wyoming._tcp", within: 15) { $0.contains(";\(port);") } != nil,
                "not announced after avahi-daemon started: \(daemon.output)")

        avahi.stopAvahi()
        #expect(daemon.waitForLine(within: 10) { $0.contains("avahi-daemon went away") } != nil, "\(daemon.output)")
        try avahi.startAvahi()
        #expect(avahi.waitForService("_wyoming._tcp", within: 15) { $0.contains(";\(port);") } != nil,
                "not announced again after avahi-daemon restarted: \(daemon.output)")
        #expect(daemon.process.isRunning)
    }

    @Test("zeroconf = off announces nothing", .enabled(if: AvahiFixture.unavailableReason == nil, "\(AvahiFixture.unavailableReason ?? "")"))
    func offAnnouncesNothing() throws {
        let dir = try scratchDirectory("zeroconf-off")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let avahi = try AvahiFixture(directory: dir)
        defer { avahi.stop() }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let (daemon, port) = try WyomingPeers.earsWakeService(in: dir, config: try Self.config(zeroconf: false), mic: mic,
                                                              environment: avahi.environment)
        defer { _ = daemon.terminate() }
        // Give a (wrong) announcement the time the test above allows it.
        usleep(3_000_000)
        #expect(!avahi.browse("_wyoming._tcp").contains { $0.contains(";\(port);") })
        #expect(!daemon.output.contains { $0.contains("zeroconf:") }, "\(daemon.output)")
    }

    @Test("without avahi-daemon, listen says so once, in a sentence naming what to start, and still serves")
    func noDaemonSaysSoOnceAndServes() throws {
        let dir = try scratchDirectory("zeroconf-none")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        // Two TCP addresses, so "once" means once, not once per address; the
        // system bus points at a socket that does not exist.
        let config = try Self.config(zeroconf: nil, hosts: ["127.0.0.1", "127.0.0.2"])
        let (daemon, port) = try WyomingPeers.earsWakeService(
            in: dir, config: config, mic: mic, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(dir)/no-bus"])
        defer { _ = daemon.terminate() }
        let said = daemon.output.filter { $0.contains("zeroconf:") }
        #expect(said.count == 1, "\(daemon.output)")
        #expect(said.first?.contains("avahi-daemon is not running") == true, "\(said)")
        #expect(said.first?.contains("systemctl enable --now avahi-daemon") == true, "\(said)")

        // And it serves: a real wyoming client gets its info over TCP.
        let audio = dir + "/silence.raw"
        try Data(count: 16_000 * 2).write(to: URL(fileURLWithPath: audio))
        let result = try runCommand("/usr/bin/env", ["python3", WyomingPeers.shapeClient, "tcp://127.0.0.1:\(port)", audio, "--idle", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"type\": \"info\""), "\(result.stdout)")
        #expect(result.stdout.contains("\"type\": \"not-detected\""), "\(result.stdout)")
        #expect(daemon.process.isRunning)
    }
}
