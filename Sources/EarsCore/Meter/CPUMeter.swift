/// The process's own CPU use, sampled every 5 s over the last 5 s. Until
/// the first window is complete it is the use since the first reading (so a
/// daemon asked in its first seconds does not read 0 % while it works).
///
/// Pure arithmetic: the caller reads its CPU time (getrusage) and a monotonic
/// clock and hands both in, so the window logic is tested without a process.
package struct CPUMeter: Sendable, Equatable {
    /// Length of the sampling window, in seconds.
    package static let windowSeconds = 5.0

    /// CPU use over the last complete window, percent of one core (200 = both of two cores).
    package private(set) var percent = 0.0
    private var windowStartWall: Double?
    private var windowStartCPU = 0.0
    /// Whether a full window has been measured yet.
    private var windowDone = false

    package init() {}

    /// Records a reading: `cpuSeconds` of process CPU time at monotonic
    /// `wallSeconds`. Updates `percent` when a full window has passed.
    package mutating func record(cpuSeconds: Double, wallSeconds: Double) {
        guard let start = windowStartWall else {
            windowStartWall = wallSeconds
            windowStartCPU = cpuSeconds
            return
        }
        let elapsed = wallSeconds - start
        guard elapsed >= CPUMeter.windowSeconds else {
            if !windowDone, elapsed > 0 { percent = max(0, (cpuSeconds - windowStartCPU) / elapsed * 100) }
            return
        }
        windowDone = true
        percent = max(0, (cpuSeconds - windowStartCPU) / elapsed * 100)
        windowStartWall = wallSeconds
        windowStartCPU = cpuSeconds
    }
}
