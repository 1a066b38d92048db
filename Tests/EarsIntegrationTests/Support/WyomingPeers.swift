import Foundation
import Glibc
import Testing

/// The real Wyoming peers the wake-service tests run against, from PyPI in
/// their own virtual environments (`make wyoming-peers-setup`, mk/wyoming.mk):
/// wyoming-satellite 1.0.0 and wyoming-openwakeword 1.8.2; and helpers to
/// start `ears listen` as a wake service on a kernel-chosen TCP port.
enum WyomingPeers {
    /// The repository root (four levels above this file).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    /// wyoming-satellite's venv Python (its `wyoming` is 1.4.1).
    static let satellitePython = repository + "/.deps/wyoming-satellite/bin/python"
    /// wyoming-openwakeword's venv Python (its `wyoming` is 1.2.0, tflite-runtime, numpy 1.x).
    static let openWakeWordPython = repository + "/.deps/wyoming-openwakeword/bin/python"
    /// Plays Home Assistant to a satellite (Support/satellite_ha.py).
    static let satelliteHarness = repository + "/Tests/EarsIntegrationTests/Support/satellite_ha.py"
    /// One wake session reduced to its shape (Support/wake_shape_client.py).
    static let shapeClient = repository + "/Tests/EarsIntegrationTests/Support/wake_shape_client.py"

    /// Whether `make wyoming-peers-setup` has run (the tests need both venvs).
    static var installed: Bool {
        FileManager.default.isExecutableFile(atPath: satellitePython)
            && FileManager.default.isExecutableFile(atPath: openWakeWordPython)
    }

    /// Says `text` with flite into raw S16_LE 16 kHz mono at `path` (lead
    /// and tail silence included), the form the satellite's microphone
    /// command and the shape client read.
    static func rawSpeech(_ text: String, at path: String, leadSeconds: Double = 1, tailSeconds: Double = 1.5) throws {
        let wav = path + ".wav"
        defer { try? FileManager.default.removeItem(atPath: wav) }
        try Speech.wav(text, at: wav, leadSeconds: leadSeconds, tailSeconds: tailSeconds)
        try Speech.rawSamples(of: wav).write(to: URL(fileURLWithPath: path))
    }

    /// Starts `ears listen` on the fixture microphone with `config` (which
    /// sets `[wyoming] uri`: `tcp://127.0.0.1:PORT` with a `freePort()`, or
    /// `unix:///…`), waits for `listening`, and returns it with its first
    /// address as ears reports it (the "wyoming wake service on …" line).
    static func earsWakeServiceAddress(in dir: String, config: String, mic: AlsaFixture,
                                       environment: [String: String] = [:]) throws -> (daemon: EarsDaemon, address: String) {
        let path = dir + "/ears.conf"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try EarsDaemon(["listen", "--config", path, "--device", "cap", "--runtime-dir", dir + "/run"],
                                    environment: mic.environment.merging(environment) { $1 })
        mic.startFeeding()
        let listening = waitForStatus(dir + "/run/status.sock", within: 30) { $0["phase"] as? String == "listening" }
        let marker = "wyoming wake service on "
        let line = daemon.waitForLine(within: 5) { $0.contains(marker) }
        guard listening != nil, let line, let range = line.range(of: marker) else {
            _ = daemon.terminate()
            throw SpeechError(detail: "ears never served the wake service: \(daemon.output)")
        }
        return (daemon, String(line[range.upperBound...].prefix { !$0.isWhitespace }))
    }

    /// `earsWakeServiceAddress` for a TCP address, returning its port.
    static func earsWakeService(in dir: String, config: String, mic: AlsaFixture,
                                environment: [String: String] = [:]) throws -> (daemon: EarsDaemon, port: Int) {
        let (daemon, address) = try earsWakeServiceAddress(in: dir, config: config, mic: mic, environment: environment)
        guard let port = tcpPort(in: address) else {
            _ = daemon.terminate()
            throw SpeechError(detail: "ears's first wake-service address is not tcp: \(address)")
        }
        return (daemon, port)
    }

    /// The port of the first `tcp://HOST:PORT` in `line`.
    static func tcpPort(in line: String) -> Int? {
        guard let range = line.range(of: "tcp://") else { return nil }
        let rest = line[range.upperBound...].prefix { !$0.isWhitespace }
        guard let colon = rest.lastIndex(of: ":") else { return nil }
        return Int(rest[rest.index(after: colon)...].prefix { $0.isNumber })
    }

    /// A TCP port free on 127.0.0.1 now (bound to port 0, then released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SpeechError(detail: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw SpeechError(detail: "bind to 127.0.0.1:0 failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits up to `seconds` until something accepts on 127.0.0.1:`port`.
    static func waitForListener(port: Int, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if connected { return true }
            usleep(200_000)
        }
        return false
    }
}

/// A background process (a Python peer), killed when the test lets go of it.
final class PeerProcess: Sendable {
    let process: Process

    /// Starts `executable arguments`, output discarded (the peers' logs are
    /// theirs; the tests judge what they say on the wire).
    init(_ executable: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// SIGTERM, then SIGKILL after `seconds`.
    func stop(within seconds: Double = 5) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
