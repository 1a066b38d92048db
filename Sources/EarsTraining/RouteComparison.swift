/// Whether a trained model should replace the acoustic route for its
/// phrase: both routes' recall on the same held-out calls (voices no model
/// trained or validated on), per condition, and the decision. Pure.
///
/// Rule: the model is used when its mean recall over the conditions both
/// routes were measured in (clean, ~10 dB, ~5 dB) is at least the acoustic
/// route's; otherwise it is kept aside and the phrase stays on the acoustic
/// route. The mean, not each condition: the routes fail in different places
/// (the acoustic route holds clean speech, the heads hold noise), and a
/// person's room has both. False wakes are not compared: the acoustic
/// route's would need the held-out negatives decoded too (minutes of CPU),
/// and the model's own threshold already bounds its false wakes on the
/// validation voices.
package struct RouteComparison: Sendable, Equatable {
    /// The conditions, in the order they are reported.
    package enum Condition: String, Sendable, CaseIterable {
        case clean = "clean"
        case near10dB = "~10 dB"
        case near5dB = "~5 dB"

        /// The condition a clip's augmentation puts it in: no noise or 15 dB
        /// and above is clean, 7.5–12.5 dB is ~10 dB, 2.5–7.5 dB is ~5 dB;
        /// nil between and below (counted in no condition).
        package init?(of augmentation: Augmentation) {
            let snr = augmentation.noise == nil ? Double.infinity : augmentation.signalToNoiseDecibels
            if snr >= 15 { self = .clean }
            else if snr >= 7.5 && snr < 12.5 { self = .near10dB }
            else if snr >= 2.5 && snr < 7.5 { self = .near5dB }
            else { return nil }
        }
    }

    /// The trained model's tallies per condition.
    package var model: [Condition: TrainingEvaluation.Tally]
    /// The acoustic route's tallies on the same calls.
    package var acoustic: [Condition: TrainingEvaluation.Tally]

    package init(model: [Condition: TrainingEvaluation.Tally], acoustic: [Condition: TrainingEvaluation.Tally]) {
        self.model = model
        self.acoustic = acoustic
    }

    /// The conditions both routes have calls in.
    package var conditions: [Condition] {
        Condition.allCases.filter { (model[$0]?.total ?? 0) > 0 && (acoustic[$0]?.total ?? 0) > 0 }
    }

    /// Mean recall over `conditions` of `tallies`, nil without any.
    static func meanRecall(_ tallies: [Condition: TrainingEvaluation.Tally], over conditions: [Condition]) -> Double? {
        let rates = conditions.compactMap { tallies[$0]?.rate }
        return rates.isEmpty ? nil : rates.reduce(0, +) / Double(rates.count)
    }

    /// The model's mean recall over the shared conditions.
    package var modelMean: Double? { Self.meanRecall(model, over: conditions) }
    /// The acoustic route's mean recall over the shared conditions.
    package var acousticMean: Double? { Self.meanRecall(acoustic, over: conditions) }

    /// Whether the model should be used: yes when it is at least as good on
    /// average, or when there is nothing to compare.
    package var modelIsBetter: Bool {
        guard let modelMean, let acousticMean else { return true }
        return modelMean >= acousticMean
    }

    /// "clean 80% vs 100% (of 10 calls), ~10 dB 73% vs 40% (of 15)": model
    /// first; the count is the acoustic route's (the same calls as the model's).
    package var figuresLine: String {
        conditions.enumerated().map { index, condition in
            "\(condition.rawValue) \(Self.percent(model[condition]?.rate)) vs \(Self.percent(acoustic[condition]?.rate))"
                + " (of \(acoustic[condition]?.total ?? 0)\(index == 0 ? " calls" : ""))"
        }.joined(separator: ", ")
    }

    /// Why the model is kept aside, in one sentence (nil when it is used).
    package var asideWhy: String? {
        guard !modelIsBetter else { return nil }
        return "on held-out voices the trained model hears fewer calls than the acoustic route "
            + "(mean \(Self.percent(modelMean)) vs \(Self.percent(acousticMean)): \(figuresLine)); "
            + "the phrase stays on the acoustic route"
    }

    /// "73%", or "n/a".
    static func percent(_ rate: Double?) -> String {
        rate.map { "\(Int(($0 * 100).rounded()))%" } ?? "n/a"
    }
}
