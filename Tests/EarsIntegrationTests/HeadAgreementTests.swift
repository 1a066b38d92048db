import EarsNeural
import EarsONNX
import Foundation
import Testing

/// `[wake] head_agreement` through the real engines: an acoustic detection of
/// a phrase with a model wakes only when the phrase's head reached the
/// agreement score near it. The head here is a stand-in whose score is the
/// same 0.7 on every window (no weights, one bias), so which side of the
/// agreement it falls on is known; PocketSphinx, the verifier, the ONNX
/// front end and the flite voice are the real ones.
@Suite struct HeadAgreementTests {
    /// The stand-in's score on every window.
    static let constantScore: Float = 0.7

    /// A models directory with a "hey jarvis" model whose head always says
    /// `constantScore` and whose own threshold (0.99 unless given) it never
    /// reaches, made for this machine's front end.
    private func constantModelDirectory(_ dir: String, threshold: Float = 0.99) throws -> String {
        let embedder = try OpenWakeWordEmbedder.locate()
        let windowEmbeddings = 16, dimension = embedder.dimension
        let bias = log(Self.constantScore / (1 - Self.constantScore))
        let head = WakeHead(windowEmbeddings: windowEmbeddings, dimension: dimension, layers: [
            .init(inputs: windowEmbeddings * dimension, outputs: 1,
                  weights: [Float](repeating: 0, count: windowEmbeddings * dimension), biases: [bias]),
        ])
        let model = WakeModel(phrase: "hey jarvis", language: "en", frontEndVersion: embedder.frontEndVersion + WakeModel.denoisedSuffix,
                              head: head, threshold: threshold)
        let models = dir + "/models"
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        try Data(model.encoded()).write(to: URL(fileURLWithPath: models + "/hey-jarvis.wakemodel"))
        return models
    }

    @Test("an acoustic detection wakes when the head's score near it reaches head_agreement, and is refused when it does not")
    func theAgreementScoreDecides() throws {
        let dir = try scratchDirectory("head-agreement")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let models = try constantModelDirectory(dir)
        // The call the acoustic-route test of TrainTests wakes on (kal16, 1.5 s lead).
        try Speech.wav("hey jarvis", voice: "kal16", at: dir + "/call.wav", leadSeconds: 1.5, tailSeconds: 1.0)
        func scan(_ arguments: [String]) throws -> (routes: [String], refused: Int) {
            // The acoustic route hears all speech, so its detection is made whatever the head says, and the agreement decides it.
            let result = try runCommand(earsBinary, ["scan", "--json", "--models-dir", models, "--phrase", "hey jarvis",
                                                     "--acoustic-on-lean", "off"] + arguments + [dir + "/call.wav"])
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try #require(Speech.events(result.stdout, "summary").first, "\(result.stdout)")
            #expect((summary["trained"] as? [String]) == ["hey jarvis"], "the stand-in model was loaded: \(summary)")
            return (Speech.events(result.stdout, "wake").compactMap { $0["route"] as? String }, summary["refused"] as? Int ?? -1)
        }
        let agreeing = try scan(["--head-agreement", "0.5"])
        #expect(agreeing.routes == ["acoustic"], "at 0.5 the head's 0.7 agrees: \(agreeing)")
        let agreementAlone = try scan(["--head-agreement", "0.5", "--both-routes-verifier", "off"])
        #expect(agreementAlone.routes == ["acoustic"], "without the verifier the head's agreement alone wakes it: \(agreementAlone)")
        let aloneStrict = try scan(["--head-agreement", "0.9", "--both-routes-verifier", "off"])
        #expect(aloneStrict.routes.isEmpty && aloneStrict.refused >= 1, "...and alone refuses it under the agreement: \(aloneStrict)")
        let strict = try scan(["--head-agreement", "0.9"])
        #expect(strict.routes.isEmpty && strict.refused >= 1, "at 0.9 the head's 0.7 does not agree: \(strict)")
        let alone = try scan(["--both-routes", "off"])
        #expect(alone.routes.isEmpty, "the head alone never reaches its 0.99: \(alone)")
    }

    @Test("under head_alone_score a head's detection wakes only where the acoustic route hears the phrase too; over it, alone")
    func anUnsureHeadNeedsTheAcousticRoute() throws {
        let dir = try scratchDirectory("head-alone")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The stand-in's 0.7 is over its own threshold everywhere: alone, it wakes on any speech.
        let models = try constantModelDirectory(dir, threshold: 0.5)
        try Speech.wav("hey jarvis", voice: "kal16", at: dir + "/call.wav", leadSeconds: 1.5, tailSeconds: 1.0)
        try Speech.wav("the garden needs water before noon", voice: "kal16", at: dir + "/other.wav", leadSeconds: 1.5, tailSeconds: 1.0)
        func routes(_ file: String, _ arguments: [String]) throws -> [String] {
            // The stand-in never falls back under 0.5, so it leans once: the acoustic route hears all speech.
            let result = try runCommand(earsBinary, ["scan", "--json", "--models-dir", models, "--phrase", "hey jarvis",
                                                     "--acoustic-on-lean", "off"] + arguments + [dir + "/" + file])
            #expect(result.status == 0, "\(result.stderr)")
            return Speech.events(result.stdout, "wake").compactMap { $0["route"] as? String }
        }
        #expect(try routes("other.wav", []).contains("trained"), "by default the head wakes alone at its threshold")
        #expect(try routes("other.wav", ["--head-alone-score", "0.9"]).isEmpty, "no acoustic detection: nothing wakes")
        #expect(try routes("call.wav", ["--head-alone-score", "0.9"]) == ["acoustic"], "the call is heard by the acoustic route, the head agreeing")
        #expect(try routes("other.wav", ["--head-alone-score", "0.65"]).contains("trained"), "over the score the head wakes alone")
    }
}
