import EarsCore
import EarsPhonetics
import EarsConfig
import EarsEngines

/// The acoustic route as `ears listen` runs it for one phrase (no trained
/// model: PocketSphinx's spotter and verifier for English, Vosk for
/// Korean, with the configured gate and suppressor), run over one held-out
/// call at a time: what `ears train` compares a new model with
/// (`RouteComparison`), so a model that would hear fewer calls than the
/// route it replaces is kept aside.
struct AcousticCheck {
    /// A call counts as heard when a wake comes this long before its phrase ends or later…
    static let earlySeconds = 0.5
    /// …and no later than this after it (the benchmark's window).
    static let lateSeconds = 2.0

    private let config: EarsConfig
    private let engines: EngineFactory.Engines
    private let verifier: (any WakeVerifier)?
    private let pronouncer: any Pronouncer

    /// The route for `phrase` in `language` under `config` (its engine
    /// settings; the phrase list and trained models replaced). Throws when
    /// the engine cannot load: training then goes on without the comparison.
    init(phrase: String, language: String, config base: EarsConfig) throws(TranscriberError) {
        var config = base
        config.phrases = [WakePhrase(text: phrase)]
        config.trainedModels = false
        config.engine = language == "ko" ? .vosk : .pocketsphinx
        self.config = config
        pronouncer = DetectorFactory.pronouncer(for: config)
        engines = try EngineFactory.engines(for: config)
        verifier = try EngineFactory.verifier(forAcousticPhrasesOf: config, trained: nil, pronouncer: pronouncer)
    }

    /// Whether the route wakes on `samples` (a fresh stream, as a file in
    /// `ears scan`) around `speechEndSample`. An engine error counts as missed.
    func hears(_ samples: [Int16], speechEndSample: Int) -> Bool {
        let end = Double(speechEndSample) / Double(AudioFormat.sampleRate)
        let judge = DetectorFactory.judge(for: config, pronouncer: pronouncer, verifier: verifier)
        var wakes: [WakeEvent] = []
        do throws(TranscriberError) {
            let ear = try EngineFactory.ear(for: config, engines: engines)
            try ear.forgetAdaptation()
            try ear.start(atSample: 0)
            var start = 0
            while start < samples.count {
                let stop = min(start + AudioFormat.chunkSamples, samples.count)
                for piece in try ear.take(AudioChunk(samples: Array(samples[start..<stop]), startSample: Int64(start))) {
                    if let wake = judge.consider(piece, ear: ear) { wakes.append(wake) }
                }
                start = stop
            }
            for piece in try ear.finish() {
                if let wake = judge.consider(piece, ear: ear) { wakes.append(wake) }
            }
        } catch {
            engines.main.reset()
            return false
        }
        return wakes.contains { $0.audioSeconds >= end - Self.earlySeconds && $0.audioSeconds <= end + Self.lateSeconds }
    }
}
