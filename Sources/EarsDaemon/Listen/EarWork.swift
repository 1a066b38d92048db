import EarsCore
import Foundation
import Synchronization

/// What one piece of work for the ear's thread is.
enum EarWork: Sendable {
    /// A chunk the audio owner read, from the source's `stream`-th open.
    case chunk(AudioChunk, stream: Int)
    /// The input of `stream` ended (a file): the open utterance comes back final.
    case end(stream: Int)
}
