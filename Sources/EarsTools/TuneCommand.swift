import EarsCore
import EarsFiles
import EarsPhonetics
import EarsConfig
import EarsEngines

/// `ears tune` options.
package struct TuneOptions: Equatable {
    package var overrides = ConfigOverrides()
    /// Files that hold the phrase: each should wake.
    package var files: [String] = []
    /// `--negative FILE` (repeatable): files that must not wake.
    package var negatives: [String] = []
    /// `--plot PATH`: a PNG of each file's scores over time with the threshold.
    package var plotPath: String?
    /// `--show-text`: also print what the engine heard in each file (for the user's own files).
    package var showText = false
    /// `--json`: JSON lines instead of a table.
    package var json = false
    package init() {}
}

/// `ears tune FILE… [--negative FILE…]`: for each file and phrase, the best
/// score and where, whether it woke at the threshold in force; then a sweep
/// of the deciding threshold (wakes per phrase file, false wakes on the
/// negatives) and the threshold that separates them with the most margin
/// (`ThresholdSweep`).
///
/// It decides exactly as `ears scan` does: the same engines, ear and
/// `WakeJudge`, built by the same factories. Each file goes once through the
/// ear; every piece is handed to one judge per threshold tried (plus the
/// scan's own judge, whose wakes are the row marked as current), so the
/// current row is `scan`'s count by construction. The threshold swept is
/// the one that decides: the verifier's calibrated score when the verifier
/// is on, else the detector's phrase match score; when every phrase has a
/// trained model, the models' threshold (their engine decides at each one
/// over the same embeddings, `NeuralTranscriber.watch`). With both kinds of
/// phrase, the trained ones keep their models' threshold.
///
/// Privacy: numbers only, unless `--show-text`; the plot's data go to
/// gnuplot through a pipe and only the PNG is written.
package enum TuneCommand {
    /// What the sweep moves.
    enum Swept: Equatable {
        /// `[wake] verifier_threshold`: the verifier's calibrated score decides.
        case verifier
        /// `[wake] phrase` thresholds (`--threshold`): the detector's match score decides.
        case phrase
        /// `[wake] trained_threshold` (`--trained-threshold`): every phrase has
        /// a trained model, whose score decides (`NeuralTranscriber.watch`).
        case trained

        /// How to apply `value`: the flag for one run and the ears.conf line
        /// (`phrases` for the per-phrase form of `[wake] phrase`).
        func applyLine(_ value: Double, phrases: [String]) -> String {
            let text = ThresholdSweep.format(value)
            switch self {
            case .verifier:
                return "to use it: --verifier-threshold \(text) for one run, or in ears.conf under [wake]: verifier_threshold = \(text)"
            case .phrase:
                let lines = phrases.map { "phrase = \($0) | \(text)" }.joined(separator: "; ")
                return "to use it: --threshold \(text) for one run, or in ears.conf under [wake]: \(lines)"
            case .trained:
                return "to use it: --trained-threshold \(text) for one run, or in ears.conf under [wake]: trained_threshold = \(text)"
            }
        }
    }

    /// A threshold no score reaches: the observing judge refuses every
    /// verified candidate, so each one is seen with nothing fired before it.
    static let neverThreshold = 2.0

    /// What one file gave: numbers, plus the heard text only with `--show-text`.
    struct FileResult {
        var name: String
        var negative: Bool
        var seconds = 0.0
        var observations: [TuneObservation] = []
        /// Wakes of the scan's own judge (the threshold in force).
        var currentWakes: [WakeEvent] = []
        /// Wakes at each threshold tried.
        var sweepWakes: [Int] = []
        /// The highest score each trained model's head gave (phrase → 0…1).
        var headPeaks: [String: Double] = [:]
        var heard: [String] = []
    }

    /// Runs the tuning; returns the process exit status.
    package static func run(_ options: TuneOptions, config given: EarsConfig, output: @escaping (String) -> Void,
                           errors: @escaping (String) -> Void) -> Int32 {
        // Tune sweeps the heads' thresholds by watching them (`NeuralTranscriber.watch`),
        // which both routes' head agreement also uses: each route is tuned alone.
        var config = given
        config.bothRoutes = false
        let engines: EngineFactory.Engines
        let pronouncer = DetectorFactory.pronouncer(for: config)
        let verifier: (any WakeVerifier)?
        var textEngine: (any Transcriber)?
        do throws(TranscriberError) {
            engines = try EngineFactory.engines(for: config)
            verifier = try EngineFactory.verifier(forAcousticPhrasesOf: config, trained: engines.trained, pronouncer: pronouncer)
            if options.showText && !transcribes(config, engines: engines) {
                var textConfig = config
                textConfig.spotter = .transcript
                textEngine = try EngineFactory.make(for: textConfig)
            }
        } catch {
            errors("ears tune: \(error.sentence)")
            return 1
        }
        let acousticPhrases = EngineFactory.untrained(config, trained: engines.trained).phrases
        let swept: Swept = acousticPhrases.isEmpty ? .trained : verifier != nil ? .verifier : .phrase
        let current: Double? = switch swept {
        case .verifier: config.verifierThreshold
        case .phrase: Set(acousticPhrases.map(\.threshold)).count == 1 ? acousticPhrases[0].threshold : nil
        case .trained:
            config.trainedThreshold ?? (Set(engines.trained?.models.map(\.threshold) ?? []).count == 1
                ? engines.trained?.models.first.map { Double($0.threshold) } : nil)
        }
        let thresholds = ThresholdSweep.thresholds(including: current)
        if swept == .trained { engines.trained?.watch(thresholds: thresholds) }
        let measured = verifier.map(MeasuredVerifier.init)

        var results: [FileResult] = []
        var failures = 0
        let files = options.files.map { ($0, false) } + options.negatives.map { ($0, true) }
        for (file, negative) in files {
            var result = FileResult(name: file, negative: negative)
            do {
                try scanFile(&result, config: config, engines: engines, pronouncer: pronouncer, verifier: verifier,
                             measured: measured, swept: swept, thresholds: thresholds, current: current,
                             keepText: options.showText && textEngine == nil)
                if let textEngine {
                    // The transcript is a second read: a stream has none.
                    if file == PCMStreamSource.standardInput || InputKind(path: file) == .fifo {
                        errors("ears tune: --show-text cannot transcribe \(file): a stream can be read only once; save it to a file first")
                    } else {
                        result.heard = try transcript(of: file, engine: textEngine, config: config)
                    }
                }
            } catch {
                failures += 1
                let sentence = (error as? AudioSourceError)?.sentence ?? (error as? TranscriberError)?.sentence ?? "\(error)"
                errors("ears tune: \(sentence)")
                if options.json { output(JSONValue.object(["event": "error", "file": .string(file), "error": .string(sentence)]).jsonText) }
                engines.main.reset()
                engines.trained?.reset()
                continue
            }
            results.append(result)
        }
        let sweep = ThresholdSweep(thresholds: thresholds, current: current, files: results.map { result in
            ThresholdSweep.File(name: result.name, negative: result.negative, wakes: result.sweepWakes,
                                bestScore: result.observations.filter(\.eligible).map(\.score).max())
        })
        let report = TuneReport(config: config, swept: swept, current: current, trainedPhrases: engines.trained?.models.map(\.phrase) ?? [],
                                results: results, sweep: sweep)
        report.lines(json: options.json).forEach(output)
        if let plotPath = options.plotPath {
            do throws(TunePlot.Failure) {
                let panels = results.map { result in
                    TunePlot.Panel(file: result.name, negative: result.negative, seconds: result.seconds, observations: result.observations,
                                   verdict: Self.verdict(result))
                }
                var suggested: Double?
                if case let .threshold(value, _) = sweep.suggestion { suggested = value }
                try TunePlot.write(panels: panels, phrases: config.phrases.map(\.text), threshold: current, suggested: suggested, to: plotPath)
                if !options.json { output("plot: \(plotPath)") }
            } catch {
                errors("ears tune: \(error.sentence)")
                failures += 1
            }
        }
        return failures == 0 ? 0 : 1
    }

    /// A file's verdict at the threshold in force, for its plot panel:
    /// "woke at 1.30 s (0.93)", or "no wake (best 0.41)" / "no wake".
    static func verdict(_ result: FileResult) -> String {
        if let first = result.currentWakes.first {
            let more = result.currentWakes.count > 1 ? " and \(result.currentWakes.count - 1) more" : ""
            return "woke at \(ThresholdSweep.format(first.audioSeconds)) s (\(ThresholdSweep.format(first.score)))\(more)"
        }
        let best = result.observations.filter(\.eligible).map(\.score).max()
        return best.map { "no wake (best \(ThresholdSweep.format($0)))" } ?? "no wake"
    }

    /// Whether the ear's own engine writes transcripts (so `--show-text` needs no second engine).
    static func transcribes(_ config: EarsConfig, engines: EngineFactory.Engines) -> Bool {
        if case .trained = engines { return false }
        return config.engine == .vosk || config.spotter == .transcript
    }

    /// One file through the ear, as `ears scan` reads it; every piece goes to
    /// the observer, to one judge per threshold and to the scan's own judge.
    /// `keepText`: keep the final pieces' words (`--show-text` on a transcribing engine).
    static func scanFile(_ result: inout FileResult, config: EarsConfig, engines: EngineFactory.Engines,
                         pronouncer: any Pronouncer, verifier: (any WakeVerifier)?, measured: MeasuredVerifier?,
                         swept: Swept, thresholds: [Double], current: Double?, keepText: Bool) throws {
        measured?.forget()
        let observed = TuneObservations()
        // The scan's judge, built as ScanCommand builds it.
        let scanJudge = DetectorFactory.judge(for: config, pronouncer: pronouncer, verifier: verifier)
        let observer = measured.map { measured in
            WakeJudge(detector: DetectorFactory.make(for: config, pronouncer: pronouncer), verifier: measured,
                      threshold: neverThreshold, contestTrained: config.trainedContest) { candidate in
                observed.add(TuneObservation(phrase: candidate.phrase, seconds: candidate.audioSeconds, score: candidate.score,
                                             eligible: !candidate.competitorWins))
            }
        }
        let textDetector = swept == .phrase ? DetectorFactory.make(for: config, pronouncer: pronouncer) : nil
        let judges: [WakeJudge?] = thresholds.map { threshold in
            // The current threshold's row is the scan's own judge.
            if let current, abs(current - threshold) < ThresholdSweep.sameThreshold { return nil }
            switch swept {
            case .verifier:
                return WakeJudge(detector: DetectorFactory.make(for: config, pronouncer: pronouncer), verifier: measured,
                                 threshold: threshold, contestTrained: config.trainedContest)
            case .trained:
                // Fed the pieces of its own watched threshold (below); the
                // verifier only for the sound-alike contest, as in scan.
                return WakeJudge(detector: DetectorFactory.make(for: config, pronouncer: pronouncer), verifier: measured,
                                 threshold: config.verifierThreshold, contestTrained: config.trainedContest)
            case .phrase:
                var moved = config
                for index in moved.phrases.indices { moved.phrases[index].threshold = threshold }
                return WakeJudge(detector: DetectorFactory.make(for: moved, pronouncer: pronouncer), verifier: verifier,
                                 threshold: config.verifierThreshold, contestTrained: config.trainedContest)
            }
        }
        var sweepWakes = Array(repeating: 0, count: thresholds.count)
        let ear = try EngineFactory.ear(for: config, engines: engines)
        let source = ScanCommand.source(for: result.name, errors: { _ in })
        try source.open()
        defer { source.close() }
        try ear.forgetAdaptation()
        try ear.start(atSample: 0)
        _ = engines.trained?.takeMaxScores()
        func consider(_ pieces: [TranscriptPiece]) {
            for piece in pieces {
                if let trainedScore = piece.trainedScore {
                    observed.add(TuneObservation(phrase: piece.text, seconds: piece.endSeconds, score: trainedScore, eligible: true))
                } else if let textDetector {
                    for (phrase, score) in zip(textDetector.phrases, textDetector.phraseScores(piece, recent: ear.recentPieces)) where score > 0 {
                        observed.add(TuneObservation(phrase: phrase.text, seconds: piece.endSeconds, score: score, eligible: true))
                    }
                }
                if keepText, piece.kind == .final, piece.trainedScore == nil, piece.spotScore == nil {
                    result.heard.append(piece.text)
                }
                _ = observer?.consider(piece, ear: ear)
                if swept != .trained {
                    for (index, judge) in judges.enumerated() where judge?.consider(piece, ear: ear) != nil { sweepWakes[index] += 1 }
                }
                if let wake = scanJudge.consider(piece, ear: ear) { result.currentWakes.append(wake) }
            }
            // Trained-only: each threshold's judge hears its own spotter's
            // pieces (the same embeddings decided at that threshold).
            guard swept == .trained, let trained = engines.trained else { return }
            for (index, pieces) in trained.takeWatchedPieces().enumerated() {
                for piece in pieces {
                    if index == 0, let score = piece.trainedScore {
                        observed.add(TuneObservation(phrase: piece.text, seconds: piece.endSeconds, score: score, eligible: true))
                    }
                    if judges[index]?.consider(piece, ear: ear) != nil { sweepWakes[index] += 1 }
                }
            }
        }
        while let chunk = try source.read() {
            result.seconds += AudioFormat.seconds(ofSamples: Int64(chunk.samples.count))
            consider(try ear.take(chunk))
        }
        consider(try ear.finish())
        for (index, judge) in judges.enumerated() where judge == nil { sweepWakes[index] = result.currentWakes.count }
        result.sweepWakes = sweepWakes
        result.observations = observed.all
        if let trained = engines.trained {
            for (model, peak) in zip(trained.models, trained.takeMaxScores()) { result.headPeaks[model.phrase] = Double(peak) }
        }
    }

    /// What a transcriber hears in `file` (final pieces, in order): `--show-text` only.
    static func transcript(of file: String, engine: any Transcriber, config: EarsConfig) throws -> [String] {
        let ear = try EngineFactory.ear(for: config, transcriber: engine)
        let source = ScanCommand.source(for: file, errors: { _ in })
        try source.open()
        defer { source.close() }
        try ear.forgetAdaptation()
        try ear.start(atSample: 0)
        var heard: [String] = []
        while let chunk = try source.read() {
            heard += try ear.take(chunk).filter { $0.kind == .final }.map(\.text)
        }
        heard += try ear.finish().filter { $0.kind == .final }.map(\.text)
        return heard
    }
}

