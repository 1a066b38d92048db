import EarsCore
import Foundation
import Synchronization
import EarsPhonetics
import EarsConfig
import EarsNeural
import EarsEngines

/// What the loader built, handed whole to the ear's thread.
///
/// @unchecked: the engines and the judge are single-thread objects; the
/// loader gives them up when it hands this over and never touches them
/// again, so only one thread uses them at a time.
final class LoadedEngine: @unchecked Sendable {
    /// The new ear (engine, gate, suppressor), or nil when only the judge changed.
    let ear: Ear?
    /// The judge for the configuration it was built from.
    let judge: WakeJudge

    init(ear: Ear?, judge: WakeJudge) {
        self.ear = ear
        self.judge = judge
    }
}

/// The loader's thread: builds engines, ears, verifiers and judges off the
/// audio owner's thread, so a slow load (a big model, thousands of phrases)
/// never stops the microphone; the old engine keeps decoding until the ear's
/// thread swaps the new one in between two chunks (`EarWorker.install`).
///
/// Requests coalesce: while one load runs, any number of requests become one
/// more load, of the configuration in force when it starts. Nothing ever
/// waits for this thread: a load stuck in C code holds up neither the audio
/// owner nor the daemon's exit.
final class EngineLoader: @unchecked Sendable {
    // @unchecked: `wanted` is touched only under `condition`; `trained` only
    // on the loader's thread; `signature` is a Mutex.
    /// What a request asks for; a bigger one includes a smaller one.
    enum Kind: Int, Sendable, Comparable {
        /// The judge only (phrases, thresholds or the verifier's settings changed).
        case judge
        /// Everything: engines, ear, verifier, judge.
        case engine

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let shared: ListenShared
    private let worker: EarWorker
    private let publisher: StatusPublisher
    private let log: EarsLog
    private let pronouncer: any Pronouncer
    private let delays: DebugDelays
    private let condition = NSCondition()
    private var wanted: Kind?
    /// The trained models' engine of the last load (the verifier's competition needs it).
    private var trained: NeuralTranscriber?
    private let signature = Mutex<[String]>([])

    init(shared: ListenShared, worker: EarWorker, publisher: StatusPublisher, log: EarsLog,
         pronouncer: any Pronouncer, delays: DebugDelays) {
        self.shared = shared
        self.worker = worker
        self.publisher = publisher
        self.log = log
        self.pronouncer = pronouncer
        self.delays = delays
    }

    /// What identified the trained model files at the last engine load (`TrainedModels.signature`).
    var modelSignature: [String] { signature.withLock { $0 } }

    /// Asks for a load; returns at once.
    func request(_ kind: Kind) {
        condition.lock()
        wanted = max(wanted ?? kind, kind)
        condition.signal()
        condition.unlock()
    }

    /// Starts the loader's thread (`ears-loader`). It is never joined.
    func start() {
        let thread = Thread { [self] in self.run() }
        thread.name = "ears-loader"
        thread.start()
    }

    /// Wakes the thread so it sees `stopping` (if it is waiting, not loading).
    func wakeForStop() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while !shared.isStopping {
            condition.lock()
            while wanted == nil && !shared.isStopping {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.5))
                // Between loads, the idle sweep (outside the lock: a
                // request never waits for it): a verifier's transcript
                // search goes after minutes unused (docs/operations.md).
                condition.unlock()
                EngineFactory.releaseIdleVerifierMemory()
                condition.lock()
            }
            let kind = wanted
            wanted = nil
            condition.unlock()
            guard let kind, !shared.isStopping else { continue }
            switch kind {
            case .engine: loadEngine()
            case .judge: loadJudge()
            }
        }
    }

    /// Loads everything for the configuration in force and hands it over.
    private func loadEngine() {
        let config = shared.currentConfig
        DebugDelays.sleep(delays.loadSeconds)
        let started = ProcessClock.monotonicSeconds()
        do throws(TranscriberError) {
            let modelSignature = TrainedModels.signature(for: config)
            let engines = try EngineFactory.engines(for: config)
            let enginesLoaded = ProcessClock.monotonicSeconds()
            let ear = try EngineFactory.ear(for: config, engines: engines)
            trained = engines.trained
            let earBuilt = ProcessClock.monotonicSeconds()
            let verifier = try loadVerifier(config)
            let seconds = { (from: Double, to: Double) in JSONText.number(to - from, places: 3) }
            let done = ProcessClock.monotonicSeconds()
            log.debug("engine load took \(seconds(started, done)) s: engines \(seconds(started, enginesLoaded)) s, ear \(seconds(enginesLoaded, earBuilt)) s, verifier \(seconds(earBuilt, done)) s")
            let judge = makeJudge(config, verifier: verifier)
            guard !shared.isStopping else { return }
            signature.withLock { $0 = modelSignature }
            worker.install(LoadedEngine(ear: ear, judge: judge))
            shared.engine.withLock { $0 = .ready }
            publisher.engine(name: ear.transcriber.engineName, model: ear.transcriber.modelName)
            log.info("engine \(ear.transcriber.engineName) loaded (model \(ear.transcriber.modelName))\(note(ear, verifierOn: verifier != nil))")
        } catch {
            log.debug("engine load failed after \(JSONText.number(ProcessClock.monotonicSeconds() - started, places: 3)) s")
            shared.engine.withLock { $0 = .failed(error.sentence) }
        }
    }

    /// A new judge (and verifier) for the phrases in force, around the engine in force.
    private func loadJudge() {
        let config = shared.currentConfig
        var verifier: (any WakeVerifier)?
        do throws(TranscriberError) {
            verifier = try loadVerifier(config)
        } catch {
            log.warning("the verifier could not load, candidates wake unverified: \(error.sentence)")
        }
        guard !shared.isStopping else { return }
        worker.install(LoadedEngine(ear: nil, judge: makeJudge(config, verifier: verifier)))
    }

    /// The verifier for the phrases it judges (`EngineFactory.verified`).
    private func loadVerifier(_ config: EarsConfig) throws(TranscriberError) -> (any WakeVerifier)? {
        try EngineFactory.verifier(forAcousticPhrasesOf: config, trained: trained, pronouncer: pronouncer)
    }

    private func makeJudge(_ config: EarsConfig, verifier: (any WakeVerifier)?) -> WakeJudge {
        DetectorFactory.judge(for: config, pronouncer: pronouncer, verifier: verifier)
    }

    /// What sits in front of and behind the engine, for the load line (configuration only).
    private func note(_ ear: Ear, verifierOn: Bool) -> String {
        var parts: [String] = []
        if let suppressor = ear.suppressor { parts.append("noise suppression \(suppressor.label)") }
        if verifierOn { parts.append("verifier on") }
        if let trained {
            parts.append("trained models for " + trained.models.map { "\"\($0.phrase)\"" }.joined(separator: ", "))
        }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }
}
