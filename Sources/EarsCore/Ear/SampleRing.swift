/// A fixed-capacity ring of 16-bit samples: the ear's short memory.
///
/// Storage is allocated once, rounded up to a power of two so indices are
/// masked rather than divided, and never grows: appending past `capacity`
/// overwrites the oldest samples. `count` never exceeds `capacity`, which is
/// how "the ring holds at most 3.5 s" is a property of the type rather than
/// of the caller's discipline.
package struct SampleRing: Sendable {
    /// How many samples the ring holds at most (56,000 for 3.5 s at 16 kHz).
    package let capacity: Int
    private var storage: [Int16]
    private let mask: Int
    /// Index of the next write, always within `0..<storage.count`.
    private var head = 0
    /// Number of valid samples, always `<= capacity`.
    package private(set) var count = 0
    /// Samples ever appended (for audio time bookkeeping).
    package private(set) var totalAppended: Int64 = 0

    /// Makes an empty ring for `capacity` samples. `capacity` must be positive.
    package init(capacity: Int) {
        precondition(capacity > 0, "a ring needs room for at least one sample")
        self.capacity = capacity
        var size = 1
        while size < capacity { size <<= 1 }
        storage = [Int16](repeating: 0, count: size)
        mask = size - 1
    }

    /// Makes a ring that holds `seconds` of 16 kHz audio.
    package init(seconds: Double) {
        self.init(capacity: AudioFormat.samples(inSeconds: seconds))
    }

    /// Seconds of audio currently held.
    package var heldSeconds: Double { Double(count) / Double(AudioFormat.sampleRate) }

    /// Number of samples the backing store has room for; fixed for the ring's life.
    /// Exposed so tests can check the ring never reallocates.
    package var storageCapacity: Int { storage.count }

    /// Appends samples, dropping the oldest ones past `capacity`.
    package mutating func append(contentsOf samples: some Collection<Int16>) {
        // Only the newest `capacity` samples can survive, so skip the rest up front.
        let keep = samples.count > capacity ? samples.suffix(capacity) : samples[...]
        storage.withUnsafeMutableBufferPointer { buffer in
            for sample in keep {
                buffer[head] = sample
                head = (head + 1) & mask
            }
        }
        count = min(capacity, count + keep.count)
        totalAppended += Int64(samples.count)
        assertInvariants()
    }

    /// The newest `sampleCount` samples (or all held, if fewer), oldest first.
    package func tail(_ sampleCount: Int) -> [Int16] {
        let n = max(0, min(sampleCount, count))
        var out = [Int16]()
        out.reserveCapacity(n)
        var index = (head - n) & mask
        for _ in 0..<n {
            out.append(storage[index])
            index = (index + 1) & mask
        }
        return out
    }

    /// The newest `seconds` of audio held, oldest first.
    package func tail(seconds: Double) -> [Int16] {
        tail(AudioFormat.samples(inSeconds: seconds))
    }

    /// The held audio from stream time `startSample` up to `chunk` (which
    /// must be the newest audio appended), in buffers of at most one chunk,
    /// oldest first, with contiguous `startSample`s ending at
    /// `chunk.startSample`: the first buffer takes the remainder, so later
    /// ones are whole chunks. Empty when `startSample` is not before the
    /// chunk. The caller keeps `startSample` within what the ring holds
    /// before the chunk (what a speech gate feeds as its pre-roll).
    package func buffers(fromSample startSample: Int64, before chunk: AudioChunk) -> [AudioChunk] {
        let length = Int(clamping: chunk.startSample - startSample)
        guard length > 0 else { return [] }
        let samples = tail(length + chunk.samples.count)
        var buffers: [AudioChunk] = []
        var from = 0
        var size = length % AudioFormat.chunkSamples
        if size == 0 { size = AudioFormat.chunkSamples }
        while from < length {
            buffers.append(AudioChunk(samples: Array(samples[from..<from + size]),
                                      startSample: startSample + Int64(from)))
            from += size
            size = AudioFormat.chunkSamples
        }
        return buffers
    }

    /// Forgets every sample (storage is kept and zeroed, so nothing lingers in memory).
    package mutating func removeAll() {
        storage.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices { buffer[i] = 0 }
        }
        head = 0
        count = 0
        assertInvariants()
    }

    private func assertInvariants() {
        assert(count >= 0 && count <= capacity, "ring count \(count) outside 0...\(capacity)")
        assert(head >= 0 && head < storage.count, "ring head \(head) outside storage")
        assert(capacity <= storage.count, "ring storage shrank")
    }
}
