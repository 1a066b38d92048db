#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import EarsCore
import Foundation
import EarsSystem

/// A program ears runs, with the Debian package that provides it.
package struct Tool: Sendable, Hashable {
    /// The program's file name, looked up on PATH.
    package let command: String
    /// The Debian package to install when it is missing.
    package let package: String

    static let flite = Tool(command: "flite", package: "flite")
    static let festival = Tool(command: "festival", package: "festival")
    static let espeak = Tool(command: "espeak-ng", package: "espeak-ng")
    static let sox = Tool(command: "sox", package: "sox")
    /// Draws `ears tune --plot`.
    package static let gnuplot = Tool(command: "gnuplot", package: "gnuplot-nox")

    /// The program's full path on PATH (then /usr/bin), nil when absent.
    package var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return directories.map { $0 + "/" + command }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The one funnel through which EarsSynth runs programs: starts `tool` with
/// `arguments`, writes `input` to its stdin (on another thread, so a program
/// that writes before it has read everything cannot deadlock us), collects
/// stdout, and turns a missing program or a nonzero exit into a `SynthError`.
/// stderr goes to /dev/null: engines print warnings that may quote the text.
package enum Subprocess {
    /// Ignores SIGPIPE once per process: a program that exits without reading
    /// all its input must end our write with EPIPE, not kill ears.
    private static let ignoreBrokenPipe: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// One spawn-and-feed at a time (see `run`).
    private static let spawnGate = DispatchSemaphore(value: 1)

    /// Runs `tool` and returns everything it wrote to stdout.
    package static func run(_ tool: Tool, _ arguments: [String], input: [UInt8]? = nil,
                    environment: [String: String] = [:]) throws(SynthError) -> [UInt8] {
        _ = ignoreBrokenPipe
        guard let path = tool.path else { throw .toolMissing(command: tool.command, package: tool.package) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let stdinPipe = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input == nil ? FileHandle.nullDevice : stdinPipe
        // Foundation's pipes do not close on exec, so a child spawned while
        // another child's stdin write end is open in ears inherits it, and
        // each may wait for an EOF the other holds back (seen with two
        // workers: two programs reading stdin, deadlocked). So spawning and
        // feeding stdin are one critical section per process: the gate is
        // taken here and given back once stdin is closed (on the writer
        // thread). stdout is read meanwhile, so a program that writes
        // before it has read everything cannot block the writer.
        spawnGate.wait()
        do {
            try process.run()
        } catch {
            spawnGate.signal()
            throw .toolMissing(command: tool.command, package: tool.package)
        }
        let writer = DispatchGroup()
        if let input {
            let handle = stdinPipe.fileHandleForWriting
            DispatchQueue.global().async(group: writer) {
                writeAll(input, to: handle.fileDescriptor)
                try? handle.close()
                spawnGate.signal()
            }
        } else {
            spawnGate.signal()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        writer.wait()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw .toolFailed(command: tool.command, status: process.terminationStatus, package: tool.package)
        }
        return [UInt8](data)
    }

    /// Writes all of `bytes` to `descriptor`, retrying EINTR; stops at EPIPE
    /// (the program closed its stdin: its exit status will tell).
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        try? SystemCall.writeAll(bytes, to: descriptor, path: "a synthesizer's stdin")
    }
}
