import EarsCore
import Foundation
import Synchronization

/// Whether the ear has an engine to decode with.
enum EngineState: Sendable, Equatable {
    /// Nothing loaded yet, and no load asked for.
    case notLoaded
    /// The loader is building the first engine (or one after a failure).
    case loading
    /// An engine is installed (a reload may be building its successor).
    case ready
    /// The last load failed, for the reason in the sentence.
    case failed(String)
}
