import Testing
@testable import EarsNeural
@testable import EarsTools
@testable import EarsTraining

/// What `ears train` prints when it is done: the warning a person needs when
/// even the highest threshold left the validation speech waking the model.
@Suite struct TrainSummaryTests {
    static let model = WakeModel(
        phrase: "okay nabu", language: "en", frontEndVersion: "test",
        head: WakeHead(windowEmbeddings: 2, dimension: 1, layers: [.init(inputs: 2, outputs: 1, weights: [0, 1], biases: [0])]),
        threshold: 0.9995,
        training: .init(voices: ["flite-slt"], heldOutVoices: ["festival:kal_diphone"], positives: 10, negatives: 90,
                        audioSeconds: 600, trainingSeconds: 60, createdAt: "2026-12-04T18:00:00Z"),
        validation: .init(recallClean: 0.6, recallAt10dB: 0.7, recallAt5dB: 0.5, falseWakesPerHour: 0, soundAlikeWakeRate: 0))

    @Test("a model whose validation speech still woke it at the highest threshold is written with a warning that says how often and what to do")
    func aStillWokenModelCarriesAWarning() throws {
        let lines = TrainCommand.summary(Self.model, path: "/tmp/okay-nabu.wakemodel",
                                         stillWoken: .init(falseWakes: 2, negativeSeconds: 3_000))
        let warning = try #require(lines.first { $0.contains("warning:") })
        #expect(warning.contains("still woke it 2 times in 50 min"))
        #expect(warning.contains("a longer phrase"))
        #expect(lines.first == "wrote /tmp/okay-nabu.wakemodel")
    }

    @Test("a model whose threshold kept the validation speech quiet is written without a warning")
    func aQuietModelHasNoWarning() {
        let lines = TrainCommand.summary(Self.model, path: "/tmp/okay-nabu.wakemodel")
        #expect(!lines.contains { $0.contains("warning") })
        #expect(lines.contains { $0.contains("threshold 0.9995") })
    }
}
