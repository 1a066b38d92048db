import EarsCore
import EarsFiles
import EarsWyoming
import Synchronization
import EarsPhonetics
import EarsConfig
import EarsEngines

/// One remote Wyoming stream's own ear: the configured engines (trained
/// models too), a gate and noise suppressor as configured, a `WakeJudge`
/// with its verifier, and a `PCMFormatConverter` from the client's format
/// to 16 kHz S16 mono — built like `ears scan` builds one for a file.
///
/// It shares nothing with the microphone's ear: not the engine, not the
/// ring, not the captures or `on_wake`. What it hears stays in its memory
/// and goes with it when the connection ends.
///
/// Used from one thread at a time: a connection's, or the pool's lock
/// while it is handed from one connection to the next.
final class RemoteWakeEar: RemoteWakeListener, @unchecked Sendable {
    // @unchecked: the engines are single-thread objects; a connection owns
    // the ear until it hands it to `RemoteWakeEarPool`, which gives it whole
    // to the next connection.
    /// The configuration it was built for.
    let config: EarsConfig
    /// The trained model files it loaded (`TrainedModels.signature`).
    let modelSignature: [String]
    private let engines: EngineFactory.Engines
    private let verifier: (any WakeVerifier)?
    private let pronouncer: any Pronouncer
    private var ear: Ear
    private var judge: WakeJudge
    private var converter: PCMFormatConverter?
    private var format: RemoteAudioFormat?
    /// 16 kHz samples waiting to fill a whole 100 ms chunk, as the
    /// microphone path feeds the ear.
    private var pending: [Int16] = []
    /// Audio time of the next chunk, in 16 kHz samples since `begin`.
    private var nextSample: Int64 = 0
    /// Between `begin` and `finish`: the engines hold a stream.
    private var streamOpen = false

