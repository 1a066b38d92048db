/// The ear: the tap that listens while nobody has called.
///
/// Each 100 ms chunk from the audio owner goes into a fixed 3.5 s ring (the
/// only audio ears keeps, and only in memory), is counted in the meter, and
/// is fed to the transcriber — through the noise suppressor when there is
/// one: the ring keeps the raw audio (what a capture hands on), and a second
/// ring of the same length keeps what the engine heard (the denoised audio),
/// for a verifier that rescores a candidate's window. The ear keeps the last six final pieces plus
/// the current volatile one, because only the latest words can hold a phrase.
///
/// An `Ear` is used from one thread only: the ear's, in `ears listen`
/// (the audio owner keeps a ring of its own for captures).
package final class Ear {
    /// Seconds of audio the ring holds: 3.5 s, 56,000 samples at 16 kHz.
    package static let ringSeconds = 3.5
    /// Final pieces kept for the detector; older ones are forgotten.
    package static let keptFinalPieces = 6

    /// The last 3.5 s of audio.
    package private(set) var ring = SampleRing(seconds: Ear.ringSeconds)
    /// Counts and levels, never content.
    package private(set) var meter = EarMeter()
    /// The last 3.5 s as the engine heard it (denoised when there is a
    /// suppressor, else the same samples as `ring`). Memory only, like `ring`.
    package private(set) var heardRing = SampleRing(seconds: Ear.ringSeconds)
    /// Audio time just past the newest sample in both rings, in samples.
    package private(set) var endSample: Int64 = 0
    /// The engine this ear feeds.
    package let transcriber: any Transcriber
    /// What cleans the audio before the engine hears it; nil feeds raw audio.
    package let suppressor: (any NoiseSuppressor)?
    /// A second engine fed every chunk exactly as captured — no gate, no
    /// noise suppressor — because it was trained on such audio (the trained
    /// phrase models, `NeuralTranscriber`); nil when there is none. Its
    /// pieces join the main engine's.
    package let rawTranscriber: (any Transcriber)?
    /// Whether `rawTranscriber` hears the suppressor's output instead
    /// (`[wake] trained_denoise`); false: every chunk as captured.
    package let rawHearsDenoised: Bool
    /// When set, the trained heads hear the audio as captured while it says
    /// the room is quiet, and the suppressor's output otherwise
    /// (`[wake] quiet_room_raw`): the heads are `rawTranscriber` when there
    /// is one (with `rawHearsDenoised`), else the transcriber itself (an ear
    /// of trained models alone). Nil: the heads always hear what the
    /// configuration says.
    package private(set) var quietRoom: QuietRoomDetector?
    /// When set, every engine (and the suppressor, the quiet-room detector,
    /// the gate, the heard ring) hears a microphone's own noise added to each
    /// chunk, so digital silence never reaches them (`MicrophoneFloor`,
    /// `[wake] microphone_floor`); `ring`, what a capture hands on, keeps the
    /// audio as it came. Nil: the engines hear it as it came.
    package private(set) var microphoneFloor: MicrophoneFloor?

    private var finals: [TranscriptPiece] = []
    private var volatile: TranscriptPiece?
    private let gate: SpeechGate?
    private let monotonicSeconds: @Sendable () -> Double

    /// Makes an ear feeding `transcriber`. `gate`, if given, decides which
    /// chunks reach the transcriber (silence is skipped; the ring supplies the
    /// onset when speech starts). `monotonicSeconds` is the clock for
    /// "seconds since audio"; it is passed in so tests can drive it.
    /// `meter` continues the counts of an ear this one replaces (a reload
    /// that loads a new engine), so the status counters never go backwards.
    /// `suppressor`, if given, denoises what the gate and the engine see.
    /// `rawTranscriber`, if given, hears every chunk as captured (no gate),
    /// or as denoised with `rawHearsDenoised` and a suppressor. `quietRoom`,
    /// if given, lets the heads hear a quiet room as captured (see `quietRoom`);
    /// `microphoneFloor`, if given, is added to what the engines hear (see `microphoneFloor`).
    package init(transcriber: any Transcriber, gate: SpeechGate? = nil, suppressor: (any NoiseSuppressor)? = nil,
                rawTranscriber: (any Transcriber)? = nil, rawHearsDenoised: Bool = false, quietRoom: QuietRoomDetector? = nil,
                microphoneFloor: MicrophoneFloor? = nil, meter: EarMeter = EarMeter(),
                monotonicSeconds: @escaping @Sendable () -> Double) {
        self.quietRoom = quietRoom
        self.microphoneFloor = microphoneFloor
        self.transcriber = transcriber
        self.rawTranscriber = rawTranscriber
        self.rawHearsDenoised = rawHearsDenoised
        self.suppressor = suppressor
        self.meter = meter
        self.gate = gate
        self.monotonicSeconds = monotonicSeconds
    }

    /// Continues the counts of `earlier` (the meter of the ear this one
    /// replaces, at the moment it is replaced), so status counters never go
    /// backwards across a reload.
    package func continueCounting(from earlier: EarMeter) {
        meter = earlier
    }

    /// Counts `chunks` the ear's queue dropped before they reached it.
    package func countDropped(_ chunks: Int) {
        meter.dropped += chunks
    }

    /// Starts the transcriber on a fresh stream beginning at `startSample`.
    package func start(atSample startSample: Int64 = 0) throws(TranscriberError) {
        finals.removeAll()
        volatile = nil
        ring.removeAll()
        heardRing.removeAll()
        endSample = startSample
        suppressor?.reset()
        quietRoom?.reset()
        microphoneFloor?.reset()
        gate?.reset()
        try transcriber.start(atSample: startSample)
        try rawTranscriber?.start(atSample: startSample)
    }

    /// Takes one chunk: ring, meter, transcriber. Returns the pieces the
    /// transcriber produced for it, already folded into `recentPieces`.
    package func take(_ chunk: AudioChunk) throws(TranscriberError) -> [TranscriptPiece] {
        meter.chunks += 1
        meter.lastAudioAt = monotonicSeconds()
        meter.loudest = max(meter.loudest, chunk.peakLevel)
        ring.append(contentsOf: chunk.samples)
        // From here on the audio as the engines hear it: over a microphone's own noise, never digital silence.
        var chunk = chunk
        if let noisy = microphoneFloor?.apply(chunk.samples) {
            chunk = AudioChunk(samples: noisy, startSample: chunk.startSample)
        }
        let denoised = suppressor.map { AudioChunk(samples: $0.denoise(chunk.samples), startSample: chunk.startSample) } ?? chunk
        // The suppressor hears every chunk, quiet or not, so its noise
        // estimate is ready when the room turns noisy.
        let quiet = quietRoom?.observe(chunk.samples) ?? false
        let heard = quiet && rawTranscriber == nil ? chunk : denoised
        heardRing.append(contentsOf: heard.samples)
        endSample = chunk.endSample

        // The trained engine first: a gate that opens on its heads' leans
        // (`HeadLeanGate`) must know of a lean in this very chunk.
        var produced: [TranscriptPiece] = []
        if let rawTranscriber {
            produced += try rawTranscriber.feed(rawHearsDenoised && !quiet ? denoised.samples : chunk.samples,
                                                atSample: chunk.startSample)
        }
        var toFeed: [AudioChunk] = [heard]
        if let gate {
            // The gate judges the audio before the suppressor (its noise floor
            // is the room's, over the microphone floor when there is one), and what it admits is fed as heard
            // (denoised, over the floor: the heard ring; the ring is as it came).
            toFeed = gate.admit(chunk, ring: ring).map { admitted in
                suppressor == nil && microphoneFloor == nil ? admitted : AudioChunk(
                    samples: heardAudio(fromSample: admitted.startSample, toSample: admitted.endSample),
                    startSample: admitted.startSample)
            }
        }
        for piece in toFeed {
            meter.fed += 1
            produced += try transcriber.feed(piece.samples, atSample: piece.startSample)
        }
        absorb(produced)
        return produced
    }

    /// Drops both engines' streams (after an error); the next call must be `start`.
    package func resetEngines() {
        transcriber.reset()
        rawTranscriber?.reset()
    }

    /// Both engines forget what they adapted to (`Transcriber.forgetAdaptation`):
    /// each file of `ears scan` starts from the state the engines loaded in.
    package func forgetAdaptation() throws(TranscriberError) {
        try transcriber.forgetAdaptation()
        try rawTranscriber?.forgetAdaptation()
    }

    /// Ends the stream (end of a file): the open utterance comes back final.
    package func finish() throws(TranscriberError) -> [TranscriptPiece] {
        let produced = try transcriber.finish() + (rawTranscriber?.finish() ?? [])
        absorb(produced)
        return produced
    }

    /// The pieces a phrase can be in: up to six finals, oldest first, then the
    /// current volatile piece if there is one.
    package var recentPieces: [TranscriptPiece] {
        finals + (volatile.map { [$0] } ?? [])
    }

    /// What the engine heard from audio time `startSample` up to `endSample`
    /// (samples since the stream began), cut to what `heardRing` still holds;
    /// empty when none of it is left.
    package func heardAudio(fromSample startSample: Int64, toSample requestedEnd: Int64) -> [Int16] {
        let oldest = endSample - Int64(heardRing.count)
        let start = max(startSample, oldest), end = min(requestedEnd, endSample)
        guard end > start else { return [] }
        let tail = heardRing.tail(Int(endSample - start))
        return Array(tail.prefix(Int(end - start)))
    }

    /// Seconds since the last chunk, or nil before the first.
    package var secondsSinceAudio: Double? {
        meter.secondsSinceAudio(now: monotonicSeconds())
    }

    private func absorb(_ pieces: [TranscriptPiece]) {
        for piece in pieces {
            meter.results += 1
            switch piece.kind {
            case .volatile:
                volatile = piece
            case .final:
                if volatile?.utterance == piece.utterance { volatile = nil }
                finals.append(piece)
                if finals.count > Ear.keptFinalPieces {
                    finals.removeFirst(finals.count - Ear.keptFinalPieces)
                }
            }
        }
    }
}

/// Decides which chunks reach the transcriber. A gate that skips silence
/// returns no chunks; when speech starts it returns the onset the ring still
/// holds followed by the chunk, so the first word is not lost.
package protocol SpeechGate: AnyObject {
    /// Returns the chunks to feed for `chunk` (possibly none, possibly the
    /// ring's recent audio first). `ring` already contains `chunk`.
    func admit(_ chunk: AudioChunk, ring: SampleRing) -> [AudioChunk]
    /// Forgets all state (a new stream).
    func reset()
}
