import Foundation // log

/// One decision from two experts: a trained head's score and the acoustic
/// verifier's measurements of the same candidate, combined by a logistic
/// model into one calibrated score in 0…1. Its weights are fitted by
/// `bench/fit_fusion.py` on the benchmark corpus with a whole engine held
/// out and written to `FusionWeights.swift` (never by hand).
///
/// Why: the head is cheap and always on but learned the synthesizers'
/// voices as much as the phrase; PocketSphinx's acoustic model was trained on
/// people and holds on voices the head never heard, and it measures the
/// phrase against its own sound-alikes. A candidate the head finds at
/// `headThreshold` (lower than a model's own threshold, so the verifier
/// sees the calls the head is unsure of) wakes when the fused score reaches
/// `threshold`.
package struct FusionCalibration: Sendable, Equatable {
    /// Feature names, in the order of `weights`.
    package static let featureNames = ["head", "llr", "margin", "phones", "duration"]
    /// Where each feature is clamped, so one wild number cannot dominate
    /// (the verifier's limit: its features are reused).
    package static let featureLimit = VerifierCalibration.featureLimit

    /// Bias term.
    package let bias: Double
    /// One weight per `featureNames` entry.
    package let weights: [Double]
    /// The fused score a candidate needs to wake, 0…1.
    package let threshold: Double
    /// The smoothed head score at which a candidate is put to the verifier, 0…1.
    package let headThreshold: Double

    /// A calibration with explicit weights (tests, the fitting script).
    package init(bias: Double, weights: [Double], threshold: Double, headThreshold: Double) {
        precondition(weights.count == Self.featureNames.count, "one weight per feature")
        self.bias = bias
        self.weights = weights
        self.threshold = threshold
        self.headThreshold = headThreshold
    }

    /// The fitted calibration (`FusionWeights`), nil until `bench/fit_fusion.py` has fitted one.
    package static let fitted: FusionCalibration? = FusionWeights.headThreshold > 0
        ? FusionCalibration(bias: FusionWeights.bias, weights: FusionWeights.weights,
                            threshold: FusionWeights.threshold, headThreshold: FusionWeights.headThreshold)
        : nil

    /// The features of a candidate, in `featureNames` order: the head's
    /// smoothed score as a log-odds, ln(s / (1 − s)) with s kept within 1e-4
    /// of 0 and 1, then the verifier's own llr, margin, phones and duration
    /// (`VerifierCalibration.features`, clamped the same way).
    package static func features(_ evidence: VerifierEvidence, headScore: Double) -> [Double] {
        let clamped = min(1 - 1e-4, max(1e-4, headScore))
        let verifier = VerifierCalibration.features(evidence, spotScore: nil)
        let named = Dictionary(uniqueKeysWithValues: zip(VerifierCalibration.featureNames, verifier))
        return [log(clamped / (1 - clamped))] + featureNames.dropFirst().compactMap { named[$0] }
    }

    /// The fused score, 0…1, of `features`.
    package func score(_ features: [Double]) -> Double {
        VerifierCalibration.logistic(bias: bias, weights: weights, features: features)
    }
}