    /// Loads the engines and verifier for `config`.
    ///
    /// - Throws: `RemoteWakeError` with the engine's sentence (a missing
    ///   model says which and how to install it).
    init(config: EarsConfig) throws(RemoteWakeError) {
        self.config = config
        modelSignature = TrainedModels.signature(for: config)
        pronouncer = DetectorFactory.pronouncer(for: config)
        do throws(TranscriberError) {
            engines = try EngineFactory.engines(for: config)
            verifier = try EngineFactory.verifier(forAcousticPhrasesOf: config, trained: engines.trained, pronouncer: pronouncer)
            ear = try EngineFactory.ear(for: config, engines: engines)
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        judge = DetectorFactory.judge(for: config, pronouncer: pronouncer, verifier: verifier)
    }

    func begin(_ format: RemoteAudioFormat) throws(RemoteWakeError) {
        // A stream left open (its client hung up mid-stream, or a second
        // audio-start) is dropped, not finished: its words are not wanted.
        if streamOpen { ear.resetEngines() }
        streamOpen = true
        do throws(TranscriberError) {
            // A stream after another on the same connection hears from the
            // engine's state as loaded, as a file does in `ears scan`.
            try ear.forgetAdaptation()
            try ear.start(atSample: 0)
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        judge = DetectorFactory.judge(for: config, pronouncer: pronouncer, verifier: verifier)
        pending = []
        nextSample = 0
        self.format = nil
        converter = nil
        try useFormat(format)
    }

    func feed(_ payload: [UInt8], format: RemoteAudioFormat) throws(RemoteWakeError) -> [RemoteWake] {
        try useFormat(format)
        guard let converter else { return [] }
        do throws(ConversionError) {
            pending += try converter.convert(payload)
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        return try hearWholeChunks()
    }

    func finish() throws(RemoteWakeError) -> [RemoteWake] {
        do throws(ConversionError) {
            if let converter { pending += try converter.finish() }
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        converter = nil
        format = nil
        streamOpen = false
        var wakes = try hearWholeChunks()
        do throws(TranscriberError) {
            if !pending.isEmpty {
                wakes += judged(try ear.take(AudioChunk(samples: pending, startSample: nextSample)))
                nextSample += Int64(pending.count)
                pending = []
            }
            wakes += judged(try ear.finish())
            wakes += judge.finishAgreedWakes(ear: ear).map { RemoteWake(phrase: $0.phrase, audioSeconds: $0.audioSeconds) }
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        return wakes
    }

    /// Switches the conversion to `newFormat` if it differs (flushing the
    /// old converter's tail into the stream first).
    private func useFormat(_ newFormat: RemoteAudioFormat) throws(RemoteWakeError) {
        guard newFormat != format else { return }
        do throws(ConversionError) {
            if let converter { pending += try converter.finish() }
            converter = try PCMFormatConverter(sampleRate: newFormat.sampleRate, sampleWidth: newFormat.sampleWidth,
                                               channels: newFormat.channels)
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        format = newFormat
    }

    /// Feeds every whole 100 ms chunk waiting and returns the wakes.
    private func hearWholeChunks() throws(RemoteWakeError) -> [RemoteWake] {
        var wakes: [RemoteWake] = []
        var used = 0
        do throws(TranscriberError) {
            while pending.count - used >= AudioFormat.chunkSamples {
                let chunk = AudioChunk(samples: Array(pending[used..<(used + AudioFormat.chunkSamples)]), startSample: nextSample)
                used += AudioFormat.chunkSamples
                nextSample += Int64(AudioFormat.chunkSamples)
                wakes += judged(try ear.take(chunk))
            }
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        pending.removeFirst(used)
        return wakes
    }

    private func judged(_ pieces: [TranscriptPiece]) -> [RemoteWake] {
        let wakes = pieces.compactMap { piece in judge.consider(piece, ear: ear) } + judge.takeAgreedWakes(ear: ear)
        return wakes.map { RemoteWake(phrase: $0.phrase, audioSeconds: $0.audioSeconds) }
    }
}

/// Ears of closed connections kept for the next ones, so a new connection
/// (Home Assistant opens one per pipeline run) does not wait 1.5 s for an
/// engine to load. An ear is given out only for the configuration and
/// trained model files it was built for; after a reload, old ones are
/// dropped as they come up. At most `capacity` are kept: as many as can be
/// in use at once, whose memory the process holds at that peak anyway.
final class RemoteWakeEarPool: Sendable {
    /// Ears kept for reconnecting clients, at most (issue 21's memory budget):
    /// a satellite's pipelines come one after another, so two cover a
    /// reconnect and one overlap; each kept ear holds its own spotter (the
    /// verifier and the front end's sessions are shared, `SharedVerifier`,
    /// `OpenWakeWordEmbedder.Models`), and more would hold memory for
    /// streams that have gone.
    static let keptEarsLimit = 2

    private let idle = Mutex<[RemoteWakeEar]>([])
    private let capacity: Int
    private let current: @Sendable () -> EarsConfig

    /// A pool of at most `capacity` ears for the configuration `current()` returns.
    init(capacity: Int, current: @escaping @Sendable () -> EarsConfig) {
        self.capacity = capacity
        self.current = current
    }

    /// A kept ear for the configuration in force, else a new one.
    func take() throws(RemoteWakeError) -> RemoteWakeEar {
        let config = current()
        let signature = TrainedModels.signature(for: config)
        let kept = idle.withLock { ears -> RemoteWakeEar? in
            ears.removeAll { $0.config != config || $0.modelSignature != signature }
            return ears.popLast()
        }
        if let kept { return kept }
        return try RemoteWakeEar(config: config)
    }

    /// Keeps `listener` for a later connection, if it is one of these ears
    /// and there is room.
    func give(_ listener: any RemoteWakeListener) {
        guard let ear = listener as? RemoteWakeEar else { return }
        idle.withLock { ears in
            if ears.count < capacity { ears.append(ear) }
        }
    }

    /// Ears kept now.
    var idleCount: Int { idle.withLock { $0.count } }
}
