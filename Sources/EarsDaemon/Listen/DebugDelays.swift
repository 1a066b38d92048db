import Foundation
#if canImport(Glibc)
import Glibc
import EarsSystem
#endif

/// Deliberate slowness for tests and diagnostics, read once at start from
/// the environment: it simulates a loaded machine, so the claim "the
/// microphone never waits for the decoder" can be checked with the real
/// daemon (docs/operations.md, Diagnostics).
///
/// - `EARS_DEBUG_DECODE_DELAY_MS`: the ear's thread sleeps this long for
///   every chunk it decodes, speech or silence. (It sleeps beside the
///   engine rather than inside it because the speech gate keeps silence
///   from the engine, and a slow machine is slow for every chunk.)
/// - `EARS_DEBUG_LOAD_DELAY_MS`: every engine load sleeps this long first,
///   without looking at anything, like a load stuck in C code.
struct DebugDelays: Sendable, Equatable {
    /// Environment variable: milliseconds of extra decode time per chunk.
    static let decodeVariable = "EARS_DEBUG_DECODE_DELAY_MS"
    /// Environment variable: milliseconds of extra time per engine load.
    static let loadVariable = "EARS_DEBUG_LOAD_DELAY_MS"
    /// The most either delay may be, in milliseconds (ten minutes).
    static let maximumMilliseconds = 600_000

    /// Extra seconds per decoded chunk; 0 when unset.
    var decodeSeconds = 0.0
    /// Extra seconds per engine load; 0 when unset.
    var loadSeconds = 0.0

    /// The delays `environment` asks for; unset, empty or not a whole number
    /// of milliseconds is 0.
    static func from(_ environment: [String: String]) -> DebugDelays {
        func seconds(_ name: String) -> Double {
            guard let text = environment[name], let milliseconds = Int(text), milliseconds > 0 else { return 0 }
            return Double(min(milliseconds, maximumMilliseconds)) / 1000
        }
        return DebugDelays(decodeSeconds: seconds(decodeVariable), loadSeconds: seconds(loadVariable))
    }

    /// The delays this process was started with.
    static let current = from(ProcessInfo.processInfo.environment)

    /// Whether any delay is on (the daemon says so in its log).
    var isActive: Bool { decodeSeconds > 0 || loadSeconds > 0 }

    /// One line for the log naming the delays in force.
    var summary: String {
        "diagnostics: decode delay \(Int(decodeSeconds * 1000)) ms per chunk (\(Self.decodeVariable)), load delay \(Int(loadSeconds * 1000)) ms per engine load (\(Self.loadVariable))"
    }

    /// Sleeps `seconds` whole, signals or not: a stand-in for work that
    /// checks nothing while it runs.
    static func sleep(_ seconds: Double) {
        SystemCall.sleep(seconds: seconds)
    }
}
