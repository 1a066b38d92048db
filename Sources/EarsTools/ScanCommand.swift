import EarsCore
import EarsFiles
import EarsPhonetics
import EarsConfig
import EarsEngines

/// `ears scan FILE...`: the listening ear over files, as fast as the CPU allows.
///
/// `-` reads standard input and a FIFO is read as a stream (WAV, as
/// `arecord` writes it, or raw S16_LE 16 kHz mono), so
/// `arecord -f S16_LE -r 16000 -c 1 | ears scan -` works.
///
/// Output with `--json` (stable; benchmarks and tuning depend on it): one line
/// per wake, `{"event":"wake","file":F,"phrase":P,"t":T,"score":S}` with `t`
/// the seconds of audio into the file at the wake, then one summary line
/// `{"event":"summary","audio_s":A,"cpu_s":C,"wakes":N,"load_s":L,"chunks":K,"fed":F,"near_misses":M}`
/// (`cpu_s` counts from after the engine loaded; `load_s` is the load's wall
/// time; `chunks` and `fed` are the ears' meters summed over files). A wake
/// line also says which `piece` it fired on (`volatile` or `final`) and which
/// `route` heard it (`acoustic` or `trained`; plain output says "acoustic
/// route" or "trained model" beside the score). A file
/// that woke nothing gets one line `{"event":"no_wake","file":F,"refused":N,"near_misses":M}`
/// (`FILE: no wake` without `--json`). The
/// summary also counts `refused` (candidates the verifier turned down) and
/// says what was in front of and behind the engine (`noise_suppression`:
/// `speexdsp -15 dB` or `off`; `verifier`: true or false). With
/// `--candidates`, every candidate the verifier judged is one line
/// `{"event":"candidate","file":F,"phrase":P,"t":T,"score":S,"competitor_wins":B,"accepted":B,"route":R,<features>}`
/// (numbers only; route `acoustic`: the verifier's features, which
/// `bench/fit_verifier.py` fits the verifier on; route `trained`: a trained
/// head's candidate with the fusion's features, which `bench/fit_fusion.py`
/// fits the fusion on). A file that cannot
/// be read is reported on stderr (and as `{"event":"error",...}`) and the
/// others still run; the exit status is then 1. When no file could be read
/// there is no summary: the errors are all there is to say.
///
/// The engine is loaded once for all files, and each file starts from the
/// state it loaded in (`Transcriber.forgetAdaptation`): a file gets the same
/// wakes, at the same times and scores, alone or after any other files, in
/// any order (ScanOrderTests). Unlike `ears listen`, which keeps what the
/// engine adapted to its one microphone, nothing learned on one file carries
/// into the next.
package enum ScanCommand {
    /// Runs the scan; returns the process exit status. `log` takes the
    /// `--verbose` debug lines (load timings, per-file counts; never text heard).
    package static func run(_ options: ScanOptions, config: EarsConfig, output: @escaping (String) -> Void,
                           errors: @escaping (String) -> Void, log: EarsLog = .silent) -> Int32 {
        let engines: EngineFactory.Engines
        let loadStarted = ProcessClock.monotonicSeconds()
        do throws(TranscriberError) {
            engines = try EngineFactory.engines(for: config)
        } catch {
            errors("ears scan: \(error.sentence)")
            return 1
        }
        let pronouncer = DetectorFactory.pronouncer(for: config)
        let verifier: (any WakeVerifier)?
        do throws(TranscriberError) {
            // Recording candidates measures the trained phrases' too (what
            // bench/fit_fusion.py fits the fusion on), as the fusion would.
            verifier = try EngineFactory.verifier(forAcousticPhrasesOf: config, trained: options.candidates ? nil : engines.trained,
                                                  pronouncer: pronouncer)
        } catch {
            errors("ears scan: \(error.sentence)")
            return 1
        }
        let loadSeconds = ProcessClock.monotonicSeconds() - loadStarted
        log.debug("engine \(engines.main.engineName) loaded (model \(engines.main.modelName)) with the verifier \(verifier == nil ? "off" : "on") in \(JSONText.number(loadSeconds, places: 3)) s")
        let cpuAtStart = ProcessClock.cpuSeconds()
        var audioSeconds = 0.0
        var chunks = 0
        var fed = 0
        var nearMisses = 0
        var wakes = 0
        var refused = 0
        var failures = 0
        for file in options.files {
            let source = Self.source(for: file, errors: errors)
            let judge = DetectorFactory.judge(for: config, pronouncer: pronouncer, verifier: verifier,
                                              onCandidate: options.candidates ? { candidate in output(candidateLine(candidate, file: file)) } : nil)
            var fileWakes: [WakeEvent] = []
            do {
                let ear = try EngineFactory.ear(for: config, engines: engines)
                defer {
                    chunks += ear.meter.chunks
                    fed += ear.meter.fed
                }
                try source.open()
                defer { source.close() }
                // Each file from the engine's state as loaded: what it adapted
                // to in the file before must not change this file's result.
                try ear.forgetAdaptation()
                try ear.start(atSample: 0)
                while let chunk = try source.read() {
                    audioSeconds += AudioFormat.seconds(ofSamples: Int64(chunk.samples.count))
                    for piece in try ear.take(chunk) {
                        if let wake = judge.consider(piece, ear: ear) { fileWakes.append(wake) }
                    }
                    fileWakes += judge.takeAgreedWakes(ear: ear)
                }
                for piece in try ear.finish() {
                    if let wake = judge.consider(piece, ear: ear) { fileWakes.append(wake) }
                }
                fileWakes += judge.finishAgreedWakes(ear: ear)
            } catch {
                failures += 1
                let sentence = (error as? AudioSourceError)?.sentence ?? (error as? TranscriberError)?.sentence ?? "\(error)"
                errors("ears scan: \(sentence)")
                if options.json {
                    output(JSONText.object([("event", JSONText.string("error")), ("file", JSONText.string(file)),
                                            ("error", JSONText.string(sentence))]))
                }
                engines.main.reset()
                engines.trained?.reset()
                continue
            }
            wakes += fileWakes.count
            log.debug("\(file): \(fileWakes.count) wake(s), \(judge.nearMisses) near miss(es), \(judge.refused) refused by the verifier or the phrase's model")
            nearMisses += judge.nearMisses
            refused += judge.refused
            if fileWakes.isEmpty {
                // A file that did not wake says so, instead of vanishing
                // from the output (how far it got: ears tune).
                output(noWakeLine(file: file, refused: judge.refused, nearMisses: judge.nearMisses, json: options.json))
            }
            for wake in fileWakes {
                if options.json {
                    output(JSONText.object([
                        ("event", JSONText.string("wake")), ("file", JSONText.string(file)),
                        ("phrase", JSONText.string(wake.phrase)), ("t", JSONText.number(wake.audioSeconds, places: 2)),
                        ("score", JSONText.number(wake.score, places: 3)),
                        ("piece", JSONText.string(wake.pieceKind.rawValue)),
                        ("route", JSONText.string(wake.route.rawValue)),
                    ]))
                } else {
                    output("\(file): wake \"\(wake.phrase)\" at \(JSONText.number(wake.audioSeconds, places: 2)) s "
                        + "(\(wake.route.words), score \(JSONText.number(wake.score, places: 3)))")
                }
            }
        }
        let cpuSeconds = ProcessClock.cpuSeconds() - cpuAtStart
        // A scan that read nothing (every file failed) has only its errors to say.
        if failures == options.files.count { return 1 }
        if options.json {
            output(JSONText.object([
                ("event", JSONText.string("summary")), ("audio_s", JSONText.number(audioSeconds, places: 2)),
                ("cpu_s", JSONText.number(cpuSeconds, places: 3)), ("wakes", String(wakes)),
                ("load_s", JSONText.number(loadSeconds, places: 3)),
                ("chunks", String(chunks)), ("fed", String(fed)), ("near_misses", String(nearMisses)),
                ("refused", String(refused)),
                ("noise_suppression", JSONText.string(config.noiseSuppression ? "speexdsp \(config.noiseSuppressionDecibels) dB" : "off")),
                ("verifier", verifier == nil ? "false" : "true"),
                ("trained", "[" + (engines.trained?.models ?? []).map { JSONText.string($0.phrase) }.joined(separator: ",") + "]"),
            ]))
        } else {
            output("scanned \(JSONText.number(audioSeconds, places: 1)) s of audio in \(JSONText.number(cpuSeconds, places: 2)) CPU s: \(wakes) wake(s)")
        }
        return failures == 0 ? 0 : 1
    }

    /// The source for one operand: `-` is standard input and a FIFO is read
    /// as a stream (`PCMStreamSource`: WAV or raw S16_LE 16 kHz mono), after
    /// saying on stderr what the scan waits for; anything else is a sound file.
    static func source(for file: String, errors: (String) -> Void) -> any AudioSource {
        if file == PCMStreamSource.standardInput { return PCMStreamSource(path: file) }
        switch InputKind(path: file) {
        case .fifo:
            errors("ears scan: waiting for a writer on the FIFO \(file) (WAV or raw S16_LE 16 kHz mono, e.g. `arecord -f S16_LE -r 16000 -c 1 > \(file)`)")
            return PCMStreamSource(path: file)
        case .regular, .missing, .other:
            return SoundFileSource(path: file, pacedAtRealTime: false)
        }
    }

    /// The line for a file that woke nothing: `FILE: no wake (…)` with the
    /// candidates the verifier refused and the near misses, or with `--json`
    /// `{"event":"no_wake","file":F,"refused":N,"near_misses":M}`.
    static func noWakeLine(file: String, refused: Int, nearMisses: Int, json: Bool) -> String {
        if json {
            return JSONText.object([("event", JSONText.string("no_wake")), ("file", JSONText.string(file)),
                                    ("refused", String(refused)), ("near_misses", String(nearMisses))])
        }
        var why: [String] = []
        if refused > 0 { why.append("\(refused) candidate\(refused == 1 ? "" : "s") refused by the verifier or the phrase's model") }
        if nearMisses > 0 { why.append("\(nearMisses) near miss\(nearMisses == 1 ? "" : "es")") }
        return "\(file): no wake" + (why.isEmpty ? "" : " (\(why.joined(separator: ", ")); ears tune shows the scores)")
    }

    /// One `--candidates` line: what the verifier measured, numbers only.
    static func candidateLine(_ candidate: WakeJudge.Candidate, file: String) -> String {
        var fields: [(String, String)] = [
            ("event", JSONText.string("candidate")), ("file", JSONText.string(file)),
            ("phrase", JSONText.string(candidate.phrase)), ("t", JSONText.number(candidate.audioSeconds, places: 2)),
            ("score", JSONText.number(candidate.score, places: 4)),
            ("competitor_wins", candidate.competitorWins ? "true" : "false"),
            ("accepted", candidate.accepted ? "true" : "false"),
            ("route", JSONText.string(candidate.trained ? "trained" : "acoustic")),
        ]
        let names = candidate.trained ? FusionCalibration.featureNames : VerifierCalibration.featureNames
        for (name, value) in zip(names, candidate.features) {
            fields.append((name, JSONText.number(value, places: 6)))
        }
        let evidence = candidate.evidence
        let finite = { (value: Double) in value.isFinite ? JSONText.number(value, places: 2) : "null" }
        fields += [("frames", String(evidence.frames)), ("phrase_score", finite(evidence.phraseScore)),
                   ("loop_score", finite(evidence.loopScore)),
                   ("competitor_score", evidence.competitorScore.map(finite) ?? "null"),
                   ("phrase_s", JSONText.number(evidence.phraseSeconds, places: 2))]
        return JSONText.object(fields)
    }
}
