import EarsCore
/// A speech front end that turns 16 kHz mono audio into fixed-size
/// embeddings at a fixed step: what a trained wake head listens to.
///
/// The product's front end is openWakeWord's melspectrogram and embedding
/// models run by ONNX Runtime (`EarsONNX.OpenWakeWordEmbedder`); the core
/// only sees this protocol, so the head, the trainer and the spotter stay
/// pure Swift and testable with a scripted embedder.
///
/// Contract: `feed` takes samples in stream order and returns the embeddings
/// that became complete, oldest first, each exactly `dimension` values;
/// embedding *k* of a stream covers the audio up to sample
/// `(k + 1) * samplesPerEmbedding` (plus the front end's fixed look-back).
/// `reset` forgets the stream. `embeddings(ofClip:)` gives what a fresh
/// stream fed the whole clip would give (used for training, may batch).
/// Used from one thread.
package protocol SpeechEmbedder: AnyObject {
    /// Values per embedding (96 for openWakeWord's front end).
    var dimension: Int { get }
    /// Audio samples per embedding step (1280, 80 ms at 16 kHz).
    var samplesPerEmbedding: Int { get }
    /// Names the front end's models and their content digests; a head
    /// trained on one front end refuses to run on another.
    var frontEndVersion: String { get }
    /// Feeds samples in stream order; returns the embeddings that became complete.
    func feed(_ samples: [Int16]) throws(TranscriberError) -> [[Float]]
    /// Forgets the stream: the next `feed` starts a new one.
    func reset()
    /// Every embedding a fresh stream fed `samples` would produce, oldest first.
    func embeddings(ofClip samples: [Int16]) throws(TranscriberError) -> [[Float]]
}
