/// Cleans the audio the engines hear. The ring and every capture keep the raw
/// audio; only what is fed to the transcriber (and the verifier) passes through
/// here. Implementations live in their own modules (`EarsSpeex`); the core
/// only knows this protocol.
///
/// Contract: `denoise` returns exactly as many samples as it is given, in the
/// same order and at the same audio time (no delay is introduced), and carries
/// its noise estimate from one call to the next; `reset` forgets that
/// estimate (a new stream). Used from one thread.
package protocol NoiseSuppressor: AnyObject {
    /// A short description for the status socket and logs, e.g. `speexdsp -15 dB`.
    var label: String { get }
    /// The cleaned samples for `samples` (same count).
    func denoise(_ samples: [Int16]) -> [Int16]
    /// Forgets the noise estimate.
    func reset()
}

/// Cuts a stream of chunks into the fixed frames a frame-based processor
/// needs (speexdsp: 10 ms, 160 samples at 16 kHz) and puts the processed
/// frames back together, so a caller sees the same sample count it gave.
///
/// A chunk whose length is not a multiple of the frame is finished with a
/// zero-padded last frame whose output is cut back to the real samples:
/// nothing is delayed or held back, so audio time is unchanged (a microphone
/// delivers 1,600-sample chunks, ten whole frames; only a file's last chunk is
/// short). Pure: the processing is passed in.
package struct FrameChunker: Sendable, Equatable {
    /// Samples per frame, > 0.
    package let frameSamples: Int

    /// A chunker for frames of `frameSamples` samples (at least 1).
    package init(frameSamples: Int) {
        precondition(frameSamples > 0, "a frame holds at least one sample")
        self.frameSamples = frameSamples
    }

    /// How many frames `sampleCount` samples are cut into (the last may be padded).
    package func frameCount(forSamples sampleCount: Int) -> Int {
        (sampleCount + frameSamples - 1) / frameSamples
    }

    /// Runs `process` on each frame of `samples` in order (each exactly
    /// `frameSamples` long, the last zero-padded if needed) and returns the
    /// processed samples, `samples.count` of them.
    package func map(_ samples: [Int16], _ process: (inout [Int16]) -> Void) -> [Int16] {
        var output: [Int16] = []
        output.reserveCapacity(samples.count)
        var frame = [Int16](repeating: 0, count: frameSamples)
        var start = 0
        while start < samples.count {
            let end = min(start + frameSamples, samples.count)
            let real = end - start
            for index in 0..<frameSamples { frame[index] = index < real ? samples[start + index] : 0 }
            process(&frame)
            output.append(contentsOf: frame[0..<real])
            start = end
        }
        return output
    }
}

/// Why a noise suppressor could not be made.
package enum NoiseSuppressorError: Error, Equatable, Sendable {
    /// The library refused a setting; the detail names it.
    case badSetting(String)

    /// One sentence for logs and `closed_why`.
    package var sentence: String {
        switch self {
        case let .badSetting(detail): return "The noise suppressor could not be set up (\(detail))."
        }
    }
}
