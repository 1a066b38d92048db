import Testing
@testable import EarsCore
@testable import EarsTraining

/// The progress line of `ears train`: fraction, time left and wording, with
/// the clock passed in.
@Suite struct TrainingProgressTests {
    @Test("the stages' shares add up to the whole run, in order")
    func sharesAddUpToOne() {
        let stages = TrainingProgress.Stage.allCases
        #expect(abs(stages.reduce(0) { $0 + $1.share } - 1) < 1e-9)
        #expect(TrainingProgress.Stage.synthesizing.before == 0)
        #expect(abs(TrainingProgress.Stage.listening.before - 0.40) < 1e-9)
        #expect(abs(TrainingProgress.Stage.validating.before - 0.95) < 1e-9)
    }

    @Test("the fraction is the stages before plus the done part of the current one")
    func theFractionCombinesStages() {
        var progress = TrainingProgress(startSeconds: 0)
        #expect(progress.fraction == 0)
        progress.update(.synthesizing, done: 50, total: 100)
        #expect(abs(progress.fraction - 0.20) < 1e-9)
        progress.update(.training, done: 1, total: 2)
        #expect(abs(progress.fraction - 0.69) < 1e-9)
        progress.update(.validating, done: 3, total: 3)
        #expect(abs(progress.fraction - 1) < 1e-9)
    }

    @Test("the bar never goes back: a stage reported again from fewer steps, or an earlier stage, holds it")
    func neverBackwards() {
        var progress = TrainingProgress(startSeconds: 0)
        progress.update(.refining, done: 10, total: 20)
        let reached = progress.fraction
        progress.update(.refining, done: 2, total: 20)
        #expect(progress.fraction == reached)
        progress.update(.training, done: 1, total: 30)
        #expect(progress.fraction == reached)
        progress.update(.validating, done: 1, total: 2)
        #expect(progress.fraction > reached)
        // The stages come in the order the trainer runs them: first head, mining, final head.
        let order = TrainingProgress.Stage.allCases
        #expect(order.firstIndex(of: .training)! < order.firstIndex(of: .mining)!)
        #expect(order.firstIndex(of: .mining)! < order.firstIndex(of: .refining)!)
    }

    @Test("with the clock given, the time left is the stage's own rate for its rest and the run's rate for the stages after")
    func theEstimateUsesMeasuredRates() throws {
        var progress = TrainingProgress(startSeconds: 0)
        progress.update(.synthesizing, done: 10, total: 10, now: 40)   // 40 % in 40 s: 100 s per whole run
        progress.update(.listening, done: 0, total: 10, now: 40)
        progress.update(.listening, done: 5, total: 10, now: 50)       // half the stage in 10 s
        let left = try #require(progress.secondsLeft(now: 50))
        #expect(abs(left - (10 + 0.35 * 100)) < 1e-9, "\(left)")
    }

    @Test("a step count past the total, or a stage without steps, counts the stage as done")
    func stageFractionsAreClamped() {
        var progress = TrainingProgress(startSeconds: 0)
        progress.update(.listening, done: 12, total: 10)
        #expect(progress.stageFraction == 1)
        progress.update(.mining, done: 0, total: 0)
        #expect(progress.stageFraction == 1)
        progress.update(.mining, done: -3, total: 10)
        #expect(progress.stageFraction == 0)
    }

    @Test("the time left scales the time spent by what is left, and is unknown under 2 %")
    func theEstimateScalesElapsedTime() throws {
        var progress = TrainingProgress(startSeconds: 100)
        progress.update(.synthesizing, done: 1, total: 100) // 0.4 %
        #expect(progress.secondsLeft(now: 110) == nil)
        progress.update(.listening, done: 2, total: 5)      // 40 % + 25 % × 0.4 = 50 %
        let left = try #require(progress.secondsLeft(now: 160))
        #expect(abs(left - 60) < 1e-9)
        progress.update(.training, done: 0, total: 1)       // 65 %: 65 s spent, 35 s left
        #expect(abs((progress.secondsLeft(now: 165) ?? 0) - 35) < 1e-9)
    }

    @Test("the line shows the bar, the percentage, the stage and the time left")
    func theLineReadsAsDocumented() {
        var progress = TrainingProgress(startSeconds: 100)
        progress.update(.listening, done: 2, total: 5)
        #expect(progress.line(now: 160)
                == "[############............]  50%  computing speech features, about 1 min 00 s left")
    }

    @Test("before there is an estimate the line has none, and the percentage is right-aligned")
    func theLineWithoutAnEstimate() {
        let progress = TrainingProgress(startSeconds: 0)
        #expect(progress.line(now: 5) == "[........................]   0%  synthesizing speech")
    }

    @Test("a finished run shows a full bar at 100 %")
    func aFinishedRunIsFull() {
        var progress = TrainingProgress(startSeconds: 0)
        progress.update(.validating, done: 1, total: 1)
        #expect(progress.line(now: 200) == "[########################] 100%  validating on held-out voices, about 0 s left")
    }

    @Test("durations read in seconds under a minute and in minutes with two-digit seconds above")
    func durationsAreFormatted() {
        #expect(TrainingProgress.duration(0) == "0 s")
        #expect(TrainingProgress.duration(45.4) == "45 s")
        #expect(TrainingProgress.duration(59.6) == "1 min 00 s")
        #expect(TrainingProgress.duration(125) == "2 min 05 s")
        #expect(TrainingProgress.duration(3671) == "61 min 11 s")
    }
}
