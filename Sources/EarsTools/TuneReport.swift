import EarsCore
import Foundation
import EarsPhonetics
import EarsConfig

/// What `ears tune` prints: per file and phrase, the best score, where, and
/// whether it woke at the threshold in force; the sweep table; the
/// suggestion. A table for people, or JSON lines (`--json`) whose `event`
/// says what each is: `tune` (what is swept), `file`, `text` (only with
/// `--show-text`), `sweep` (one per threshold), `suggestion`.
struct TuneReport {
    let config: EarsConfig
    let swept: TuneCommand.Swept
    let current: Double?
    /// Phrases decided by their trained model (the sweep does not move them).
    let trainedPhrases: [String]
    let results: [TuneCommand.FileResult]
    let sweep: ThresholdSweep

    /// Scores and times are printed to this many decimals in JSON.
    static let jsonPlaces = 3

    /// The best observation of `phrase` in `result`: the best that could wake, else the best refused one.
    static func best(of phrase: String, in result: TuneCommand.FileResult) -> TuneObservation? {
        let mine = result.observations.filter { $0.phrase == phrase }
        let byScore: (TuneObservation, TuneObservation) -> Bool = { $0.score < $1.score }
        return mine.filter(\.eligible).max(by: byScore) ?? mine.max(by: byScore)
    }

    /// The report's lines, in order.
    func lines(json: Bool) -> [String] {
        json ? jsonLines() : textLines()
    }

    private var sweptName: String {
        switch swept {
        case .verifier: "verifier_threshold"
        case .phrase: "threshold"
        case .trained: "trained_threshold"
        }
    }

    private func textLines() -> [String] {
        var lines: [String] = []
        let currentText = current.map(ThresholdSweep.format) ?? "set per phrase"
        switch swept {
        case .verifier:
            lines.append("the verifier's calibrated score decides (verifier_threshold \(currentText)); the sweep moves it")
        case .phrase:
            lines.append("the detector's match score decides (threshold \(currentText)); the sweep moves it")
        case .trained:
            lines.append("every phrase has a trained model, whose score decides (trained_threshold \(currentText)); the sweep moves it")
        }
        if swept != .trained && !trainedPhrases.isEmpty {
            lines.append("decided by their trained model at its own threshold, not moved by the sweep: \(trainedPhrases.map(quote).joined(separator: ", "))")
        }
        for result in results {
            let name = result.name + (result.negative ? " (negative)" : "")
            for phrase in config.phrases.map(\.text) {
                let wakes = result.currentWakes.filter { $0.phrase == phrase }.count
                let woke = wakes == 0 ? "no wake" : "woke \(wakes) time\(wakes == 1 ? "" : "s")"
                let score: String
                if let best = Self.best(of: phrase, in: result) {
                    let note = best.eligible ? "" : " (a sound-alike explained it better)"
                    score = "best \(ThresholdSweep.format(best.score)) at \(ThresholdSweep.format(best.seconds)) s\(note)"
                } else if let peak = result.headPeaks[phrase] {
                    score = "model peak \(ThresholdSweep.format(peak))"
                } else {
                    score = "no candidate"
                }
                lines.append("\(name): \(quote(phrase)) \(score), \(woke)")
            }
            if !result.heard.isEmpty {
                lines.append("\(name): heard \(quote(Self.heardText(result)))")
            }
        }
        let positives = sweep.positives.count, negatives = sweep.negatives.count
        lines.append("")
        lines.append("  threshold  phrase files woke  wakes per phrase file  false wakes")
        for row in sweep.rows {
            let mark = row.isCurrent ? ">" : " "
            let woke = "\(row.positivesWoke) of \(positives)"
            let perFile = row.positiveWakes.isEmpty ? "-" : row.positiveWakes.map(String.init).joined(separator: " ")
            let falseWakes = negatives == 0 ? "-" : "\(row.falseWakes) (\(row.negativesWoke) of \(negatives) files)"
            lines.append("\(mark) " + pad(ThresholdSweep.format(row.threshold), 9) + "  " + pad(woke, 17) + "  "
                         + pad(perFile, 21) + "  " + falseWakes + (row.isCurrent ? "   <- in force" : ""))
        }
        lines.append(sweep.suggestionSentence)
        if case let .threshold(value, _) = sweep.suggestion {
            lines.append(swept.applyLine(value, phrases: config.phrases.map(\.text)))
        }
        return lines
    }

    private func quote(_ text: String) -> String { "\"" + text + "\"" }

    /// The words heard in a file, as one text: PocketSphinx writes a boosted
    /// phrase as one compound word ("hey_cordelia"), shown as its words.
    static func heardText(_ result: TuneCommand.FileResult) -> String {
        result.heard.joined(separator: " ").replacingOccurrences(of: "_", with: " ")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func jsonLines() -> [String] {
        var lines: [JSONValue] = []
        lines.append(.object(["event": "tune", "swept": .string(sweptName),
                              "current": current.map { .number($0) } ?? .null,
                              "thresholds": .array(sweep.thresholds.map { .number($0) }),
                              "trained": .array(trainedPhrases.map(JSONValue.string))]))
        for result in results {
            for phrase in config.phrases.map(\.text) {
                let wakes = result.currentWakes.filter { $0.phrase == phrase }.count
                let best = Self.best(of: phrase, in: result)
                lines.append(.object([
                    "event": "file", "file": .string(result.name), "negative": .bool(result.negative),
                    "phrase": .string(phrase), "seconds": rounded(result.seconds),
                    "best": best.map { rounded($0.score) } ?? result.headPeaks[phrase].map(rounded) ?? .null,
                    "t": best.map { rounded($0.seconds) } ?? .null,
                    "eligible": best.map { .bool($0.eligible) } ?? .null,
                    "wakes": .integer(Int64(wakes)), "woke": .bool(wakes > 0),
                ]))
            }
            if !result.heard.isEmpty {
                lines.append(.object(["event": "text", "file": .string(result.name), "text": .string(Self.heardText(result))]))
            }
        }
        for row in sweep.rows {
            lines.append(.object([
                "event": "sweep", "threshold": .number(row.threshold), "current": .bool(row.isCurrent),
                "positives": .integer(Int64(sweep.positives.count)), "positives_woke": .integer(Int64(row.positivesWoke)),
                "wakes": .array(row.positiveWakes.map { .integer(Int64($0)) }),
                "negatives": .integer(Int64(sweep.negatives.count)), "negatives_woke": .integer(Int64(row.negativesWoke)),
                "false_wakes": .integer(Int64(row.falseWakes)),
            ]))
        }
        var suggestion: [String: JSONValue] = ["event": "suggestion", "threshold": .null, "margin": .null,
                                               "sentence": .string(sweep.suggestionSentence)]
        if case let .threshold(value, margin) = sweep.suggestion {
            suggestion["threshold"] = .number(value)
            suggestion["margin"] = rounded(margin)
            suggestion["apply"] = .string(swept.applyLine(value, phrases: config.phrases.map(\.text)))
        }
        lines.append(.object(suggestion))
        return lines.map(\.jsonText)
    }

    private func rounded(_ value: Double) -> JSONValue {
        let scale = 1000.0
        return .number((value * scale).rounded() / scale)
    }
}
