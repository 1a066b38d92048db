// `log10` runs once per 30 ms frame; the per-sample loop is plain arithmetic.
import Foundation

/// Tells a quiet room from a noisy one by the room's noise floor, so the
/// trained heads can hear a quiet room as captured and a noisy one through
/// the noise suppressor (`[wake] quiet_room_raw`).
///
/// Why: the heads were trained on denoised audio, yet fed audio as captured
/// they heard more calls where there was little noise to take — a 40 dB
/// floor 90.0 → 94.0%, a talker across the room 36.7 → 47.3% — and fewer
/// in pink noise at 10 dB (docs/training.md, the row "the heads hear audio
/// as captured"): with little noise the suppressor takes some of the talker.
///
/// The floor is the lowest 30 ms frame level (mean power, dBFS) of the last
/// `windowSeconds`: speech dips between phrases, so it stays near the room's
/// noise while someone talks (a window of 3 s was too short: a talker who
/// goes on without a pause lifted it to −47 dBFS), and a fan that starts
/// raises it within one window. The room turns quiet when the floor falls below
/// `quietBelowDecibels` and noisy again when it rises above
/// `noisyAboveDecibels` (the gap keeps a floor near the line from flapping).
/// Until a whole window was heard the room counts as noisy: the heads hear
/// what they were trained on. Pure; one instance per stream.
///
/// Levels are dBFS of mean square power relative to full-scale 16-bit, as
/// `EnergySpeechGate`'s: the benchmark's quiet conditions (a 40 dB floor)
/// sit near −65, its pink and babble at 10 dB near −35 to −48 (speech near −16).
package struct QuietRoomDetector: Sendable, Equatable {
    /// Samples per level frame (30 ms: 480 at 16 kHz).
    package static let frameSamples = AudioFormat.sampleRate * 3 / 100
    /// Seconds of frame levels the floor is the lowest of.
    package static let windowSeconds = 10.0
    /// Floor (dBFS) under which the room turns quiet. Why −58: in the
    /// benchmark's babble at 10 dB (five talkers, whose pauses sometimes
    /// meet) the 10 s floor was under −52 a quarter of the time and under
    /// −58 2% of it; at −52 the heads heard some babble calls as captured
    /// and lost them. Its quiet conditions sit at −65 and below, pink noise
    /// at 10 dB never under −44 (levels of the streams' audio, measured
    /// before any recall with this line).
    package static let quietBelowDecibels = -58.0
    /// Floor (dBFS) over which a quiet room turns noisy again.
    package static let noisyAboveDecibels = -54.0

    /// Whether the room is quiet now.
    package private(set) var isQuiet = false
    /// The floor of the last window in dBFS, nil until a whole window was heard.
    package private(set) var floorDecibels: Double?

    private var levels: [Double] = []
    private var next = 0
    private var framePower = 0.0
    private var frameFill = 0
    private static let framesPerWindow = Int((windowSeconds * Double(AudioFormat.sampleRate) / Double(frameSamples)).rounded())
    /// Mean square power of a full-scale 16-bit square wave: 0 dBFS.
    private static let fullScalePower = 32_768.0 * 32_768.0

    /// A detector that has heard nothing (the room counts as noisy).
    package init() {}

    /// Takes the next samples of the stream (`AudioFormat.sampleRate`) and returns `isQuiet` after them.
    @discardableResult
    package mutating func observe(_ samples: [Int16]) -> Bool {
        for sample in samples {
            let value = Double(sample)
            framePower += value * value
            frameFill += 1
            if frameFill == Self.frameSamples {
                push(10 * log10(max(framePower / Double(Self.frameSamples), 1) / Self.fullScalePower))
                framePower = 0
                frameFill = 0
            }
        }
        return isQuiet
    }

    /// Forgets the stream: the room counts as noisy until a window is heard.
    package mutating func reset() {
        self = QuietRoomDetector()
    }

    private mutating func push(_ level: Double) {
        if levels.count < Self.framesPerWindow {
            levels.append(level)
            guard levels.count == Self.framesPerWindow else { return }
        } else {
            levels[next] = level
            next = (next + 1) % Self.framesPerWindow
        }
        let floor = levels.min() ?? level
        floorDecibels = floor
        if isQuiet, floor > Self.noisyAboveDecibels { isQuiet = false }
        if !isQuiet, floor < Self.quietBelowDecibels { isQuiet = true }
    }
}
