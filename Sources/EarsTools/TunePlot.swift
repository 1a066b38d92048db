import EarsCore
import EarsPhonetics
import EarsSynth
import Foundation

/// `ears tune --plot out.png`: each file's scores over time, one panel per
/// file titled with its verdict ("woke at 1.3 s", "no wake: best 0.41"),
/// the threshold in force as a line and the suggested one as another.
/// Candidates the verifier refused because a sound-alike explained them
/// better are drawn apart (grey crosses, "refused: a sound-alike fits
/// better"): they cannot wake at any threshold, so they must not look like
/// a score above the line. A file without a candidate says so in its panel. gnuplot draws it: the
/// script and its data (scores and times only, never audio or words) go to
/// gnuplot's standard input, and the PNG comes back on its standard output,
/// so nothing but the PNG is ever written to disk.
enum TunePlot {
    /// Why the plot was not written, with what to do.
    enum Failure: Error {
        case gnuplot(SynthError)
        case write(path: String, detail: String)

        /// One sentence for the terminal.
        var sentence: String {
            switch self {
            case let .gnuplot(error): "cannot draw the plot: \(error.sentence)"
            case let .write(path, detail): "cannot write the plot to \(path) (\(detail)); choose a writable path"
            }
        }
    }

    /// One file's panel: its name, length and scores; numbers only, never
    /// audio or words heard, so the one file this type writes holds none.
    struct Panel {
        /// The file's name (its last path component is the title).
        var file: String
        var negative: Bool
        /// The file's length in seconds (the x axis).
        var seconds: Double
        /// The scores to draw.
        var observations: [TuneObservation]
        /// The verdict at the threshold in force, for the title ("woke at 1.30 s", "no wake").
        var verdict: String
    }

    /// Pixels per file panel, and the picture's width.
    static let panelHeightPixels = 220
    static let widthPixels = 1000
    /// Panels beyond this are left out (the picture would be unreadable).
    static let mostPanels = 40

    /// Draws `panels` (one panel each) with `threshold` as a line, scores of
    /// each of `phrases` as impulses, and writes the PNG to `path`.
    static func write(panels: [Panel], phrases: [String], threshold: Double?, suggested: Double? = nil,
                      to path: String) throws(Failure) {
        let script = self.script(panels: panels, phrases: phrases, threshold: threshold, suggested: suggested)
        let png: [UInt8]
        do throws(SynthError) {
            png = try Subprocess.run(.gnuplot, [], input: Array(script.utf8))
        } catch {
            throw .gnuplot(error)
        }
        do {
            try Data(png).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .write(path: path, detail: "\(error.localizedDescription)")
        }
    }

    /// The gnuplot script, data inline (`$name << EOD` blocks): a PNG on stdout.
    static func script(panels: [Panel], phrases: [String], threshold: Double?, suggested: Double? = nil) -> String {
        let shown = Array(panels.prefix(mostPanels))
        var lines = [
            "set terminal pngcairo size \(widthPixels),\(panelHeightPixels * max(1, shown.count)) noenhanced font 'sans,9'",
            "set output",
            "set yrange [0:1.05]",
            "set ylabel 'score'",
            "set grid ytics",
            "set key outside right top",
            "set multiplot layout \(max(1, shown.count)),1",
        ]
        for (index, result) in shown.enumerated() {
            let seconds = max(result.seconds, 0.1)
            let name = (result.file as NSString).lastPathComponent + (result.negative ? " (negative)" : "")
            lines.append("set title \(quoted(name + ": " + result.verdict))")
            lines.append("set xrange [0:\(number(seconds))]")
            lines.append(index == shown.count - 1 ? "set xlabel 'seconds'" : "unset xlabel")
            lines.append("unset label")
            if result.observations.isEmpty {
                lines.append("set label 1 'no candidate in this file: the engine never proposed a phrase' at graph 0.5, graph 0.5 center")
            }
            var plots: [String] = []
            for (phraseIndex, phrase) in phrases.enumerated() {
                let points = result.observations.filter { $0.phrase == phrase && $0.eligible }
                guard !points.isEmpty else { continue }
                let block = "$f\(index)p\(phraseIndex)"
                lines.append("\(block) << EOD")
                lines += points.map { "\(number($0.seconds)) \(number($0.score))" }
                lines.append("EOD")
                plots.append("\(block) using 1:2 with impulses lw 2 lc \(phraseIndex + 1) title \(quoted(phrase)), "
                             + "\(block) using 1:2 with points pt 7 lc \(phraseIndex + 1) notitle")
            }
            let refused = result.observations.filter { !$0.eligible }
            if !refused.isEmpty {
                // Apart: grey crosses with their own key entry, no impulse to the score.
                let block = "$f\(index)refused"
                lines.append("\(block) << EOD")
                lines += refused.map { "\(number($0.seconds)) \(number($0.score))" }
                lines.append("EOD")
                plots.append("\(block) using 1:2 with points pt 2 ps 1.5 lc rgb 'gray50' title \(quoted(refusedTitle))")
            }
            if let threshold {
                plots.append("\(number(threshold)) with lines dt 2 lc rgb 'red' title 'threshold in force \(ThresholdSweep.format(threshold))'")
            }
            if let suggested {
                plots.append("\(number(suggested)) with lines dt 3 lw 2 lc rgb 'dark-green' title 'suggested \(ThresholdSweep.format(suggested))'")
            }
            if plots.isEmpty { plots.append("2 notitle") }
            lines.append("plot " + plots.joined(separator: ", "))
        }
        lines.append("unset multiplot")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The key entry of refused candidates.
    static let refusedTitle = "refused: a sound-alike fits better (cannot wake)"

    /// A gnuplot single-quoted string (a quote inside is doubled).
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''").filter { $0 != "\n" && $0 != "\r" } + "'"
    }

    /// A number as gnuplot reads it.
    private static func number(_ value: Double) -> String {
        String(format: "%.4f", value)
    }
}
