/// The bookkeeping of openWakeWord's streaming feature pipeline, without the
/// models: which samples go into the melspectrogram model when, how its
/// frames are kept, and which 76-frame windows go into the embedding model.
///
/// The pipeline it reproduces (openwakeword 0.5.1, `utils.AudioFeatures`,
/// `_streaming_features`):
///
/// - Samples are processed in whole steps of 1280 (80 ms); a remainder waits
///   for the next call.
/// - Every step is one melspectrogram run: the step's samples (int16 values
///   as float) behind 480 samples (3 × 160) of look-back; the stream's first
///   step has none, so it gives 5 frames, every later step 8. The model
///   frames with a 512-sample window every 160 samples, so frame *m* of the
///   stream covers samples `160m ..< 160m + 512`.
/// - The run is per step, never over more audio, because the model is not
///   frame-local: it floors its log-mel output at the run's maximum minus 80
///   (a `top_db` clamp over the whole input tensor, batch included), so quiet
///   frames come out differently in a run that also holds loud ones. One run
///   per step makes the frames independent of how the audio was chunked, and
///   equal to openWakeWord's own streaming fed 1280-sample chunks (its
///   documented chunk size); openWakeWord fed other chunk sizes sometimes runs
///   two steps at once and gets other floors.
/// - Its output is transformed `x / 10 + 2`.
/// - The frame buffer starts with 76 frames of 1.0 (openWakeWord's
///   `np.ones((76, 32))`), so embedding *k* exists as soon as step *k* has
///   been processed: it is the embedding model over the buffer's last 76
///   frames at that point. The first nine embeddings of a stream see some of
///   that padding; from the tenth on, all 76 frames are audio.
///
/// Any chunking of a stream gives the same requests and so the same windows,
/// which is what `SpeechEmbedder.embeddings(ofClip:)` relies on.
///
/// Use: `append` returns one `MelRequest` per step that became complete;
/// run the melspectrogram model on each request's samples, in order, and
/// pass each output to `acceptMel`, which returns that step's embedding
/// window. All requests must be answered before the next `append` (or the
/// stream `reset`).
package struct EmbeddingWindowing: Sendable {
    /// The pipeline's fixed sizes.
    package struct Geometry: Sendable, Equatable {
        /// Samples per embedding step (80 ms at 16 kHz).
        package var samplesPerStep: Int
        /// Samples between mel frames (10 ms).
        package var hopSamples: Int
        /// Samples one mel frame covers (the model's STFT window).
        package var frameSamples: Int
        /// Samples of look-back in front of every mel run but the stream's first.
        package var lookBackSamples: Int
        /// Values per mel frame.
        package var melBins: Int
        /// Mel frames per embedding window.
        package var windowFrames: Int
        /// Frames the buffer starts with, each `paddingValue` in every bin.
        package var paddingFrames: Int
        /// The padding frames' value (after the transform).
        package var paddingValue: Float

        /// openWakeWord 0.5.1's front end.
        package static let openWakeWord = Geometry(samplesPerStep: 1280, hopSamples: 160, frameSamples: 512,
                                                  lookBackSamples: 480, melBins: 32, windowFrames: 76,
                                                  paddingFrames: 76, paddingValue: 1)

        /// Values per embedding window (`windowFrames * melBins`).
        package var windowValues: Int { windowFrames * melBins }

        /// Mel frames the model gives for `samples` samples (0 when too few).
        package func frames(forSamples samples: Int) -> Int {
            samples < frameSamples ? 0 : (samples - frameSamples) / hopSamples + 1
        }

        /// Audio mel frames a stream has after `steps` whole steps.
        package func frames(afterSteps steps: Int) -> Int {
            frames(forSamples: steps * samplesPerStep)
        }

        /// openWakeWord's transform of the model's output (`x / 10 + 2`).
        @inline(__always)
        package static func transform(_ value: Float) -> Float { value / 10 + 2 }
    }

    /// One melspectrogram run to do: the samples in stream order (int16
    /// values as float) and how many frames the answer must have.
    package struct MelRequest: Sendable, Equatable {
        package var samples: [Float]
        package var expectedFrames: Int
    }

    /// The melspectrogram model answered with another number of values than the request needs.
    package struct FrameCountMismatch: Error, Equatable, Sendable {
        package var expectedValues: Int
        package var receivedValues: Int
        /// One sentence for logs.
        package var sentence: String {
            "the melspectrogram model gave \(receivedValues) values where \(expectedValues) were expected"
        }
    }

    package let geometry: Geometry

    /// Samples not yet in a whole step.
    private var pending: [Int16] = []
    /// The last `lookBackSamples` samples of the steps already requested (fewer at the stream's start).
    private var lookBack: [Int16] = []
    /// Whole steps requested from the melspectrogram model.
    package private(set) var stepsRequested = 0
    /// The frame counts of the requests not yet answered, oldest first.
    private var awaiting: [Int] = []
    /// Transformed frames, padding first, flattened (`frame * melBins + bin`);
    /// `frames[0]` is buffer frame `firstFrame` (padding frames count from 0).
    private var frames: [Float] = []
    private var firstFrame = 0
    /// Embedding windows handed out (steps answered).
    package private(set) var windowsEmitted = 0

    package init(geometry: Geometry = .openWakeWord) {
        self.geometry = geometry
        reset()
    }

    /// Samples held back until their step is complete.
    package var pendingSamples: Int { pending.count }

    /// Requests returned by `append` and not yet answered.
    package var outstandingRequests: Int { awaiting.count }

    /// Forgets the stream: the next `append` starts a new one.
    package mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        lookBack.removeAll(keepingCapacity: true)
        stepsRequested = 0
        awaiting.removeAll()
        frames = [Float](repeating: geometry.paddingValue, count: geometry.paddingFrames * geometry.melBins)
        firstFrame = 0
        windowsEmitted = 0
    }

    /// Adds samples in stream order; returns one mel run per step that
    /// became complete, oldest first (none while a step is incomplete).
    package mutating func append(_ samples: [Int16]) -> [MelRequest] {
        precondition(awaiting.isEmpty, "EmbeddingWindowing: a MelRequest was not answered")
        pending.append(contentsOf: samples)
        let steps = pending.count / geometry.samplesPerStep
        guard steps > 0 else { return [] }
        var requests: [MelRequest] = []
        requests.reserveCapacity(steps)
        for step in 0..<steps {
            let stepStart = step * geometry.samplesPerStep
            var input = [Float]()
            input.reserveCapacity(lookBack.count + geometry.samplesPerStep)
            for sample in lookBack { input.append(Float(sample)) }
            for index in stepStart..<(stepStart + geometry.samplesPerStep) { input.append(Float(pending[index])) }
            let keep = min(geometry.lookBackSamples, lookBack.count + geometry.samplesPerStep)
            lookBack = Array((lookBack + pending[stepStart..<(stepStart + geometry.samplesPerStep)]).suffix(keep))
            let expected = geometry.frames(forSamples: input.count)
            awaiting.append(expected)
            requests.append(MelRequest(samples: input, expectedFrames: expected))
        }
        pending.removeFirst(steps * geometry.samplesPerStep)
        stepsRequested += steps
        return requests
    }

    /// Takes the melspectrogram model's raw output for the oldest unanswered
    /// request (`expectedFrames * melBins` values, frame-major); returns that
    /// step's embedding window, `windowFrames * melBins` transformed values.
    /// On a mismatch (or with no request outstanding) the stream is reset and
    /// the error thrown.
    package mutating func acceptMel(_ output: [Float]) throws(FrameCountMismatch) -> [Float] {
        let bins = geometry.melBins
        guard let expected = awaiting.first, output.count == expected * bins else {
            let expectedValues = (awaiting.first ?? 0) * bins
            reset()
            throw FrameCountMismatch(expectedValues: expectedValues, receivedValues: output.count)
        }
        awaiting.removeFirst()
        frames.reserveCapacity(frames.count + output.count)
        for value in output { frames.append(Geometry.transform(value)) }

        let end = geometry.paddingFrames + geometry.frames(afterSteps: windowsEmitted + 1)
        let start = end - geometry.windowFrames
        let window = Array(frames[((start - firstFrame) * bins)..<((end - firstFrame) * bins)])
        windowsEmitted += 1
        // Keep only what the next window can still use.
        let nextStart = geometry.paddingFrames + geometry.frames(afterSteps: windowsEmitted + 1) - geometry.windowFrames
        let drop = max(0, min(nextStart - firstFrame, frames.count / bins))
        if drop > 0 {
            frames.removeFirst(drop * bins)
            firstFrame += drop
        }
        return window
    }

    /// How many embeddings a fresh stream fed `sampleCount` samples gives.
    package static func embeddingCount(forSamples sampleCount: Int, geometry: Geometry = .openWakeWord) -> Int {
        sampleCount / geometry.samplesPerStep
    }
}
