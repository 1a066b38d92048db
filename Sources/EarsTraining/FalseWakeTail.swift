import Foundation

/// How often a head would wake in speech without its phrase at a threshold
/// the validation audio is too short to reach: the rate read from the
/// highest peaks the head gave on that audio, extrapolated past them. Pure.
///
/// Why: a threshold chosen as "the lowest with no false wake in the
/// validation voices' other speech" rests on a few minutes of speech, in
/// which no false wake is weak evidence — the heads chosen that way woke
/// 7–16 times an hour on the benchmark's read speech (docs/training.md).
/// The peaks below the threshold still say how fast the head's false
/// scores thin out: above the `fitPeaks`-th highest peak the count of peaks
/// is modelled as falling exponentially in the score's log-odds (a
/// peaks-over-threshold fit; the maximum-likelihood scale is the peaks'
/// mean excess over that peak), so a rate far below one per recording can
/// be asked for.
///
/// Contract: `falseWakesPerHour(at:)` never increases with the threshold;
/// at or below the fitted peak it is the count of peaks at or above the
/// threshold per hour (as measured); with fewer than `minimumPeaks` peaks
/// there is nothing to fit and the measured count is all it says.
package struct FalseWakeTail: Sendable, Equatable {
    /// The highest peaks the fit reads (the fit starts at the lowest of them).
    package static let fitPeaks = 10
    /// Fewer peaks than this above the collection threshold: no fit.
    package static let minimumPeaks = 5
    /// Log-odds are clamped to ±this (a Float sigmoid reaches 1 near 16.6).
    package static let logitLimit = 16.0
    /// The smallest scale the fit may give, in log-odds: peaks that tie
    /// would otherwise promise a cliff no head has.
    package static let minimumScaleLogits = 0.25

    /// Peak log-odds, highest first.
    package private(set) var peakLogits: [Double]
    /// Hours of audio the peaks were found in.
    package private(set) var hours: Double
    /// The exponential tail fitted to the highest peaks.
    package struct Fit: Sendable, Equatable {
        /// Log-odds of the lowest peak the fit reads (the `fitPeaks`-th highest).
        package var startLogit: Double
        /// Peaks at or above it.
        package var count: Int
        /// The log-odds over which the count of peaks falls by a factor e.
        package var scaleLogits: Double
    }

    /// The fit; nil with fewer than `minimumPeaks` peaks.
    package private(set) var fit: Fit?

    /// The tail of `peakScores` (each a detection's smoothed score, 0…1)
    /// found in `seconds` of speech and noise without the phrase.
    package init(peakScores: [Float], seconds: Double) {
        precondition(seconds > 0, "a rate needs audio")
        peakLogits = peakScores.map { Self.logit(Double($0)) }.sorted(by: >)
        hours = seconds / 3600
        guard peakLogits.count >= Self.minimumPeaks else {
            fit = nil
            return
        }
        let count = min(Self.fitPeaks, peakLogits.count)
        let start = peakLogits[count - 1]
        let excess = peakLogits.prefix(count - 1).reduce(0) { $0 + ($1 - start) } / Double(count - 1)
        fit = Fit(startLogit: start, count: count, scaleLogits: max(Self.minimumScaleLogits, excess))
    }

    /// Log-odds of a score, clamped to ±`logitLimit`.
    package static func logit(_ score: Double) -> Double {
        guard score > 0 else { return -logitLimit }
        guard score < 1 else { return logitLimit }
        return min(logitLimit, max(-logitLimit, log(score / (1 - score))))
    }

    /// Estimated false wakes per hour at `threshold` (a smoothed score, 0…1).
    package func falseWakesPerHour(at threshold: Float) -> Double {
        let level = Self.logit(Double(threshold))
        if let fit, level > fit.startLogit {
            return Double(fit.count) / hours * exp(-(level - fit.startLogit) / fit.scaleLogits)
        }
        return Double(peakLogits.filter { $0 >= level }.count) / hours
    }
}
