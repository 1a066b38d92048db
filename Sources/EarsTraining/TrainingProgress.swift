/// The progress of `ears train`, as one line: which stage, how far, and an
/// estimate of the time left. Pure: the caller passes the clock and decides
/// where the line goes (redrawn in place on a terminal, a plain line per
/// stage step otherwise).
///
/// Each stage has a share of the whole run (its expected fraction of the
/// wall time, measured on this kind of machine); the estimate scales the
/// time spent so far by the fraction done, which is steady enough once a few
/// percent are behind.
package struct TrainingProgress: Sendable {
    /// A step of training, with its expected share of the wall time.
    package enum Stage: String, Sendable, CaseIterable {
        case synthesizing = "synthesizing speech"
        case listening = "computing speech features"
        case training = "training the head"
        case mining = "mining hard negatives"
        case validating = "validating on held-out voices"

        /// Expected fraction of the whole run (sums to 1 over all stages).
        package var share: Double {
            switch self {
            case .synthesizing: return 0.40
            case .listening: return 0.25
            case .training: return 0.20
            case .mining: return 0.10
            case .validating: return 0.05
            }
        }

        /// Fraction of the run done before this stage starts.
        package var before: Double {
            Stage.allCases.prefix(while: { $0 != self }).reduce(0) { $0 + $1.share }
        }
    }

    /// Width of the bar in characters.
    package static let barWidth = 24

    /// Monotonic seconds when training started.
    package let startSeconds: Double
    /// The stage in progress.
    package private(set) var stage: Stage = .synthesizing
    /// Fraction of the current stage done, 0…1.
    package private(set) var stageFraction = 0.0

    /// Progress starting at `startSeconds` (a monotonic clock reading).
    package init(startSeconds: Double) { self.startSeconds = startSeconds }

    /// Records that `done` of `total` steps of `stage` are finished.
    package mutating func update(_ stage: Stage, done: Int, total: Int) {
        self.stage = stage
        stageFraction = total > 0 ? min(1, max(0, Double(done) / Double(total))) : 1
    }

    /// Fraction of the whole run done, 0…1.
    package var fraction: Double { min(1, stage.before + stage.share * stageFraction) }

    /// Seconds left, or nil while too little is done to say (under 2%).
    package func secondsLeft(now: Double) -> Double? {
        let done = fraction
        guard done >= 0.02 else { return nil }
        return max(0, (now - startSeconds) * (1 - done) / done)
    }

    /// The line: `[#########...............]  38%  training the head, about 3 min 10 s left`.
    package func line(now: Double) -> String {
        let filled = Int((fraction * Double(Self.barWidth)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: Self.barWidth - filled)
        let percent = Int((fraction * 100).rounded(.down))
        let left = secondsLeft(now: now).map { ", about \(Self.duration($0)) left" } ?? ""
        return "[\(bar)] \(String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0))\(percent)%  \(stage.rawValue)\(left)"
    }

    /// `2 min 05 s`, `45 s`.
    package static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        guard whole >= 60 else { return "\(whole) s" }
        let secondsPart = whole % 60
        return "\(whole / 60) min \(secondsPart < 10 ? "0" : "")\(secondsPart) s"
    }
}
