@testable import EarsCore

/// A transcriber that answers from a script: for detector and ear unit tests
/// only (never in integration tests, which run the real engines).
final class ScriptedTranscriber: Transcriber {
    let engineName = "scripted"
    let modelName = "script"
    /// Pieces to return, keyed by the index of the feed call (0-based).
    var script: [Int: [TranscriptPiece]]
    private(set) var feeds = 0
    private(set) var started = 0
    /// The samples of every feed, in order.
    private(set) var fedSamples: [[Int16]] = []
    /// Where each feed's samples start (audio time in samples), in order.
    private(set) var fedStarts: [Int64] = []

    init(script: [Int: [TranscriptPiece]] = [:]) { self.script = script }

    func start(atSample startSample: Int64) throws(TranscriberError) { started += 1; feeds = 0 }
    func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        defer { feeds += 1 }
        fedSamples.append(samples)
        fedStarts.append(startSample)
        return script[feeds] ?? []
    }
    func finish() throws(TranscriberError) -> [TranscriptPiece] { [] }
    func reset() {}
    func forgetAdaptation() {}
}

func volatile(_ text: String, utterance: Int, at seconds: Double) -> TranscriptPiece {
    TranscriptPiece(kind: .volatile, text: text, utterance: utterance, startSeconds: max(0, seconds - 1), endSeconds: seconds)
}

func final(_ text: String, utterance: Int, at seconds: Double) -> TranscriptPiece {
    TranscriptPiece(kind: .final, text: text, utterance: utterance, startSeconds: max(0, seconds - 1), endSeconds: seconds)
}

/// An ear on a scripted engine (and `rawTranscriber`, if given) fed 3 s of
/// quiet-ish audio in 100 ms chunks: what judge tests window candidates in.
func earThreeSecondsIn(rawTranscriber: (any Transcriber)? = nil) throws -> Ear {
    let ear = Ear(transcriber: ScriptedTranscriber(), rawTranscriber: rawTranscriber, monotonicSeconds: { 0 })
    try ear.start()
    var start: Int64 = 0
    while start < 48_000 {
        _ = try ear.take(AudioChunk(samples: [Int16](repeating: 100, count: 1600), startSample: start))
        start += 1600
    }
    return ear
}
