/// The chunks the audio owner has read and the ear has not decoded yet,
/// bounded so that a slow decoder can never hold up the microphone.
///
/// The audio owner pushes every chunk it reads; the ear's thread pops them
/// in order. When the ear falls behind and the backlog is full, `push` drops
/// the **oldest undecoded** element (the newest audio is the one a phrase can
/// still be in) and counts it in `dropped`. Captures never go through here:
/// the audio owner feeds them from its own ring, so a drop costs the ear
/// some audio, never a capture.
///
/// Pure: no locks and no clocks; the caller (`ChunkQueue` in EarsDaemon)
/// guards it. Generic so the policy is tested on plain numbers.
package struct DecodeBacklog<Element>: Sendable where Element: Sendable {
    /// Chunks the backlog holds by default: 1.2 s of 100 ms chunks. Long
    /// enough that a decoder that is merely uneven (a long utterance's end,
    /// the verifier's search at a candidate, a busy machine's scheduling)
    /// catches up without the detector losing audio: a drop restarts the
    /// engine's stream, and a phrase spanning it is missed. Short enough
    /// that a wake decoded from the oldest chunk, reaching the audio owner at
    /// most 1.3 s late, still finds `minimumLateWakePreRollSeconds` (more
    /// than a spoken phrase) of pre-roll in the audio owner's 3.5 s ring;
    /// the capture's pre-roll is then shorter than its usual 3 s by the
    /// lateness past 0.5 s. A decoder slow for good drops.
    package static var defaultCapacityChunks: Int { 12 }

    /// The least pre-roll, in seconds, a wake decoded from the oldest waiting
    /// chunk still finds in the 3.5 s ring (a phrase is said in under 2 s).
    package static var minimumLateWakePreRollSeconds: Double { 2.0 }

    /// The most elements held at once.
    package let capacity: Int
    /// Elements dropped undecoded since the backlog was made.
    package private(set) var dropped = 0
    private var elements: [Element] = []

    /// An empty backlog holding at most `capacity` elements (at least one).
    package init(capacity: Int = DecodeBacklog.defaultCapacityChunks) {
        precondition(capacity > 0, "a backlog needs room for at least one element")
        self.capacity = capacity
        elements.reserveCapacity(capacity)
    }

    /// Elements waiting, oldest first, at most `capacity`.
    package var count: Int { elements.count }

    /// Whether nothing waits.
    package var isEmpty: Bool { elements.isEmpty }

    /// Adds `element` after the others; when full, the oldest waiting element
    /// is dropped first and counted. Returns how many were dropped (0 or 1).
    @discardableResult
    package mutating func push(_ element: Element) -> Int {
        var droppedNow = 0
        if elements.count >= capacity {
            elements.removeFirst(elements.count - capacity + 1)
            droppedNow = 1
            dropped += droppedNow
        }
        elements.append(element)
        return droppedNow
    }

    /// Takes the oldest waiting element, or nil when none waits.
    package mutating func pop() -> Element? {
        elements.isEmpty ? nil : elements.removeFirst()
    }

    /// Forgets what waits without counting it as dropped (the source closed:
    /// that audio is not behind, it belongs to a stream that ended).
    package mutating func removeAll() {
        elements.removeAll(keepingCapacity: true)
    }
}
