import Testing
@testable import EarsTools

/// What `ears tune --plot` hands gnuplot (the script with its data inline):
/// the picture shows what the table says.
@Suite struct TunePlotTests {
    private let panels = [
        TunePlot.Panel(file: "/tmp/call.wav", negative: false, seconds: 3,
                       observations: [TuneObservation(phrase: "hey cordelia", seconds: 1.3, score: 0.93, eligible: true)],
                       verdict: "woke at 1.30 s (0.93)"),
        TunePlot.Panel(file: "/tmp/cornelia.wav", negative: true, seconds: 3,
                       observations: [TuneObservation(phrase: "hey cordelia", seconds: 1.4, score: 0.98, eligible: false)],
                       verdict: "no wake"),
        TunePlot.Panel(file: "/tmp/quiet.wav", negative: true, seconds: 3, observations: [], verdict: "no wake"),
    ]

    @Test("a refused candidate is drawn apart with its own key entry, never as an impulse of the phrase")
    func refusedCandidatesApart() {
        let script = TunePlot.script(panels: panels, phrases: ["hey cordelia"], threshold: 0.62, suggested: 0.7)
        #expect(script.contains("$f1refused << EOD\n1.4000 0.9800\nEOD"), "\(script)")
        #expect(!script.contains("$f1p0"), "the refused 0.98 is not in the phrase's impulses: \(script)")
        #expect(script.contains("title '\(TunePlot.refusedTitle)'"))
        #expect(script.contains("$f0p0 << EOD\n1.3000 0.9300\nEOD"))
    }

    @Test("each panel is titled with its file and verdict, an empty one says why, and both thresholds are drawn")
    func verdictsAndThresholds() {
        let script = TunePlot.script(panels: panels, phrases: ["hey cordelia"], threshold: 0.62, suggested: 0.7)
        #expect(script.contains("set title 'call.wav: woke at 1.30 s (0.93)'"))
        #expect(script.contains("set title 'cornelia.wav (negative): no wake'"))
        #expect(script.contains("no candidate in this file"))
        #expect(script.contains("title 'threshold in force 0.62'") && script.contains("title 'suggested 0.70'"))
    }

    @Test("the suggestion names the flag and the ears.conf line that apply it")
    func applyLine() {
        #expect(TuneCommand.Swept.verifier.applyLine(0.7, phrases: ["hey cordelia"])
                == "to use it: --verifier-threshold 0.70 for one run, or in ears.conf under [wake]: verifier_threshold = 0.70")
        #expect(TuneCommand.Swept.phrase.applyLine(0.55, phrases: ["hey cordelia"]).contains("phrase = hey cordelia | 0.55"))
        #expect(TuneCommand.Swept.trained.applyLine(0.9, phrases: []).contains("--trained-threshold 0.90"))
    }
}
