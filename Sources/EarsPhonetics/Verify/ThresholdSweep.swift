/// The arithmetic of `ears tune`: given how many times each file woke at
/// each threshold tried, and the best score each file reached, how many
/// phrase files (positives) woke, how many false wakes the files marked
/// negative gave, and which threshold separates them with the most margin.
///
/// Pure: the wake counts come from the same judge `ears scan` decides with
/// (one judge per threshold over the same ear); this type only counts and
/// chooses, so it is tested with numbers.
package struct ThresholdSweep: Sendable, Equatable {
    /// One file's results, in the order the thresholds were given.
    package struct File: Sendable, Equatable {
        /// The file as named on the command line.
        package var name: String
        /// Whether it was marked `--negative` (it must not wake).
        package var negative: Bool
        /// Wakes at each threshold, in `ThresholdSweep.thresholds` order.
        package var wakes: [Int]
        /// The best score (0…1) of a candidate that could wake (one no
        /// sound-alike refused), nil when there was none.
        package var bestScore: Double?

        /// A file `name` that woke `wakes[i]` times at threshold i, whose best
        /// candidate scored `bestScore`.
        package init(name: String, negative: Bool, wakes: [Int], bestScore: Double?) {
            self.name = name
            self.negative = negative
            self.wakes = wakes
            self.bestScore = bestScore
        }
    }

    /// What happened at one threshold.
    package struct Row: Sendable, Equatable {
        /// The threshold, 0…1.
        package var threshold: Double
        /// Whether this is the threshold in force (the one `scan` uses).
        package var isCurrent: Bool
        /// Positive files that woke at least once.
        package var positivesWoke: Int
        /// Wakes per positive file, in file order.
        package var positiveWakes: [Int]
        /// Wakes summed over the negative files: every one is false.
        package var falseWakes: Int
        /// Negative files that woke at least once.
        package var negativesWoke: Int

        /// Whether every positive woke and no negative did.
        package func separates(positives: Int) -> Bool { positives > 0 && positivesWoke == positives && falseWakes == 0 }
    }

    /// The advice: a threshold, or why none can be given.
    package enum Suggestion: Sendable, Equatable {
        /// `threshold` wakes every positive and no negative; `margin` is how
        /// far (in score) it sits from the nearer of the weakest positive's
        /// best score and the strongest negative's (or, without a scored
        /// negative, the lowest separating threshold tried).
        case threshold(Double, margin: Double)
        /// No file was a positive: there is nothing to wake.
        case noPositives
        /// No threshold tried wakes every positive: the most that woke was
        /// `bestWoke` of `positives`, at `at`.
        case missesPositives(bestWoke: Int, positives: Int, at: Double)
        /// Every threshold that wakes every positive also wakes a negative.
        case negativesAlwaysWake
    }

    /// Thresholds `ears tune` tries unless told otherwise: 0.30 to 0.95 in steps of 0.05.
    package static let defaultThresholds: [Double] = stride(from: 30, through: 95, by: 5).map { Double($0) / 100 }
    /// Two thresholds closer than this are the same one.
    package static let sameThreshold = 1e-9

    /// `grid` with `current` added (when not already in it), ascending.
    package static func thresholds(_ grid: [Double] = defaultThresholds, including current: Double?) -> [Double] {
        var all = grid
        if let current, !all.contains(where: { abs($0 - current) < sameThreshold }) { all.append(current) }
        return all.sorted()
    }

    /// The thresholds tried, ascending.
    package let thresholds: [Double]
    /// The threshold in force, when it is one number (nil: per-phrase thresholds differ).
    package let current: Double?
    /// The files, in command-line order.
    package let files: [File]

    /// A sweep over `thresholds` (ascending) of `files`, each with one wake
    /// count per threshold; `current` marks the threshold in force.
    package init(thresholds: [Double], current: Double?, files: [File]) {
        precondition(files.allSatisfy { $0.wakes.count == thresholds.count }, "one wake count per threshold")
        self.thresholds = thresholds
        self.current = current
        self.files = files
    }

    /// The positive files (not marked negative), in order.
    package var positives: [File] { files.filter { !$0.negative } }
    /// The negative files, in order.
    package var negatives: [File] { files.filter(\.negative) }

    /// One row per threshold, ascending.
    package var rows: [Row] {
        let positives = self.positives, negatives = self.negatives
        return thresholds.indices.map { index in
            let positiveWakes = positives.map { $0.wakes[index] }
            let negativeWakes = negatives.map { $0.wakes[index] }
            return Row(threshold: thresholds[index],
                       isCurrent: current.map { abs($0 - thresholds[index]) < Self.sameThreshold } ?? false,
                       positivesWoke: positiveWakes.filter { $0 > 0 }.count, positiveWakes: positiveWakes,
                       falseWakes: negativeWakes.reduce(0, +), negativesWoke: negativeWakes.filter { $0 > 0 }.count)
        }
    }

    /// The threshold that wakes every positive and no negative with the most
    /// margin: the one farthest from both the weakest positive's best score
    /// (above it) and the strongest negative's best score (below it); on a
    /// tie the higher (fewer false wakes elsewhere). Without a scored
    /// negative, the lowest separating threshold stands in for it.
    package var suggestion: Suggestion {
        let positives = self.positives
        guard !positives.isEmpty else { return .noPositives }
        let rows = self.rows
        let separating = rows.filter { $0.separates(positives: positives.count) }
        guard let lowest = separating.first else {
            let wakingAll = rows.filter { $0.positivesWoke == positives.count }
            if !wakingAll.isEmpty { return .negativesAlwaysWake }
            // The most positives any threshold woke; the highest such threshold.
            let best = rows.max { ($0.positivesWoke, $0.threshold) < ($1.positivesWoke, $1.threshold) }
            return .missesPositives(bestWoke: best?.positivesWoke ?? 0, positives: positives.count, at: best?.threshold ?? 0)
        }
        let upper = positives.compactMap(\.bestScore).min() ?? separating.last!.threshold
        let lower = negatives.compactMap(\.bestScore).max() ?? lowest.threshold
        var chosen = lowest.threshold
        var chosenMargin = -Double.infinity
        for row in separating {
            let margin = min(upper - row.threshold, row.threshold - lower)
            if margin >= chosenMargin - Self.sameThreshold {
                chosen = row.threshold
                chosenMargin = margin
            }
        }
        return .threshold(chosen, margin: max(0, chosenMargin))
    }

    /// The suggestion as one sentence for the terminal.
    package var suggestionSentence: String {
        switch suggestion {
        case let .threshold(value, margin):
            let negativeNote = negatives.isEmpty ? " (no --negative files were given: add some to know what it must stay above)" : ""
            return "suggested threshold: \(Self.format(value)) — wakes every phrase file and no negative, margin \(Self.format(margin))\(negativeNote)"
        case .noPositives:
            return "no suggestion: every file was marked --negative, so nothing has to wake"
        case let .missesPositives(bestWoke, positives, at):
            return "no threshold separates them: at best \(bestWoke) of \(positives) phrase files woke (at \(Self.format(at))); the engine does not propose the phrase in the others"
        case .negativesAlwaysWake:
            return "no threshold separates them: every threshold that wakes every phrase file also wakes a negative one"
        }
    }

    /// `value` with two decimals, the way thresholds are written in ears.conf.
    package static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
