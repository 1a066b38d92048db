import EarsCore
import EarsFiles
import EarsWyoming

/// One remote Wyoming stream's own ear: the configured engines (trained
/// models too), a gate and noise suppressor as configured, a `WakeJudge`
/// with its verifier, and a `PCMFormatConverter` from the client's format
/// to 16 kHz S16 mono — built like `ears scan` builds one for a file.
///
/// It shares nothing with the microphone's ear: not the engine, not the
/// ring, not the captures or `on_wake`. What it hears stays in its memory
/// and goes with it when the connection ends.
///
/// Used from the connection's thread only.
final class RemoteWakeEar: RemoteWakeListener {
    private let config: EarsConfig
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

    /// Loads the engines and verifier for `config`.
    ///
    /// - Throws: `RemoteWakeError` with the engine's sentence (a missing
    ///   model says which and how to install it).
    init(config: EarsConfig) throws(RemoteWakeError) {
        self.config = config
        pronouncer = DetectorFactory.pronouncer(for: config)
        do throws(TranscriberError) {
            engines = try EngineFactory.engines(for: config)
            let acoustic = EngineFactory.verified(config, trained: engines.trained)
            verifier = try EngineFactory.verifier(for: acoustic,
                                                  soundAlikes: DetectorFactory.soundAlikes(for: acoustic, pronouncer: pronouncer),
                                                  pronouncer: pronouncer)
            ear = try EngineFactory.ear(for: config, engines: engines)
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        judge = Self.judge(config, pronouncer: pronouncer, verifier: verifier)
    }

    /// A factory for the service: each call builds a new ear for the
    /// configuration `current()` returns then.
    static func factory(_ current: @escaping @Sendable () -> EarsConfig) -> WyomingWakeService.ListenerFactory {
        { () throws(RemoteWakeError) -> any RemoteWakeListener in try RemoteWakeEar(config: current()) }
    }

    func begin(_ format: RemoteAudioFormat) throws(RemoteWakeError) {
        do throws(TranscriberError) {
            // A stream after another on the same connection hears from the
            // engine's state as loaded, as a file does in `ears scan`.
            try ear.forgetAdaptation()
            try ear.start(atSample: 0)
        } catch {
            throw RemoteWakeError(sentence: error.sentence)
        }
        judge = Self.judge(config, pronouncer: pronouncer, verifier: verifier)
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
        var wakes = try hearWholeChunks()
        do throws(TranscriberError) {
            if !pending.isEmpty {
                wakes += judged(try ear.take(AudioChunk(samples: pending, startSample: nextSample)))
                nextSample += Int64(pending.count)
                pending = []
            }
            wakes += judged(try ear.finish())
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
        pieces.compactMap { piece in
            judge.consider(piece, ear: ear).map { RemoteWake(phrase: $0.phrase, audioSeconds: $0.audioSeconds) }
        }
    }

    private static func judge(_ config: EarsConfig, pronouncer: any Pronouncer, verifier: (any WakeVerifier)?) -> WakeJudge {
        WakeJudge(detector: DetectorFactory.make(for: config, pronouncer: pronouncer), verifier: verifier,
                  threshold: config.verifierThreshold, contestTrained: config.trainedContest)
    }
}
