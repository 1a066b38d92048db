import Foundation
import Testing
import EarsCore
@testable import EarsPocketSphinx

/// The verifier on the real en-us model and a phrase said by flite: where
/// it stops measuring, and its transcript search, loaded when a window
/// first needs it and freed when idle.
@Suite(.serialized) struct VerifierTranscriptTests {
    /// A clock the test moves by hand, seconds.
    final class ManualClock: @unchecked Sendable {
        var seconds = 1000.0
    }

    /// `text` said by flite's slt voice, 16 kHz mono samples.
    static func said(_ text: String) throws -> [Int16] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ears-verifier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("said.wav").path, raw = directory.appendingPathComponent("said.raw").path
        for (tool, arguments) in [("/usr/bin/flite", ["-voice", "slt", "-t", text, "-o", wav]),
                                  ("/usr/bin/sox", [wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw, "pad", "0.3", "0.3"])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(tool) failed")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    static func verifier(clock: ManualClock, idleSeconds: Double) throws -> PocketSphinxVerifier {
        try PocketSphinxVerifier(model: PocketSphinxModel.locate(in: nil), phrases: ["hey jarvis"],
                                 soundAlikes: ["hey jarvis": ["hey marvin"]], transcriptIdleSeconds: idleSeconds,
                                 monotonicSeconds: { clock.seconds }) { phrase, transcript in
            transcript.contains(phrase) ? 1 : 0
        }
    }

    @Test("a verifier loads its transcript search only when a window needs a transcript")
    func loadsOnDemand() throws {
        let clock = ManualClock()
        let verifier = try Self.verifier(clock: clock, idleSeconds: 60)
        let audio = try Self.said("hey jarvis")
        #expect(!verifier.transcript.isLoaded)
        let decided = try #require(verifier.measure(phrase: "hey jarvis", audio: audio) { _ in true })
        #expect(decided.textMatch == nil)
        #expect(!verifier.transcript.isLoaded, "evidence that decides alone needs no transcript")
        let whole = try #require(verifier.measure(phrase: "hey jarvis", audio: audio, decided: nil))
        #expect(whole.textMatch != nil)
        #expect(verifier.transcript.isLoaded && verifier.transcript.loads == 1)
    }

    @Test("a window its phone loop rules out is searched no further: the loop's own figures, the worst for the rest")
    func aHopelessWindowStopsAfterThePhoneLoop() throws {
        let clock = ManualClock()
        let verifier = try Self.verifier(clock: clock, idleSeconds: 60)
        let audio = try Self.said("hey jarvis")
        let whole = try #require(verifier.measure(phrase: "hey jarvis", audio: audio, hopeless: { _ in false }, decided: { _ in true }))
        var asked: [Double] = []
        let early = try #require(verifier.measure(phrase: "hey jarvis", audio: audio, hopeless: { asked.append($0); return true },
                                                  decided: { _ in Issue.record("asked after stopping"); return false }))
        #expect(asked == [whole.phoneMatch])
        #expect(early.phoneMatch == whole.phoneMatch && early.loopScore == whole.loopScore && early.frames == whole.frames)
        #expect(whole.phraseScore.isFinite && early.phraseScore == -.infinity)
        #expect(early.competitorScore == nil && early.textMatch == nil && early.phraseSeconds == 0)
        #expect(!verifier.transcript.isLoaded)
    }

    @Test("an unused transcript search is freed after its idle time, and a reload measures the same")
    func freedWhenIdle() throws {
        let clock = ManualClock()
        let verifier = try Self.verifier(clock: clock, idleSeconds: 60)
        let audio = try Self.said("hey jarvis, what time is it")
        let first = try #require(verifier.measure(phrase: "hey jarvis", audio: audio, decided: nil))
        clock.seconds += 59
        #expect(!verifier.releaseIdleMemory(), "a minute is not yet up")
        #expect(verifier.transcript.isLoaded)
        clock.seconds += 1
        #expect(verifier.releaseIdleMemory())
        #expect(!verifier.transcript.isLoaded)
        #expect(!verifier.releaseIdleMemory(), "nothing left to free")
        let again = try #require(verifier.measure(phrase: "hey jarvis", audio: audio, decided: nil))
        #expect(verifier.transcript.loads == 2)
        #expect(again == first)
    }

    @Test("a window measured after others gives the evidence it gives alone")
    func windowsAreIndependent() throws {
        let clock = ManualClock()
        let alone = try Self.verifier(clock: clock, idleSeconds: 60)
        let afterOthers = try Self.verifier(clock: clock, idleSeconds: 60)
        let call = try Self.said("hey jarvis"), other = try Self.said("they carved the jars by the river")
        _ = afterOthers.measure(phrase: "hey jarvis", audio: other, decided: nil)
        #expect(afterOthers.measure(phrase: "hey jarvis", audio: call, decided: nil)
                == alone.measure(phrase: "hey jarvis", audio: call, decided: nil))
    }
}