/// One score seen in a file: numbers and the configured phrase, never words heard.
struct TuneObservation: Equatable {
    /// The configured phrase scored.
    var phrase: String
    /// Audio time of the candidate's end, seconds into the file.
    var seconds: Double
    /// The deciding score, 0…1.
    var score: Double
    /// False when a sound-alike explained the window better (it cannot wake at any threshold).
    var eligible: Bool
}

/// Observations collected by the observing judge's callback (audio thread only).
final class TuneObservations {
    private(set) var all: [TuneObservation] = []
    func add(_ observation: TuneObservation) { all.append(observation) }
}

/// A verifier that measures each window once, in full, and answers every
/// judge of a file from that measurement. Complete evidence decides on the
/// same side of any threshold as the early-stopped evidence `scan` uses
/// (`VerifierCalibration.decides` stops only when the transcript cannot
/// change the decision, and `highestScore` with the phone match only when
/// nothing after it can), so each judge still decides as `scan` would.
final class MeasuredVerifier: WakeVerifier {
    private struct Key: Hashable {
        var phrase: String
        var audio: [Int16]
    }

    private let inner: any WakeVerifier
    private var measured: [Key: VerifierEvidence?] = [:]

    init(_ inner: any WakeVerifier) { self.inner = inner }

    func measure(phrase: String, audio: [Int16], hopeless: ((Double) -> Bool)?,
                 decided: ((VerifierEvidence) -> Bool)?) -> VerifierEvidence? {
        let key = Key(phrase: phrase, audio: audio)
        if let evidence = measured[key] { return evidence }
        let evidence = inner.measure(phrase: phrase, audio: audio, hopeless: nil, decided: nil)
        measured[key] = evidence
        return evidence
    }

    /// Drops the measurements (a new file: its windows are other audio).
    func forget() { measured.removeAll() }
}
