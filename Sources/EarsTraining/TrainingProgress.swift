/// The progress of `ears train`, as one line: which stage, how far, and an
/// estimate of the time left. Pure: the caller passes the clock and decides
/// where the line goes (redrawn in place on a terminal, a plain line per
/// stage step otherwise).
///
/// Each stage has a share of the whole run (its expected fraction of the
/// wall time, measured on this kind of machine). The fraction never goes
/// back: stages come in this order and a step count that falls (a new
/// round) is held at the highest fraction seen. The time left is measured:
/// the current stage's own rate for what is left of it (once 5 % of it and
/// a second are behind), and the run's rate so far for the stages after it;
/// before that, the time spent scaled by the fraction done.
package struct TrainingProgress: Sendable {
    /// A step of training, with its expected share of the wall time.
    package enum Stage: String, Sendable, CaseIterable {
        case synthesizing = "synthesizing speech"
        case listening = "computing speech features"
        case training = "training the first head"
        case mining = "mining hard negatives"
        case refining = "training the final head"
        case validating = "validating on held-out voices"

        /// Expected fraction of the whole run (sums to 1 over all stages).
        package var share: Double {
            switch self {
            case .synthesizing: return 0.40
            case .listening: return 0.25
            case .training: return 0.08
            case .mining: return 0.05
            case .refining: return 0.17
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
    /// The highest fraction of the whole run reported so far.
    private var highest = 0.0
    /// When the current stage started (clock reading), if the caller says the time.
    private var stageStartSeconds: Double?

    /// Progress starting at `startSeconds` (a monotonic clock reading).
    package init(startSeconds: Double) { self.startSeconds = startSeconds }

    /// Records that `done` of `total` steps of `stage` are finished, at
    /// clock reading `now` when given (it times the stage for the estimate).
    package mutating func update(_ stage: Stage, done: Int, total: Int, now: Double? = nil) {
        if stage != self.stage || stageStartSeconds == nil {
            stageStartSeconds = now
        }
        self.stage = stage
        stageFraction = total > 0 ? min(1, max(0, Double(done) / Double(total))) : 1
        // A stage reported again from fewer steps (a later round) holds the bar where it was.
        highest = max(highest, min(1, stage.before + stage.share * stageFraction))
    }

    /// Fraction of the whole run done, 0…1; never less than before.
    package var fraction: Double { highest }

    /// Seconds left, or nil while too little is done to say (under 2%).
    package func secondsLeft(now: Double) -> Double? {
        let done = fraction
        guard done >= 0.02 else { return nil }
        let elapsed = now - startSeconds
        let overall = max(0, elapsed * (1 - done) / done)
        guard let stageStart = stageStartSeconds, stageFraction >= 0.05, now - stageStart >= 1, stageFraction < 1 else {
            return overall
        }
        // This stage at its own measured rate; the stages after it at the run's rate so far.
        let stageLeft = (now - stageStart) / stageFraction * (1 - stageFraction)
        let before = stage.before
        let laterShare = max(0, 1 - before - stage.share)
        let runRate = before > 0 ? (stageStart - startSeconds) / before : elapsed / max(done, 0.02)
        return max(0, stageLeft + laterShare * runRate)
    }

    /// The line: `[#########...............]  38%  training the first head, about 3 min 10 s left`.
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
