import Foundation
import Testing

/// What a listening daemon holds while nothing near its phrase is said: the
/// verifier's transcript search (PocketSphinx's whole dictionary and
/// language model, ~88 MB) loads only for a candidate that needs it.
@Suite(.serialized) struct IdleMemoryTests {
    /// Anonymous memory (heap: what the daemon allocated, not its mapped
    /// files) an idle daemon on the acoustic route with its verifier stays
    /// under. With the transcript search loaded at start it held ~100 MB.
    static let idleAnonymousMegabytes = 64.0

    /// `RssAnon` of process `pid`, MB.
    static func anonymousMegabytes(of pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        let kilobytes = try #require(Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""))
        return kilobytes / 1024
    }

    @Test("a daemon with its verifier on, hearing only silence, holds no language model")
    func anIdleVerifierHoldsNoLanguageModel() throws {
        let dir = try scratchDirectory("idle-memory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: "[wake]\nphrase = hey cordelia\nverifier = on\n", mic: mic)
        defer { _ = daemon.terminate() }
        let loaded = daemon.waitForLine(within: 30) { $0.contains("engine pocketsphinx loaded") }
        #expect(loaded?.contains("verifier on") == true, "\(daemon.output)")
        mic.enqueue(Data(count: 32_000 * 3))
        usleep(3_000_000)
        let megabytes = try Self.anonymousMegabytes(of: daemon.process.processIdentifier)
        #expect(megabytes < Self.idleAnonymousMegabytes, "RssAnon \(megabytes) MB")
        #expect(daemon.terminate(within: 3) == 0)
    }
}
