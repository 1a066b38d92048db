import Foundation
import Testing

/// `ears listen --input FILE`: a sound file played at real time as a
/// stand-in microphone, and what a person reads when it ends.
@Suite struct ListenInputTests {
    @Test("when the file has been played to its end, status says ended and the log says so in plain words, not as a fault")
    func theEndOfTheFileIsSaidPlainly() throws {
        let dir = try scratchDirectory("listen-input")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try Speech.wav("hey cordelia, what's for dinner tonight", voice: "rms", at: dir + "/call.wav", leadSeconds: 1.0, tailSeconds: 0.5)
        let daemon = try EarsDaemon(["listen", "--input", dir + "/call.wav", "--phrase", "hey cordelia", "--models-dir", dir + "/models",
                                     "--runtime-dir", dir + "/run"])
        defer { _ = daemon.terminate() }
        let ended = try #require(waitForStatus(dir + "/run/status.sock", within: 30) { $0["phase"] as? String == "ended" },
                                 "\(daemon.output)")
        #expect((ended["closed_why"] as? String)?.contains("played to its end") == true, "\(ended)")
        #expect(ended["wakes"] as? Int == 1, "\(ended)")
        let log = daemon.output
        #expect(log.contains { $0.hasPrefix("notice: input ended: call.wav has been played to its end") }, "\(log)")
        #expect(!log.contains { $0.hasPrefix("warning: closed") }, "the end of a file is not a fault: \(log)")
        #expect(log.contains { $0.hasPrefix("info: capture ended: ") && !$0.contains("(abandoned)") }, "\(log)")
        #expect(log.contains { $0.contains("route=acoustic") }, "\(log)")
    }
}
