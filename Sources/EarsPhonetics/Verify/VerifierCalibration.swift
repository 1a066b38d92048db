import Foundation

/// Turns a candidate's measurements into one calibrated score in 0…1: a
/// logistic model over a handful of features, whose weights are fitted by
/// `bench/fit_verifier.py` on the project's own corpus and written to
/// `VerifierWeights.swift` (never by hand).
///
/// A candidate whose window a sound-alike of the phrase explains better than
/// the phrase itself is refused whatever its score (`verdict`).
package struct VerifierCalibration: Sendable, Equatable {
    /// Feature names, in the order of `weights` (after the bias).
    package static let featureNames = ["spot", "llr", "margin", "phones", "text", "duration"]
    /// Where each feature is clamped, so one wild number cannot dominate.
    package static let featureLimit = 10.0

    /// Bias, then one weight per feature in `featureNames` order.
    package let bias: Double
    /// One weight per feature.
    package let weights: [Double]

    /// A calibration with explicit weights (tests, the fitting script).
    package init(bias: Double, weights: [Double]) {
        precondition(weights.count == Self.featureNames.count, "one weight per feature")
        self.bias = bias
        self.weights = weights
    }

    /// The fitted calibration (`VerifierWeights`).
    package static let fitted = VerifierCalibration(bias: VerifierWeights.bias, weights: VerifierWeights.weights)

    /// The features of a candidate, in `featureNames` order:
    /// - spot: the spotter's log-likelihood ratio per frame (0 when the
    ///   candidate came from a transcript);
    /// - llr: (phrase − free phones) per frame;
    /// - margin: (phrase − best sound-alike) per frame (0 without sound-alikes);
    /// - phones: the phone-loop match, 0…1;
    /// - text: the phrase's match in a plain transcript of the window, 0…1
    ///   (0 when it was not measured);
    /// - duration: |ln(phrase seconds / expected seconds)|.
    package static func features(_ evidence: VerifierEvidence, spotScore: Double?) -> [Double] {
        let frames = Double(max(1, evidence.frames))
        let margin = evidence.competitorScore.map { (evidence.phraseScore - $0) / frames } ?? 0
        let duration = evidence.phraseSeconds > 0 && evidence.expectedSeconds > 0
            ? abs(log(evidence.phraseSeconds / evidence.expectedSeconds)) : featureLimit
        let raw = [spotScore ?? 0, (evidence.phraseScore - evidence.loopScore) / frames, margin, evidence.phoneMatch,
                   evidence.textMatch ?? 0, duration]
        return raw.map(clamped)
    }

    /// `value` within ±`featureLimit`; not a number counts as the worst.
    private static func clamped(_ value: Double) -> Double {
        min(featureLimit, max(-featureLimit, value.isFinite ? value : -featureLimit))
    }

    /// The calibrated score, 0…1, of `features`.
    package func score(_ features: [Double]) -> Double {
        Self.logistic(bias: bias, weights: weights, features: features)
    }

    /// The range each feature of `features(_:spotScore:)` can take, in
    /// `featureNames` order: the phone and text matches are 0…1, the
    /// duration's |ln| is 0 or more, the rest are only clamped.
    package static let featureRanges: [ClosedRange<Double>] = [
        -featureLimit...featureLimit, -featureLimit...featureLimit, -featureLimit...featureLimit,
        0...1, 0...1, 0...featureLimit,
    ]

    /// The highest score a candidate with `spotScore` (the spotter's, known
    /// before the verifier measures anything) can reach, whatever the
    /// measurements: every other feature at the end of its range its weight
    /// favours. A candidate under the threshold here needs no measuring.
    /// With `phoneMatch` (the verifier's first search, the free phone loop)
    /// that feature is the measured one: a candidate under the threshold
    /// then needs no further search.
    package func highestScore(spotScore: Double?, phoneMatch: Double? = nil) -> Double {
        var favoured = zip(weights, Self.featureRanges).map { weight, range in weight >= 0 ? range.upperBound : range.lowerBound }
        favoured[0] = Self.clamped(spotScore ?? 0)
        // Clamped as `features` clamps it, so the bound uses the very feature the score will.
        if let phoneMatch { favoured[Self.phonesIndex] = Self.clamped(phoneMatch) }
        return score(favoured)
    }

    /// Where the phone-loop match sits in `featureNames`.
    private static let phonesIndex = featureNames.firstIndex(of: "phones")!

    /// 1 / (1 + e^−(bias + Σ weight × feature)), 0…1: the logistic this
    /// calibration and the fusion's (`FusionCalibration`) score with.
    package static func logistic(bias: Double, weights: [Double], features: [Double]) -> Double {
        var sum = bias
        for (weight, value) in zip(weights, features) { sum += weight * value }
        return 1 / (1 + exp(-sum))
    }

    /// Whether `evidence` without its transcript already decides at
    /// `threshold`: a sound-alike won, or the score is on the same side of
    /// the threshold whatever the transcript would add (text from 0 to 1).
    package func decides(_ evidence: VerifierEvidence, spotScore: Double?, threshold: Double) -> Bool {
        if evidence.competitorWins { return true }
        var low = evidence, high = evidence
        low.textMatch = 0
        high.textMatch = 1
        let lowScore = score(Self.features(low, spotScore: spotScore))
        let highScore = score(Self.features(high, spotScore: spotScore))
        return (lowScore >= threshold) == (highScore >= threshold)
    }

    /// The score of a candidate and whether it may wake at `threshold`: a
    /// sound-alike that explains the window better refuses it outright.
    package func verdict(_ evidence: VerifierEvidence, spotScore: Double?, threshold: Double) -> (score: Double, accepted: Bool) {
        let value = score(Self.features(evidence, spotScore: spotScore))
        return (value, value >= threshold && !evidence.competitorWins)
    }
}
