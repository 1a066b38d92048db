/// A streaming speech-to-text engine seen from the ear: it is fed 16 kHz mono
/// samples and answers with text pieces. Engines live in their own modules
/// (`EarsPocketSphinx`, later Vosk); the core never imports them.
///
/// Contract: `start` before the first `feed`; `feed` returns whatever pieces the
/// engine produced for that audio (often none); `finish` flushes the current
/// utterance as a final piece; `reset` drops the stream and its utterance.
/// Engines adapt to what they hear (PocketSphinx's live cepstral mean and
/// noise estimate, Vosk's feature pipeline); `reset` and `start` may keep that
/// adaptation (PocketSphinx always does, which suits one microphone heard for
/// hours), and only `forgetAdaptation` surely goes back to the state the
/// engine loaded in, which is what separate files need (`ears scan`).
/// Engines are used from one thread.
package protocol Transcriber: AnyObject {
    /// Engine name for the status socket, e.g. `pocketsphinx`.
    var engineName: String { get }
    /// Model name or path for the status socket (never transcript text).
    var modelName: String { get }

    /// Prepares a fresh stream whose audio time starts at `startSample`.
    func start(atSample startSample: Int64) throws(TranscriberError)
    /// Feeds samples that begin at audio time `startSample`; returns new pieces.
    func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece]
    /// Ends the stream: the open utterance, if any, comes back as a final piece.
    func finish() throws(TranscriberError) -> [TranscriptPiece]
    /// Drops the stream and its open utterance; the next call must be `start`.
    /// What the engine has adapted to (the channel, the speaker) may be kept.
    func reset()
    /// Like `reset`, and also forgets everything the engine adapted to since
    /// it loaded: after this, `start` and the same audio give exactly what
    /// they gave on the first stream of a freshly loaded engine. Cheap (no
    /// model is loaded again). The next call must be `start`.
    func forgetAdaptation() throws(TranscriberError)
}

/// One piece of transcript. A volatile piece is a guess for an utterance still
/// being spoken and is replaced by later pieces of the same `utterance`; a
/// final piece is the engine's last word on that utterance.
package struct TranscriptPiece: Sendable, Equatable {
    /// Whether the engine may still change this text.
    package enum Kind: String, Sendable { case volatile, final }

    package var kind: Kind
    /// The words, as the engine wrote them. Never logged, never on the status socket.
    package var text: String
    /// Engine-assigned utterance number; volatile and final pieces of the same
    /// speech share it, which is how a phrase fires once per utterance.
    package var utterance: Int
    /// Audio time of the utterance start, in seconds since the stream started.
    package var startSeconds: Double
    /// Audio time the piece covers up to, in seconds since the stream started.
    package var endSeconds: Double
    /// For a piece an acoustic spotter found (`PocketSphinxSpotter`): its
    /// score, the log-likelihood ratio of the phrase against a free phone
    /// loop per 10 ms frame (natural log; higher is surer), and
    /// `startSeconds`/`endSeconds` bound the phrase itself. Nil for a transcript.
    package var spotScore: Double?
    /// For a piece a phrase's trained model found (`NeuralTranscriber`): the
    /// head's score, 0…1, at or above the model's threshold. Such a piece has
    /// already been decided by the model and is not verified again. Nil otherwise.
    package var trainedScore: Double?

    package init(kind: Kind, text: String, utterance: Int, startSeconds: Double, endSeconds: Double,
                spotScore: Double? = nil, trainedScore: Double? = nil) {
        self.trainedScore = trainedScore
        self.kind = kind
        self.text = text
        self.utterance = utterance
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.spotScore = spotScore
    }
}

/// Why an engine could not start or run, with what to do about it.
package enum TranscriberError: Error, Equatable, Sendable {
    /// A model file or directory is missing; `install` says how to get it.
    case modelMissing(engine: String, path: String, install: String)
    /// The engine library itself is missing (e.g. libvosk.so).
    case libraryMissing(engine: String, library: String, install: String)
    /// The engine refused the model or configuration.
    case engineFailed(engine: String, detail: String)

    /// One sentence for `closed_why` and logs.
    package var sentence: String {
        switch self {
        case let .modelMissing(engine, path, install):
            return "The \(engine) model is not installed at \(path); \(install)."
        case let .libraryMissing(engine, library, install):
            return "The \(engine) library \(library) is not installed; \(install)."
        case let .engineFailed(engine, detail):
            return "The \(engine) engine failed to start (\(detail))."
        }
    }
}
