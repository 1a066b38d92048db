/// One client's queue of encoded events waiting to be written: bounded, and
/// when full the oldest waiting event makes room for the newest.
///
/// Why drop the oldest: the producer is the audio thread, which must never
/// wait for a reader. A client that falls behind by a whole queue (256
/// events is about 25 s of 100 ms chunks) is stuck or gone; for whatever it
/// reads next, recent audio is worth more than audio it is already late for.
/// Each drop is counted so the gap is visible (`droppedEvents`).
///
/// Drops do not respect event boundaries of a capture: a client that far
/// behind may lose an `audio-start` and then read chunks without one. The
/// count tells it (and the operator) that its stream has holes.
///
/// Events are stored encoded: the server encodes each event once and every
/// client's outbox shares the same bytes (arrays are copy-on-write).
struct WyomingOutbox: Sendable {
    /// Most events held at once.
    let capacity: Int
    /// Ring storage; `slots[head]` is the oldest waiting event.
    private var slots: [[UInt8]?]
    private var head = 0
    /// Events currently waiting.
    private(set) var count = 0
    /// Events this client never got because the queue was full.
    private(set) var dropped = 0
    /// True while this client should not see `audio-chunk`/`audio-stop`:
    /// it connected in the middle of a capture whose `audio-start` it never
    /// got, and a Wyoming reader expects chunks only after a start.
    var skippingCapture: Bool

    /// Makes an empty outbox holding at most `capacity` (at least 1) events.
    init(capacity: Int, skippingCapture: Bool = false) {
        self.capacity = max(1, capacity)
        slots = Array(repeating: nil, count: self.capacity)
        self.skippingCapture = skippingCapture
    }

    /// True when nothing is waiting.
    var isEmpty: Bool { count == 0 }

    /// Appends `event`. If the outbox was full, the oldest waiting event is
    /// discarded first; returns true in that case.
    @discardableResult
    mutating func push(_ event: [UInt8]) -> Bool {
        var droppedOne = false
        if count == capacity {
            slots[head] = nil
            head = (head + 1) % capacity
            count -= 1
            dropped += 1
            droppedOne = true
        }
        slots[(head + count) % capacity] = event
        count += 1
        return droppedOne
    }

    /// Removes and returns the oldest waiting event, if any.
    mutating func popFirst() -> [UInt8]? {
        guard count > 0 else { return nil }
        let event = slots[head]
        slots[head] = nil
        head = (head + 1) % capacity
        count -= 1
        return event
    }

    /// Decides whether an event of `type` reaches this client, updating the
    /// mid-capture state: a start ends the skipping (the client gets the
    /// whole next capture), a stop ends the capture it joined late.
    mutating func admits(eventType type: String) -> Bool {
        switch type {
        case WyomingEvent.EventType.audioStart:
            skippingCapture = false
            return true
        case WyomingEvent.EventType.audioChunk:
            return !skippingCapture
        case WyomingEvent.EventType.audioStop:
            defer { skippingCapture = false }
            return !skippingCapture
        default:
            return true
        }
    }
}

/// What the server knows about one connected client, for status pages.
package struct WyomingClientStatistics: Sendable, Equatable {
    /// The connection's number, unique for the server's life, in order of
    /// connection.
    package var id: UInt64
    /// Events waiting to be written to the client.
    package var queuedEvents: Int
    /// Events discarded because the client's queue was full.
    package var droppedEvents: Int

    /// Makes statistics.
    package init(id: UInt64, queuedEvents: Int, droppedEvents: Int) {
        self.id = id
        self.queuedEvents = queuedEvents
        self.droppedEvents = droppedEvents
    }
}
