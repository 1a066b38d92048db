// libFuzzer target for the Wyoming wake service's conversation
// (`WyomingWakeSession`): any bytes a remote client sends are read as
// events (`WyomingEventReader`) and fed to the session, with a listener
// that wakes as the input's first byte says. Whatever arrives, the actions
// must be ones a connection can carry out: audio is fed only between a
// `.begin` and a `.finish`; a `detection` names a configured phrase and
// comes only while a stream is open; `not-detected` and `error` are each
// followed by the close; nothing follows the close; and every event sent
// reads back from its own bytes. Built with only the files it needs by
// `make fuzz-wakesession` (mk/fuzz.mk).
import EarsCore
import EarsWyoming

/// The phrases the fuzzed service offers (English and Korean, as `ears listen` may).
let fuzzPhrases = ["hey cordelia", "코델리아 피파"]

/// Small limits so that inputs of a few kilobytes reach every limit check.
let sessionLimits = WyomingEventReader.Limits(headerBytes: 512, dataBytes: 2048, payloadBytes: 4096)

/// Checks the session's actions as a connection would meet them.
struct ActionChecker {
    var streamOpen = false
    var closed = false
    var lastSentType: String?

    mutating func check(_ actions: [WyomingWakeSession.Action]) {
        for action in actions {
            precondition(!closed, "an action after the close")
            if let last = lastSentType, last == "not-detected" || last == "error" {
                guard case .close = action else { preconditionFailure("\(last) is not followed by the close") }
            }
            switch action {
            case .begin:
                streamOpen = true
            case .feed:
                precondition(streamOpen, "audio fed outside a stream")
            case .finish:
                precondition(streamOpen, "a stream finished that never began")
                streamOpen = false
            case let .send(event):
                if event.type == "detection" {
                    let name = event.data["name"]?.stringValue
                    precondition(name.map(fuzzPhrases.contains) == true, "a detection of a phrase not configured")
                }
                var reader = WyomingEventReader(limits: WyomingEventReader.Limits())
                reader.append(event.encoded())
                guard let reread = try? reader.nextEvent() else { preconditionFailure("a sent event does not read back") }
                precondition(reread.type == event.type && reread.payload == event.payload, "a sent event changes when read back")
                lastSentType = event.type
            case .close:
                closed = true
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func wyomingWakeSessionFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = bytes.first else { return 0 }
    // The first byte is the listener: bit 0 wakes on every feed, bit 1 picks
    // the phrase, bit 2 fails the listener at the first feed.
    let wakesOnFeed = control & 1 != 0
    let phrase = fuzzPhrases[Int(control >> 1) & 1]
    let listenerFails = control & 4 != 0

    let info = WyomingEvent(type: "info", data: ["wake": .array([])])
    var session = WyomingWakeSession(phrases: fuzzPhrases, info: info)
    var checker = ActionChecker()
    var reader = WyomingEventReader(limits: sessionLimits)
    reader.append(bytes.dropFirst())
    var fedSeconds = 0.0

    /// Carries out the listener's side of `actions` and checks what follows.
    func perform(_ actions: [WyomingWakeSession.Action]) {
        checker.check(actions)
        for action in actions {
            switch action {
            case let .feed(audio, _):
                if listenerFails {
                    perform(session.listenerFailed(RemoteWakeError(sentence: "the fuzzed listener failed")))
                    return
                }
                fedSeconds += Double(audio.count) / 32_000
                if wakesOnFeed { perform(session.heard([RemoteWake(phrase: phrase, audioSeconds: fedSeconds)])) }
            case .finish:
                perform(session.streamFinished())
            default:
                break
            }
        }
    }

    while !session.isClosed {
        do throws(WyomingProtocolError) {
            guard let event = try reader.nextEvent() else { break }
            perform(session.receive(event))
        } catch {
            perform(session.unreadable(error))
        }
    }
    precondition(session.isClosed == checker.closed, "the session and its actions disagree about the close")
    return 0
}
