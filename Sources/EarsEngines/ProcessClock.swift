import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The clocks ears reads: monotonic wall time and the process's own CPU time.
package enum ProcessClock {
    /// Monotonic seconds (CLOCK_MONOTONIC), unaffected by wall-clock changes.
    @Sendable package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// User plus system CPU seconds this process has used (getrusage, all threads).
    @Sendable package static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// Peak resident set size of this process, in bytes (getrusage ru_maxrss).
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// Sleeps `seconds`, waking early (within 100 ms) when `shouldStop` turns true.
    package static func sleep(seconds: Double, unless shouldStop: () -> Bool) {
        var left = seconds
        while left > 0, !shouldStop() {
            let step = min(left, 0.1)
            usleep(UInt32(step * 1_000_000))
            left -= step
        }
    }
}
