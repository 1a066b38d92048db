/// The one audio format inside ears: 16 kHz, mono, signed 16-bit samples,
/// handed around in 100 ms chunks. Every source converts to this at its edge.
package enum AudioFormat {
    /// Samples per second of every chunk, ring and capture.
    package static let sampleRate = 16_000
    /// Channels: always one (sources downmix).
    package static let channels = 1
    /// Bytes per sample (S16_LE).
    package static let bytesPerSample = 2
    /// Length of one chunk in seconds.
    package static let chunkSeconds = 0.1
    /// Samples in one chunk (1,600 at 16 kHz).
    package static let chunkSamples = 1_600

    /// Converts a sample count to seconds of audio.
    @inlinable
    package static func seconds(ofSamples samples: Int64) -> Double {
        Double(samples) / Double(sampleRate)
    }

    /// Converts seconds of audio to a whole number of samples (rounded down).
    @inlinable
    package static func samples(inSeconds seconds: Double) -> Int {
        Int(seconds * Double(sampleRate))
    }
}

/// One chunk of audio as it leaves a source: about 100 ms of 16 kHz mono samples.
package struct AudioChunk: Sendable {
    /// The samples, 16 kHz mono S16.
    package var samples: [Int16]
    /// Audio time of the first sample, counted in samples since the source opened.
    package var startSample: Int64

    /// Makes a chunk from samples that start `startSample` samples into the stream.
    package init(samples: [Int16], startSample: Int64) {
        self.samples = samples
        self.startSample = startSample
    }

    /// Audio time just past the last sample, in samples.
    package var endSample: Int64 { startSample + Int64(samples.count) }

    /// Peak absolute level of the chunk, 0…1 (full scale is 1).
    package var peakLevel: Double {
        var peak: Int32 = 0
        for sample in samples {
            let magnitude = abs(Int32(sample))
            if magnitude > peak { peak = magnitude }
        }
        return min(1.0, Double(peak) / Double(Int16.max))
    }
}
