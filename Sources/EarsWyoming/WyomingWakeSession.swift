import EarsCore

/// One remote client's conversation with the Wyoming wake service, as a pure
/// state machine: events in, actions out, no I/O (the connection performs the
/// actions; `WyomingWakeSessionTests` drive it without a socket).
///
/// The semantics follow wyoming-openwakeword 1.8.2's handler, so a satellite
/// or Home Assistant sees the same event shapes from either:
/// - `describe` → `info`; `ping` → `pong`; other unknown events are ignored.
/// - `detect` (optional `names`) limits which phrases may be reported; a
///   name no configured phrase answers to is an `error` (openwakeword fails
///   to load such a model). Names match case-blind, `_` as a space.
/// - `audio-start` starts a fresh stream (`.begin`); `audio-chunk` is heard
///   (`.feed`) — a chunk with no `audio-start` before it starts the stream
///   in its own format, as satellites that stream continuously do.
/// - each wake is sent as `detection` at once (`name`: the phrase,
///   `timestamp`: milliseconds of audio, counted from the `audio-start`'s
///   own `timestamp`, else 0); several per stream are possible.
/// - `audio-stop` flushes the ear (`.finish`), then, if nothing was
///   detected since `audio-start`, `not-detected`; then the connection is
///   closed, as openwakeword's handler ends it after `audio-stop`.
/// - a malformed event gets an `error` event (`text`, `code`) and the
///   connection is closed.
package struct WyomingWakeSession: Sendable {
    /// What the connection must do, in order.
    package enum Action: Sendable, Equatable {
        /// Write this event to the client.
        case send(WyomingEvent)
        /// Start a fresh stream on the connection's listener.
        case begin(RemoteAudioFormat)
        /// Hear these bytes (whole frames of the format); report wakes with `heard`.
        case feed([UInt8], RemoteAudioFormat)
        /// Flush the listener, report its wakes with `heard`, then call `streamFinished`.
        case finish
        /// Close the connection after writing what was sent; `reason` is for the log.
        case close(reason: String)
    }

    /// Where the session is.
    private enum Phase: Sendable, Equatable {
        /// No stream yet (or the last one ended).
        case idle
        /// Between `audio-start` (or a first chunk) and `audio-stop`.
        case streaming(RemoteAudioFormat)
        /// `audio-stop` seen; waiting for `streamFinished`.
        case finishing
        /// Closed: every later input is ignored.
        case closed
    }

    /// The phrases the service answers to, as configured (model names).
    package let phrases: [String]
    /// The `info` answer to `describe`.
    package let info: WyomingEvent
    private var phase: Phase = .idle
    /// Phrases `detect` asked for; nil means all.
    private var wanted: Set<String>?
    /// Whether anything was detected since the stream began.
    private var detectedInStream = false
    /// The `audio-start` timestamp the detection times count from, in ms.
    private var baseMilliseconds = 0

    /// The `error` event's `code` for events ears cannot use.
    package static let badEventCode = "bad-event"
    /// Most characters of a client's unknown name repeated in the error (and the log).
    static let shownNameCharacters = 64
    /// The `error` event's `code` when a requested name is not a phrase.
    package static let unknownNameCode = "unknown-wake-word"

    /// A session answering to `phrases`, with `info` as its `describe` answer.
    package init(phrases: [String], info: WyomingEvent) {
        self.phrases = phrases
        self.info = info
    }

    /// Whether the session has ended (a `.close` was returned).
    package var isClosed: Bool { phase == .closed }

    /// Whether a stream is being heard (the connection keeps its listener).
    package var isStreaming: Bool {
        if case .streaming = phase { return true }
        return false
    }

    /// The actions for one event from the client.
    package mutating func receive(_ event: WyomingEvent) -> [Action] {
        switch phase {
        case .closed: return []
        case .finishing where event.type != WyomingEvent.EventType.describe && event.type != "ping":
            return [] // nothing is heard between audio-stop and the close
        default: break
        }
        switch event.type {
        case WyomingEvent.EventType.describe:
            return [.send(info)]
        case "ping":
            return [.send(WyomingEvent(type: "pong", data: ["text": event.data["text"] ?? .null]))]
        case "detect":
            return detect(event)
        case WyomingEvent.EventType.audioStart:
            switch RemoteAudioFormat.of(event) {
            case let .failure(error): return fail(error.sentence, code: Self.badEventCode)
            case let .success(format):
                phase = .streaming(format)
                detectedInStream = false
                baseMilliseconds = event.integer("timestamp") ?? 0
                return [.begin(format)]
            }
        case WyomingEvent.EventType.audioChunk:
            let format: RemoteAudioFormat
            switch RemoteAudioFormat.of(event) {
            case let .failure(error): return fail(error.sentence, code: Self.badEventCode)
            case let .success(stated): format = stated
            }
            guard event.payload.count % format.bytesPerFrame == 0 else {
                return fail("audio-chunk payload of \(event.payload.count) bytes is not whole frames of \(format.bytesPerFrame) bytes",
                            code: Self.badEventCode)
            }
            var actions: [Action] = []
            if case .idle = phase {
                phase = .streaming(format)
                detectedInStream = false
                baseMilliseconds = 0
                actions.append(.begin(format))
            }
            actions.append(.feed(event.payload, format))
            return actions
        case WyomingEvent.EventType.audioStop:
            guard case .streaming = phase else {
                // openwakeword answers a stop with no audio with not-detected too.
                phase = .closed
                return [.send(WyomingEvent(type: "not-detected")), .close(reason: "audio-stop")]
            }
            phase = .finishing
            return [.finish]
        default:
            return []
        }
    }

    /// The actions for wakes the listener reported (after `.feed` or `.finish`).
    package mutating func heard(_ wakes: [RemoteWake]) -> [Action] {
        guard phase != .closed else { return [] }
        var actions: [Action] = []
        for wake in wakes where wanted?.contains(Self.key(wake.phrase)) ?? true {
            detectedInStream = true
            let milliseconds = baseMilliseconds + Int((wake.audioSeconds * 1000).rounded())
            actions.append(.send(.detection(name: wake.phrase, timestamp: milliseconds)))
        }
        return actions
    }

    /// The actions once `.finish` is done: `not-detected` if nothing was
    /// heard since the stream began, then the close.
    package mutating func streamFinished() -> [Action] {
        guard phase == .finishing else { return [] }
        phase = .closed
        let verdict: [Action] = detectedInStream ? [] : [.send(WyomingEvent(type: "not-detected"))]
        return verdict + [.close(reason: "audio-stop")]
    }

    /// The actions when the listener failed (building or hearing): an
    /// `error` event and the close.
    package mutating func listenerFailed(_ error: RemoteWakeError) -> [Action] {
        guard phase != .closed else { return [] }
        return fail(error.sentence, code: "wake-failed")
    }

    /// The actions for bytes that are not Wyoming events (`WyomingEventReader`).
    package mutating func unreadable(_ error: WyomingProtocolError) -> [Action] {
        guard phase != .closed else { return [] }
        return fail(error.description, code: Self.badEventCode)
    }

    // MARK: Helpers

    private mutating func detect(_ event: WyomingEvent) -> [Action] {
        guard let names = event.data["names"], names != .null else {
            wanted = nil
            return []
        }
        guard let list = names.arrayValue?.compactMap(\.stringValue), list.count == names.arrayValue?.count else {
            return fail("detect names must be a list of strings", code: Self.badEventCode)
        }
        if list.isEmpty {
            wanted = nil
            return []
        }
        let known = Set(phrases.map(Self.key))
        if let unknown = list.first(where: { !known.contains(Self.key($0)) }) {
            // The client's name is quoted as JSON (control characters
            // escaped) and cut short: it reaches the log.
            let shown = JSONText.string(String(unknown.prefix(Self.shownNameCharacters)))
            let offered = phrases.map(JSONText.string).joined(separator: ", ")
            return fail("wake word model not found: \(shown); this service has \(offered)", code: Self.unknownNameCode)
        }
        wanted = Set(list.map(Self.key))
        return []
    }

    private mutating func fail(_ text: String, code: String) -> [Action] {
        phase = .closed
        return [.send(WyomingEvent(type: "error", data: ["text": .string(text), "code": .string(code)])),
                .close(reason: text)]
    }

    /// A name as compared: lower case, `_` and `-` as spaces, spaces collapsed.
    static func key(_ name: String) -> String {
        String(name.lowercased().map { $0 == "_" || $0 == "-" ? " " : $0 })
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
