import EarsCore
import Foundation
import Synchronization
import EarsPhonetics

/// A wake the ear's thread found, on its way back to the audio owner, which
/// starts the capture from its own ring.
struct FoundWake: Sendable {
    /// The wake as logged.
    var wake: WakeEvent
    /// Which open of the source the chunk came from.
    var stream: Int
    /// Audio time (samples since that open) just past the chunk that woke.
    var endSample: Int64
}
