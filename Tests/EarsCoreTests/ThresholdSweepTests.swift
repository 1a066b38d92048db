import Testing
@testable import EarsCore
@testable import EarsPhonetics

/// `ThresholdSweep`: the counting and choosing behind `ears tune`.
@Suite struct ThresholdSweepTests {
    private let grid = [0.3, 0.4, 0.5, 0.6, 0.7]

    private func file(_ name: String, negative: Bool = false, wakes: [Int], best: Double?) -> ThresholdSweep.File {
        ThresholdSweep.File(name: name, negative: negative, wakes: wakes, bestScore: best)
    }

    @Test("the default grid runs from 0.30 to 0.95 in steps of 0.05, exactly")
    func defaultGrid() {
        let grid = ThresholdSweep.defaultThresholds
        #expect(grid.count == 14)
        #expect(grid.first == 0.3 && grid.last == 0.95)
        #expect(grid.contains(0.55))
    }

    @Test("the threshold in force joins the grid once, in order")
    func currentJoinsTheGrid() {
        #expect(ThresholdSweep.thresholds(grid, including: 0.55) == [0.3, 0.4, 0.5, 0.55, 0.6, 0.7])
        #expect(ThresholdSweep.thresholds(grid, including: 0.5) == grid)
        #expect(ThresholdSweep.thresholds(grid, including: 0.1 + 0.2 + 0.2) == grid, "0.1+0.2+0.2 is 0.5 give or take rounding")
        #expect(ThresholdSweep.thresholds(grid, including: nil) == grid)
    }

    @Test("rows count positives that woke, wakes per positive and false wakes per threshold")
    func rowsCount() {
        let sweep = ThresholdSweep(thresholds: grid, current: 0.5, files: [
            file("a", wakes: [2, 1, 1, 1, 0], best: 0.65),
            file("b", wakes: [1, 1, 1, 0, 0], best: 0.55),
            file("n", negative: true, wakes: [3, 1, 0, 0, 0], best: 0.45),
        ])
        let rows = sweep.rows
        #expect(rows.map(\.positivesWoke) == [2, 2, 2, 1, 0])
        #expect(rows[0].positiveWakes == [2, 1])
        #expect(rows.map(\.falseWakes) == [3, 1, 0, 0, 0])
        #expect(rows.map(\.negativesWoke) == [1, 1, 0, 0, 0])
        #expect(rows.map(\.isCurrent) == [false, false, true, false, false])
        #expect(sweep.positives.map(\.name) == ["a", "b"])
        #expect(sweep.negatives.map(\.name) == ["n"])
    }

    @Test("the suggestion sits in the middle of the gap between the strongest negative and the weakest positive")
    func suggestsTheWidestMargin() {
        let sweep = ThresholdSweep(thresholds: grid, current: 0.5, files: [
            file("a", wakes: [1, 1, 1, 1, 1], best: 0.9),
            file("b", wakes: [1, 1, 1, 1, 1], best: 0.75),
            file("n", negative: true, wakes: [1, 0, 0, 0, 0], best: 0.35),
        ])
        // Separating: 0.4 … 0.7; gap 0.35 … 0.75: 0.5 has 0.15 / 0.25, 0.6 has 0.25 / 0.15 → tie, the higher wins.
        guard case let .threshold(value, margin) = sweep.suggestion else {
            Issue.record("no suggestion: \(sweep.suggestion)")
            return
        }
        #expect(value == 0.6)
        #expect(abs(margin - 0.15) < 1e-9)
        #expect(sweep.suggestionSentence.contains("0.60"))
    }

    @Test("without negatives the lowest separating threshold bounds the margin from below")
    func noNegatives() {
        let sweep = ThresholdSweep(thresholds: grid, current: 0.5, files: [file("a", wakes: [1, 1, 1, 1, 0], best: 0.62)])
        // Separating 0.3 … 0.6; bounds 0.3 and 0.62: 0.4 has min(0.22, 0.1), 0.5 has min(0.12, 0.2).
        guard case let .threshold(value, margin) = sweep.suggestion else {
            Issue.record("no suggestion: \(sweep.suggestion)")
            return
        }
        #expect(value == 0.5)
        #expect(abs(margin - 0.12) < 1e-9)
        #expect(sweep.suggestionSentence.contains("no --negative files"))
    }

    @Test("when a negative wakes wherever every positive does, it says no threshold separates them")
    func negativesAlwaysWake() {
        let sweep = ThresholdSweep(thresholds: grid, current: 0.5, files: [
            file("a", wakes: [1, 1, 1, 0, 0], best: 0.55),
            file("n", negative: true, wakes: [1, 1, 1, 1, 0], best: 0.65),
        ])
        #expect(sweep.suggestion == .negativesAlwaysWake)
        #expect(sweep.suggestionSentence.hasPrefix("no threshold separates them"))
    }

    @Test("when no threshold wakes every positive, it says how many woke at best and where")
    func positivesMissed() {
        let sweep = ThresholdSweep(thresholds: grid, current: 0.5, files: [
            file("a", wakes: [1, 1, 1, 0, 0], best: 0.55),
            file("b", wakes: [0, 0, 0, 0, 0], best: nil),
        ])
        #expect(sweep.suggestion == .missesPositives(bestWoke: 1, positives: 2, at: 0.5))
        #expect(sweep.suggestionSentence.contains("1 of 2"))
    }

    @Test("with only negative files there is nothing to suggest")
    func onlyNegatives() {
        let sweep = ThresholdSweep(thresholds: grid, current: nil, files: [file("n", negative: true, wakes: [1, 0, 0, 0, 0], best: 0.3)])
        #expect(sweep.suggestion == .noPositives)
        #expect(sweep.rows.allSatisfy { !$0.isCurrent })
    }

    @Test("thresholds are written with two decimals")
    func formatting() {
        #expect(ThresholdSweep.format(0.55) == "0.55")
        #expect(ThresholdSweep.format(0.3) == "0.30")
        #expect(ThresholdSweep.format(0.05) == "0.05")
        #expect(ThresholdSweep.format(1) == "1.00")
        #expect(ThresholdSweep.format(12.345) == "12.35" || ThresholdSweep.format(12.345) == "12.34")
    }
}
