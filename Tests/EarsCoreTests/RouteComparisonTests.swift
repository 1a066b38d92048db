import Testing
@testable import EarsCore
@testable import EarsTraining

/// Whether a trained model replaces the acoustic route: both measured on the
/// same held-out calls, the mean recall over shared conditions decides.
@Suite struct RouteComparisonTests {
    private typealias Tally = TrainingEvaluation.Tally

    @Test("a model that holds noise better than the acoustic route holds clean speech is used")
    func noiseOutweighsClean() {
        let comparison = RouteComparison(
            model: [.clean: Tally(hits: 8, total: 10), .near10dB: Tally(hits: 7, total: 10), .near5dB: Tally(hits: 6, total: 10)],
            acoustic: [.clean: Tally(hits: 10, total: 10), .near10dB: Tally(hits: 4, total: 10), .near5dB: Tally(hits: 2, total: 10)])
        #expect(comparison.modelIsBetter)
        #expect(comparison.asideWhy == nil)
        #expect(comparison.figuresLine == "clean 80% vs 100% (of 10 calls), ~10 dB 70% vs 40% (of 10), ~5 dB 60% vs 20% (of 10)")
    }

    @Test("a model that hears fewer calls on average is kept aside, and the sentence gives both means and every condition")
    func weakerModelIsKeptAside() throws {
        let comparison = RouteComparison(
            model: [.clean: Tally(hits: 6, total: 8), .near10dB: Tally(hits: 2, total: 4), .near5dB: Tally(hits: 0, total: 4)],
            acoustic: [.clean: Tally(hits: 8, total: 8), .near10dB: Tally(hits: 3, total: 4), .near5dB: Tally(hits: 1, total: 4)])
        #expect(!comparison.modelIsBetter)
        let why = try #require(comparison.asideWhy)
        #expect(why.contains("mean 42% vs 67%"), "\(why)")
        #expect(why.contains("clean 75% vs 100% (of 8 calls), ~10 dB 50% vs 75% (of 4), ~5 dB 0% vs 25% (of 4)"), "\(why)")
        #expect(why.hasSuffix("the phrase stays on the acoustic route"))
    }

    @Test("only conditions both routes have calls in are compared; with none, the model is used")
    func sharedConditionsOnly() {
        let partial = RouteComparison(model: [.clean: Tally(hits: 5, total: 5), .near5dB: Tally(hits: 0, total: 5)],
                                      acoustic: [.clean: Tally(hits: 4, total: 5)])
        #expect(partial.conditions == [.clean])
        #expect(partial.modelIsBetter, "the model's 0 of 5 at 5 dB has nothing to be compared with")
        #expect(RouteComparison(model: [:], acoustic: [:]).modelIsBetter)
    }

    @Test("a clip's condition follows its noise: none or 15 dB up is clean, 7.5–12.5 is ~10 dB, 2.5–7.5 is ~5 dB, others none")
    func conditionsBySNR() {
        func condition(_ snr: Double?) -> RouteComparison.Condition? {
            var augmentation = Augmentation()
            if let snr {
                augmentation.noise = .pink
                augmentation.signalToNoiseDecibels = snr
            }
            return RouteComparison.Condition(of: augmentation)
        }
        #expect(condition(nil) == .clean && condition(18) == .clean)
        #expect(condition(10) == .near10dB && condition(5) == .near5dB)
        #expect(condition(13) == nil && condition(1) == nil)
    }
}
