import Foundation
import Testing
@testable import EarsTraining

/// The false-wake rate foretold past the highest peaks a head gave on
/// speech without its phrase: measured below the fit, exponential in the
/// log-odds above it.
@Suite struct FalseWakeTailTests {
    static func score(logit: Double) -> Float { Float(1 / (1 + exp(-logit))) }

    /// Ten peaks at log-odds −1.0, −0.9, … −0.1 in 36 s (0.01 h): the fit
    /// starts at −1.0 with all ten, scale = their mean excess, 0.5.
    static let tenPeaks = (0..<10).map { score(logit: -1.0 + 0.1 * Double($0)) }

    @Test("the fit starts at the tenth-highest peak and its scale is the peaks' mean excess over it")
    func theFitReadsTheHighestPeaks() throws {
        let tail = FalseWakeTail(peakScores: Self.tenPeaks + [0.05, 0.02], seconds: 36)
        let fit = try #require(tail.fit)
        #expect(abs(fit.startLogit - -1.0) < 1e-5)
        #expect(fit.count == 10)
        #expect(abs(fit.scaleLogits - 0.5) < 1e-5)
    }

    @Test("at or below where the fit starts, the rate is the peaks counted per hour")
    func belowTheFitTheRateIsMeasured() {
        let tail = FalseWakeTail(peakScores: Self.tenPeaks + [0.05, 0.02], seconds: 36)
        #expect(abs(tail.falseWakesPerHour(at: 0.04) - 1100) < 1e-6)   // 11 peaks in 0.01 h
        #expect(abs(tail.falseWakesPerHour(at: Self.score(logit: -1.0)) - 1000) < 1e-3)
    }

    @Test("past the peaks the rate falls by a factor e for every scale of log-odds")
    func pastThePeaksTheRateFallsExponentially() {
        let tail = FalseWakeTail(peakScores: Self.tenPeaks, seconds: 36)
        let atTwo = tail.falseWakesPerHour(at: Self.score(logit: 2.0))
        let atTwoAndAHalf = tail.falseWakesPerHour(at: Self.score(logit: 2.5))
        #expect(abs(atTwo - 1000 * exp(-3.0 / 0.5)) < 0.01)
        #expect(abs(atTwoAndAHalf / atTwo - exp(-1)) < 1e-3)
    }

    @Test("the foretold rate never rises with the threshold")
    func theRateNeverRises() {
        let tail = FalseWakeTail(peakScores: Self.tenPeaks + [0.3, 0.9, 0.97], seconds: 300)
        let rates = stride(from: Float(0.05), through: 0.999, by: 0.01).map { tail.falseWakesPerHour(at: $0) }
        #expect(zip(rates, rates.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test("with fewer peaks than the fit needs, the rate is only what was counted")
    func fewPeaksAreNotFitted() {
        let tail = FalseWakeTail(peakScores: [0.3, 0.6, 0.8], seconds: 3600)
        #expect(tail.fit == nil)
        #expect(tail.falseWakesPerHour(at: 0.5) == 2)
        #expect(tail.falseWakesPerHour(at: 0.9) == 0)
    }

    @Test("peaks that tie get the smallest scale, not a cliff")
    func tiedPeaksGetTheSmallestScale() throws {
        let tail = FalseWakeTail(peakScores: Array(repeating: 0.6, count: 12), seconds: 3600)
        #expect(try #require(tail.fit).scaleLogits == FalseWakeTail.minimumScaleLogits)
        #expect(tail.falseWakesPerHour(at: 0.9) > 0)
    }

    @Test("a saturated score counts as the highest log-odds there is, not infinity")
    func aSaturatedScoreIsClamped() {
        #expect(FalseWakeTail.logit(1) == FalseWakeTail.logitLimit)
        #expect(FalseWakeTail.logit(0) == -FalseWakeTail.logitLimit)
        let tail = FalseWakeTail(peakScores: Self.tenPeaks.dropLast() + [1], seconds: 36)
        #expect(tail.falseWakesPerHour(at: 0.999).isFinite)
    }
}
