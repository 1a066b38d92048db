/// Audio time lost between the microphone and ears: the seconds that passed
/// on the wall clock while no audio arrived for them (a stalled driver, a
/// suspended laptop, a SIGSTOP, an overrun after a long stall).
///
/// A source delivers audio at real time, so while nothing is lost the
/// deficit `(monotonic seconds since the source opened) − (audio seconds
/// delivered)` stays near a small latency. Lost audio makes it jump and stay
/// up. The meter counts how far the deficit rises above its normal level by
/// more than `toleranceSeconds`, each lost second once:
///
/// - The deficit is judged by its smallest value over the last
///   `settleSeconds`, so an owner that was merely late (the audio waited in
///   the device's buffer and is read in a burst) counts nothing.
/// - The normal level follows the deficit down at once, and up only as fast
///   as a sound card's clock may drift from the system clock
///   (`driftPerSecond`), so days of drift are not counted as a gap.
/// - After a gap is counted, the normal level is the new deficit.
/// - `opened(atSeconds:)` starts over (a reopened device delivers from 0);
///   `lostSeconds` carries on.
///
/// Pure: the caller hands in the monotonic time and the audio delivered.
package struct AudioGapMeter: Sendable, Equatable {
    /// Deficit growth (seconds) not counted as lost: scheduling and buffer jitter.
    package static let toleranceSeconds = 0.5
    /// How long (seconds) a deficit must persist before it counts.
    package static let settleSeconds = 1.0
    /// How fast (seconds per second) the normal deficit may creep up from clock
    /// drift: 0.1 %, the same allowance `AlsaMicrophone`'s pacing guard uses.
    package static let driftPerSecond = 0.001

    /// Seconds of audio lost in total, over every open of the source.
    package private(set) var lostSeconds = 0.0
    /// Gaps counted in total (a gap is a rise counted at once).
    package private(set) var gaps = 0

    private var openedAt: Double?
    private var deliveredSeconds = 0.0
    /// The deficit level that counts as normal (seconds).
    private var normal = 0.0
    private var lastAt = 0.0
    /// Recent (time, deficit) readings spanning `settleSeconds`, oldest first.
    private var recent: [Reading] = []

    private struct Reading: Sendable, Equatable {
        var at: Double
        var deficit: Double
    }

    package init() {}

    /// The source (re)opened at monotonic time `seconds`: start measuring from it.
    package mutating func opened(atSeconds seconds: Double) {
        openedAt = seconds
        deliveredSeconds = 0
        normal = 0
        lastAt = seconds
        recent.removeAll()
    }

    /// The source delivered `audioSeconds` of audio, the read returning at
    /// monotonic time `seconds`. Returns the seconds newly counted as lost.
    @discardableResult
    package mutating func delivered(audioSeconds: Double, atSeconds seconds: Double) -> Double {
        guard let openedAt else { return 0 }
        deliveredSeconds += audioSeconds
        let deficit = (seconds - openedAt) - deliveredSeconds
        recent.append(Reading(at: seconds, deficit: deficit))
        // Keep the newest reading at least `settleSeconds` old, so the
        // window always spans that long: a jump counts once it has lasted.
        while recent.count >= 2 && recent[1].at <= seconds - Self.settleSeconds { recent.removeFirst() }
        let settled = recent.map(\.deficit).min() ?? deficit
        normal = min(settled, normal + Self.driftPerSecond * max(0, seconds - lastAt))
        lastAt = seconds
        let excess = settled - normal - Self.toleranceSeconds
        guard excess > 0 else { return 0 }
        lostSeconds += excess
        gaps += 1
        normal = settled
        return excess
    }
}
