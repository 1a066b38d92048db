// `pow` and `log10` run once at init and on demand for the status line; the
// per-sample loop is plain integer arithmetic and never calls Foundation.
import Foundation

/// A voice activity gate in front of the transcriber: silence and steady
/// noise reach the ring and the meter but not the engine.
///
/// Samples go through a one-pole high-pass (corner ≈ 160 Hz, below which
/// there is rumble and hum but little speech) and are cut into 10 ms frames.
/// A frame's *level* is the mean power of it and the two frames before it
/// (30 ms: narrow-band noise flickers by ±8 dB in 10 ms, a third of that in
/// 30 ms). The noise floor is the lowest level of the last
/// `floorWindowSeconds`: it follows the quiet down at once and up after at
/// most one window, so a fan that starts becomes the floor within a second,
/// while speech, which dips between syllables, does not.
///
/// A frame is *voiced* when its level is at least `onsetMarginDecibels` above
/// the floor and at least `minimumSpeechDecibels`, and it crosses zero at
/// most `maximumVoicedCrossingsPerSample` times per sample (a vowel's energy
/// is below ~1 kHz; white noise crosses about every other sample, so a hiss
/// that starts does not open the gate while the floor catches up). Speech
/// starts once `onsetVoicedSeconds` of the last `onsetWindowSeconds` were
/// voiced, which a 10 ms click cannot do. Then `admit` returns what the ring
/// still holds from `preRollSeconds` before the first voiced level's audio
/// (or before the chunk, if that is earlier; the onset consonant, quiet and
/// noise-like, is in there), then the chunk.
///
/// While open, a chunk whose mean power is `sustainMarginDecibels` above the
/// floor keeps the gate open (no zero-crossing test, so fricatives count; a
/// 100 ms mean, so noise flicker does not); after `hangoverSeconds` without
/// one the gate closes, so the engine hears the trailing silence it needs to
/// end its utterance.
///
/// Cost: a few integer operations per sample and a few dozen per frame; no
/// allocation while closed (about 4 ms of CPU per hour of audio, release build).
///
/// Levels are dBFS of mean square power relative to full-scale 16-bit
/// (32,768²): a full-scale square wave is 0 dBFS, a full-scale sine −3 dBFS.
/// A gate is used from the audio owner's thread only, like its `Ear`.
package final class EnergySpeechGate: SpeechGate {
    /// Seconds of audio fed from before the first voiced level at an onset:
    /// 0.3 s covers an onset consonant and a quiet attack.
    package static let defaultPreRollSeconds = 0.3
    /// Seconds the gate stays open after the last sounding chunk: 1.0 s is
    /// twice PocketSphinx's default 0.5 s of post-speech silence.
    package static let defaultHangoverSeconds = 1.0
    /// Decibels above the floor a frame's level needs to be voiced (speech onset).
    package static let defaultOnsetMarginDecibels = 10.0
    /// Decibels above the floor a chunk's mean power needs to keep an open gate open.
    package static let defaultSustainMarginDecibels = 6.0
    /// Absolute dBFS a level needs to count at all: below this is a quiet room.
    package static let defaultMinimumSpeechDecibels = -55.0
    /// Seconds of history the noise floor is the lowest level of.
    package static let defaultFloorWindowSeconds = 1.0
    /// Length of one analysis frame, in seconds (160 samples at 16 kHz).
    package static let frameSeconds = 0.01
    /// Voiced seconds needed within `onsetWindowSeconds` for speech to start.
    package static let onsetVoicedSeconds = 0.1
    /// Seconds of frames the onset count looks back over (spans chunk edges).
    package static let onsetWindowSeconds = 0.2
    /// Zero crossings per sample (after the high-pass) above which a frame is
    /// too noise-like to be voiced. Measured: white noise 0.5, pink noise
    /// 0.25…0.3, flite vowels 0.02…0.06, vowels in white noise at +15 dB SNR
    /// 0.11 (median), at +10 dB 0.18.
    package static let maximumVoicedCrossingsPerSample = 0.3

    /// Seconds of audio before the first voiced level returned when speech
    /// starts (less if the ring holds less or part of it was already fed).
    package let preRollSeconds: Double
    /// Seconds of non-sounding chunks still admitted after speech.
    package let hangoverSeconds: Double
    /// Decibels above the noise floor for a frame's level to be voiced.
    package let onsetMarginDecibels: Double
    /// Decibels above the noise floor for a chunk's mean power to sustain open speech.
    package let sustainMarginDecibels: Double
    /// Minimum level, in dBFS, for a frame to be voiced or a chunk to sustain speech.
    package let minimumSpeechDecibels: Double
    /// Seconds over which the noise floor is the lowest level.
    package let floorWindowSeconds: Double

    /// Whether the gate is admitting chunks (speech or its hangover).
    package private(set) var isOpen = false
    /// Chunks passed in since the gate was made (not cleared by `reset`).
    package private(set) var chunksSeen = 0
    /// Live chunks admitted since the gate was made, pre-roll not included.
    package private(set) var chunksAdmitted = 0
    /// Pre-roll buffers taken from the ring since the gate was made.
    package private(set) var preRollBuffersAdmitted = 0
    /// Times the gate opened since the gate was made.
    package private(set) var speechOnsets = 0
    /// Whether the chunk last given to `admit` held speech (an onset, or
    /// loud enough above the floor to keep the gate open). The capture uses it
    /// to hear when the speaker has stopped; the hangover does not count.
    package private(set) var lastChunkHadSpeech = false

    /// The current noise floor in dBFS (of high-passed audio, so a little under
    /// what a plain RMS meter shows); nil before the first frame, −infinity
    /// for digital silence. For status and tests; computed on demand.
    package var noiseFloorDecibels: Double? {
        let floor = currentFloorPower
        return floor.isFinite ? 10 * log10(floor / Self.fullScalePower) : nil
    }

    private static let fullScalePower = 32_768.0 * 32_768.0
    private static let framesPerBlock = 10

    // Fixed at init, in frames, samples and linear power.
    private let frameSamples: Int
    private let onsetVoicedFrames: Int
    private let onsetWindowMask: UInt64
    private let preRollSamples: Int
    private let hangoverSamples: Int
    private let onsetRatio: Double
    private let sustainRatio: Double
    private let minimumPower: Double
    private let maximumCrossings: Int

    // The frame being measured; frames may span chunk edges.
    private var frameFill = 0
    private var frameSum = 0
    private var frameSquares = 0
    private var frameCrossings = 0
    /// Stream time of the current frame's first sample.
    private var frameStartSample: Int64 = 0
    // High-pass state: the last input sample and the last output.
    private var previousSample = 0
    private var filtered = 0
    /// The last two frame powers, newest first, for the 30 ms level.
    private var recentPowers = (0.0, 0.0)
    private var framesJudged = 0

    // The noise floor: the minimum of per-100 ms block minima of levels.
    private var blockMinima: [Double]
    private var blockCursor = 0
    private var windowMinimum = Double.infinity
    private var blockMinimum = Double.infinity
    private var blockFrames = 0
    private var currentFloorPower: Double { min(windowMinimum, blockMinimum) }

    // Speech decision.
    /// One bit per frame, newest lowest: was it voiced.
    private var voicedHistory: UInt64 = 0
    /// Stream time of the first audio behind the voiced levels of an onset in this chunk.
    private var onsetStartSample: Int64?
    private var chunkPowerSum = 0.0
    private var chunkFrames = 0
    private var quietSamples = 0

    // Stream bookkeeping for the pre-roll.
    private var preRollTracker = PreRollTracker()

    /// Makes a closed gate. Times are seconds (≥ 0), margins are decibels
    /// above the noise floor, `minimumSpeechDecibels` is dBFS.
    /// `floorWindowSeconds` is rounded to whole 100 ms blocks (at least one).
    package init(preRollSeconds: Double = defaultPreRollSeconds,
                hangoverSeconds: Double = defaultHangoverSeconds,
                onsetMarginDecibels: Double = defaultOnsetMarginDecibels,
                sustainMarginDecibels: Double = defaultSustainMarginDecibels,
                minimumSpeechDecibels: Double = defaultMinimumSpeechDecibels,
                floorWindowSeconds: Double = defaultFloorWindowSeconds) {
        precondition(preRollSeconds >= 0 && hangoverSeconds >= 0 && floorWindowSeconds >= 0,
                     "gate times are seconds and cannot be negative")
        self.preRollSeconds = preRollSeconds
        self.hangoverSeconds = hangoverSeconds
        self.onsetMarginDecibels = onsetMarginDecibels
        self.sustainMarginDecibels = sustainMarginDecibels
        self.minimumSpeechDecibels = minimumSpeechDecibels
        self.floorWindowSeconds = floorWindowSeconds
        // Rounded, not truncated: 0.01 × 16,000 must be 160 even if it comes out 159.99….
        func samples(_ seconds: Double) -> Int { Int((seconds * Double(AudioFormat.sampleRate)).rounded()) }
        frameSamples = samples(Self.frameSeconds)
        onsetVoicedFrames = Int((Self.onsetVoicedSeconds / Self.frameSeconds).rounded())
        let windowFrames = Int((Self.onsetWindowSeconds / Self.frameSeconds).rounded())
        onsetWindowMask = windowFrames >= 64 ? .max : (1 << UInt64(windowFrames)) - 1
        preRollSamples = samples(preRollSeconds)
        hangoverSamples = samples(hangoverSeconds)
        onsetRatio = pow(10, onsetMarginDecibels / 10)
        sustainRatio = pow(10, sustainMarginDecibels / 10)
        minimumPower = Self.fullScalePower * pow(10, minimumSpeechDecibels / 10)
        maximumCrossings = Int(Self.maximumVoicedCrossingsPerSample * Double(frameSamples))
        let blockSeconds = Self.frameSeconds * Double(Self.framesPerBlock)
        let blocks = max(1, Int((floorWindowSeconds / blockSeconds).rounded()))
        blockMinima = [Double](repeating: .infinity, count: blocks)
    }

    /// Returns [] while closed; at speech onset the pre-roll (oldest first,
    /// in buffers of at most one chunk, `startSample`s contiguous and ending
    /// at `chunk.startSample`, at most `preRollSeconds` + 0.21 s) followed by
    /// `chunk`; `[chunk]` while open.
    /// `ring` must already hold `chunk` as its newest samples; it is only read.
    package func admit(_ chunk: AudioChunk, ring: SampleRing) -> [AudioChunk] {
        chunksSeen += 1
        lastChunkHadSpeech = false
        preRollTracker.observe(chunk, ring: ring)

        onsetStartSample = nil
        chunkPowerSum = 0
        chunkFrames = 0
        measure(chunk)

        if !isOpen {
            guard let onsetStartSample else { return [] }
            isOpen = true
            lastChunkHadSpeech = true
            speechOnsets += 1
            quietSamples = 0
            var buffers = preRollTracker.preRoll(fromSample: min(onsetStartSample, chunk.startSample) - Int64(preRollSamples),
                                                 before: chunk, ring: ring)
            preRollBuffersAdmitted += buffers.count
            buffers.append(chunk)
            return admitted(chunk, buffers)
        }
        let chunkPower = chunkPowerSum / Double(max(1, chunkFrames))
        if chunkFrames > 0 && chunkPower >= minimumPower && chunkPower >= currentFloorPower * sustainRatio {
            quietSamples = 0
            lastChunkHadSpeech = true
        } else {
            quietSamples += chunk.samples.count
            if quietSamples > hangoverSamples {
                isOpen = false
                return []
            }
        }
        return admitted(chunk, [chunk])
    }

    /// Forgets the stream: closed, no floor, no history. Counters are kept,
    /// like the ear's meter across `Ear.start`.
    package func reset() {
        isOpen = false
        frameFill = 0; frameSum = 0; frameSquares = 0; frameCrossings = 0
        previousSample = 0; filtered = 0
        recentPowers = (0, 0)
        framesJudged = 0
        for index in blockMinima.indices { blockMinima[index] = .infinity }
        blockCursor = 0
        windowMinimum = .infinity
        blockMinimum = .infinity
        blockFrames = 0
        voicedHistory = 0
        quietSamples = 0
        preRollTracker.reset()
    }

    private func admitted(_ chunk: AudioChunk, _ buffers: [AudioChunk]) -> [AudioChunk] {
        chunksAdmitted += 1
        preRollTracker.fed(throughSample: chunk.endSample)
        return buffers
    }

    /// Runs every sample through the high-pass and the frame accumulators;
    /// whole frames are judged.
    private func measure(_ chunk: AudioChunk) {
        chunk.samples.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                if frameFill == 0 { frameStartSample = chunk.startSample + Int64(index) }
                let end = min(buffer.count, index + frameSamples - frameFill)
                // Locals, so the loop is registers rather than class fields.
                var sum = 0, squares = 0, crossings = 0
                var previous = previousSample, output = filtered
                for position in index..<end {
                    let value = Int(buffer[position])
                    // One-pole high-pass, pole 15/16 (corner ≈ 160 Hz): removes DC
                    // and the rumble whose 10 ms power flickers by ±8 dB.
                    // |output| < 2^20, so a frame of squares fits easily in 64 bits.
                    let next = value &- previous &+ output &- (output >> 4)
                    if (next > 0) != (output > 0) { crossings &+= 1 }
                    output = next
                    previous = value
                    sum &+= output
                    squares &+= output &* output
                }
                previousSample = previous; filtered = output
                frameSum += sum; frameSquares += squares; frameCrossings += crossings
                frameFill += end - index
                index = end
                if frameFill == frameSamples { judgeFrame() }
            }
        }
    }

    private func judgeFrame() {
        let count = Double(frameSamples)
        let mean = Double(frameSum) / count
        // Around the frame's mean: the filter's rounding leaves a DC of a few units.
        let power = max(0, Double(frameSquares) / count - mean * mean)
        // Decisions use the mean of the last three frames (30 ms): a third of
        // the flicker of a 10 ms frame, still short next to a syllable.
        framesJudged += 1
        let level = (power + recentPowers.0 + recentPowers.1) / Double(min(3, framesJudged))
        recentPowers = (power, recentPowers.0)
        let floor = currentFloorPower
        let voiced = level >= minimumPower && level >= floor * onsetRatio && frameCrossings <= maximumCrossings
        chunkPowerSum += power
        chunkFrames += 1
        voicedHistory = (voicedHistory << 1) | (voiced ? 1 : 0)
        let window = voicedHistory & onsetWindowMask
        if onsetStartSample == nil && window.nonzeroBitCount >= onsetVoicedFrames {
            // Bit b is the frame b frames ago; the highest set bit is the first
            // voiced one, whose level began two frames before it.
            let framesAgo = UInt64.bitWidth - 1 - window.leadingZeroBitCount + 2
            onsetStartSample = frameStartSample - Int64(framesAgo * frameSamples)
        }

        blockMinimum = min(blockMinimum, level)
        blockFrames += 1
        if blockFrames == Self.framesPerBlock {
            blockMinima[blockCursor] = blockMinimum
            blockCursor = (blockCursor + 1) % blockMinima.count
            windowMinimum = blockMinima.min() ?? .infinity
            blockMinimum = .infinity
            blockFrames = 0
        }
        frameFill = 0; frameSum = 0; frameSquares = 0; frameCrossings = 0
    }
}
