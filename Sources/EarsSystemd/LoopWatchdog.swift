/// Decides when to tell systemd's watchdog that ears is alive.
///
/// systemd restarts a `Type=notify` service whose `WATCHDOG=1` pings stop for
/// `WatchdogSec=`. A ping must mean the audio loop (the audio owner's thread)
/// is turning, not merely that some timer thread still runs, so the loop
/// records a heartbeat (a monotonic time) on every turn, including each 100 ms
/// step of a closed-and-waiting retry sleep; the pinger checks it. A loop
/// stuck in a read or in a deadlock stops beating, the pings stop, and
/// systemd restarts ears.
///
/// Pure: the caller supplies the times; `tick` says whether to ping now.
package struct LoopWatchdog: Sendable, Equatable {
    /// Seconds between pings: half the watchdog period, as sd_watchdog_enabled(3) advises.
    package let pingIntervalSeconds: Double
    /// How often (seconds) the caller should call `tick`: a quarter of the
    /// period, at most a second, so pings keep their interval without drifting late.
    package let tickSeconds: Double
    /// A heartbeat older than this (seconds) means the loop is stuck.
    package let staleAfterSeconds: Double
    /// When the last ping went out (monotonic seconds), or nil before the first.
    package private(set) var lastPingAt: Double?
    /// Whether the last tick found the loop stuck (so a change can be logged once).
    package private(set) var stalled = false

    /// Longest time (seconds) one turn of a healthy loop may take: a 100 ms
    /// read, with room to spare for a busy machine (decoding and engine
    /// loads run on threads of their own and never make a turn longer).
    package static let longestHealthyTurnSeconds = 10.0

    /// A watchdog for a `WatchdogSec=` of `watchdogSeconds`.
    package init(watchdogSeconds: Double) {
        pingIntervalSeconds = watchdogSeconds / 2
        tickSeconds = min(1, watchdogSeconds / 4)
        // Stale well before systemd gives up, but never so soon that one slow
        // (healthy) turn counts as a hang.
        staleAfterSeconds = min(Self.longestHealthyTurnSeconds, max(watchdogSeconds / 2, 0.5))
    }

    /// What a tick decided.
    package enum Decision: Sendable, Equatable {
        /// Send `WATCHDOG=1`.
        case ping
        /// Not time yet.
        case wait
        /// The loop's heartbeat is stale: hold the ping. `newly` is true on the
        /// first tick of a stall, so the journal gets one line, not one per tick.
        case holdBecauseStalled(newly: Bool)
        /// The loop beat again after a stall; the ping resumes.
        case recovered
    }

    /// Called often (e.g. every `pingIntervalSeconds / 2`) with the current
    /// monotonic time and the loop's last heartbeat.
    package mutating func tick(now: Double, lastBeatAt: Double) -> Decision {
        if now - lastBeatAt > staleAfterSeconds {
            let newly = !stalled
            stalled = true
            return .holdBecauseStalled(newly: newly)
        }
        if stalled {
            stalled = false
            lastPingAt = now
            return .recovered
        }
        // Half a tick of slack: ticks land a hair early or late, and a ping
        // that waits a whole extra tick would eat into systemd's margin.
        if let lastPingAt, now - lastPingAt < pingIntervalSeconds - tickSeconds / 2 { return .wait }
        lastPingAt = now
        return .ping
    }
}
