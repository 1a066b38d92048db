import Foundation
import Synchronization
import Testing

/// The built `ears` binary: `$EARS_BINARY` (the Makefile sets it), else the
/// one beside the test runner in the same build directory, else .build/debug.
let earsBinary: String = {
    if let path = ProcessInfo.processInfo.environment["EARS_BINARY"], !path.isEmpty { return path }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ears").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/ears").path
}()

/// A fresh scratch directory for one test, removed by the caller when done.
func scratchDirectory(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "ears-test-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The result of running a command to completion.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The test runner's environment without `JOURNAL_STREAM`: if `make test`
/// itself runs under systemd, ears would otherwise prefix its lines with
/// journald priorities and the tests that read them would see `<6>info:`.
/// Tests of the prefixes set it themselves.
var inheritedEnvironment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["JOURNAL_STREAM"] = nil
    return environment
}

/// Runs `executable arguments` to completion with extra `environment`
/// (`ears listen` without background training unless asked: `withoutAutoTraining`).
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = executable == earsBinary ? withoutAutoTraining(arguments) : arguments
    process.environment = inheritedEnvironment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes to the end before waiting, so a chatty child cannot block.
    let errData = Mutex(Data())
    let errReader = Thread { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
    errReader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while errReader.isExecuting || !errReader.isFinished { usleep(1_000) }
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: errData.withLock { String(decoding: $0, as: UTF8.self) })
}

/// `arguments` with `--auto-train off` added when they start `ears listen`
/// and do not set it (see `EarsDaemon.init`).
func withoutAutoTraining(_ arguments: [String]) -> [String] {
    guard let listen = arguments.firstIndex(of: "listen"), !arguments.contains(where: { $0.hasPrefix("--auto-train") }) else {
        return arguments
    }
    var result = arguments
    result.insert(contentsOf: ["--auto-train", "off"], at: listen + 1)
    return result
}

/// A running `ears listen`, its output collected line by line.
final class EarsDaemon: Sendable {
    let process: Process
    private let text = Mutex<String>("")

    /// `arguments` as given, except that `ears listen` gets `--auto-train
    /// off` unless the test says otherwise: a daemon under test would
    /// otherwise start training every phrase it has no model for, in the
    /// background, into the machine's models directory.
    /// `autoTrainAsConfigured`: pass `arguments` as they are, so the
    /// configuration's `auto_train` decides (the background-training tests).
    init(_ arguments: [String], environment: [String: String] = [:], autoTrainAsConfigured: Bool = false) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: earsBinary)
        process.arguments = autoTrainAsConfigured ? arguments : withoutAutoTraining(arguments)
        process.environment = inheritedEnvironment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let handle = pipe.fileHandleForReading
        // Weak: a strong capture would keep the daemon object (and so the
        // process, which deinit kills) alive after a failed test.
        handle.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard !data.isEmpty, let self else { handle.readabilityHandler = nil; return }
            self.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// Every line printed so far (stdout and stderr).
    var output: [String] { text.withLock { $0 }.split(separator: "\n").map(String.init) }

    /// Waits up to `seconds` for a line satisfying `match`; returns it or nil.
    func waitForLine(within seconds: Double, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = output.first(where: match) { return line }
            usleep(50_000)
        }
        return output.first(where: match)
    }

    /// Sends SIGTERM and waits up to `seconds` for exit; returns the status or nil if still running.
    func terminate(within seconds: Double = 5) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// `GET path` on a Unix-socket HTTP server with curl (a real client no one here wrote).
func curlUnix(_ socket: String, _ path: String, method: String = "GET") throws -> (code: Int, body: String) {
    let result = try runCommand("/usr/bin/curl", ["-s", "-X", method, "-o", "-", "-w", "\n%{http_code}",
                                                  "--max-time", "5", "--unix-socket", socket, "http://localhost\(path)"])
    var lines = result.stdout.components(separatedBy: "\n")
    let code = Int(lines.popLast() ?? "") ?? 0
    return (code, lines.joined(separator: "\n"))
}

/// Polls `GET /ears` until `predicate` holds on the parsed JSON or time runs out.
func waitForStatus(_ socket: String, within seconds: Double, _ predicate: ([String: Any]) -> Bool) -> [String: Any]? {
    let deadline = Date().addingTimeInterval(seconds)
    var last: [String: Any]?
    while Date() < deadline {
        if let answer = try? curlUnix(socket, "/ears"), answer.code == 200,
           let object = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any] {
            last = object
            if predicate(object) { return object }
        }
        usleep(200_000)
    }
    return last.flatMap { predicate($0) ? $0 : nil }
}

extension EarsDaemon {
    /// Writes `config` to `<dir>/ears.conf`, starts `ears listen` on the
    /// fixture microphone (runtime directory `<dir>/run`), starts feeding it
    /// and waits until `/ears` says `listening`. The caller terminates it.
    static func listening(in dir: String, config: String, mic: AlsaFixture, autoTrainAsConfigured: Bool = false) throws -> EarsDaemon {
        let path = dir + "/ears.conf"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try EarsDaemon(["listen", "--config", path, "--device", "cap", "--runtime-dir", dir + "/run"],
                                    environment: mic.environment, autoTrainAsConfigured: autoTrainAsConfigured)
        mic.startFeeding()
        let listening = waitForStatus(dir + "/run/status.sock", within: 20) { $0["phase"] as? String == "listening" }
        if listening == nil {
            _ = daemon.terminate()
            try #require(listening != nil, "never listening: \(daemon.output)")
        }
        return daemon
    }
}

extension EarsDaemon {
    /// Starts `ears listen` on a device that does not exist (an empty ALSA
    /// configuration), runtime directory `dir`, and waits until `/ears` says
    /// `closed`; returns the daemon and that status. The caller terminates it.
    static func closed(in dir: String) throws -> (daemon: EarsDaemon, status: [String: Any]) {
        let daemon = try EarsDaemon(["listen", "--device", "nosuch", "--runtime-dir", dir],
                                    environment: ["ALSA_CONFIG_PATH": "/dev/null"])
        let status = waitForStatus(dir + "/status.sock", within: 10) { $0["phase"] as? String == "closed" }
        if status == nil { _ = daemon.terminate() }
        return (daemon, try #require(status, "never closed: \(daemon.output)"))
    }
}
