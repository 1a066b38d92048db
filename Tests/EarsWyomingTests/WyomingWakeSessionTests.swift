import EarsCore
import EarsWyoming
import Testing

/// The wake service's per-connection state machine, driven without sockets.
@Suite struct WyomingWakeSessionTests {
    typealias Action = WyomingWakeSession.Action

    static let phrases = ["hey cordelia", "computer"]
    static let info = WyomingEvent.info(wakePhrases: phrases, version: "0.1.0", languages: ["en"])
    static let mono16k = RemoteAudioFormat(sampleRate: 16_000, sampleWidth: 2, channels: 1)
    static let stereo44k = RemoteAudioFormat(sampleRate: 44_100, sampleWidth: 2, channels: 2)

    func session() -> WyomingWakeSession { WyomingWakeSession(phrases: Self.phrases, info: Self.info) }

    static func start(_ format: RemoteAudioFormat, timestamp: Int? = nil) -> WyomingEvent {
        .audioStart(rate: format.sampleRate, width: format.sampleWidth, channels: format.channels, timestamp: timestamp)
    }

    static func chunk(_ format: RemoteAudioFormat, frames: Int) -> WyomingEvent {
        WyomingEvent(type: "audio-chunk",
                     data: ["rate": .integer(Int64(format.sampleRate)), "width": .integer(Int64(format.sampleWidth)),
                            "channels": .integer(Int64(format.channels))],
                     payload: [UInt8](repeating: 1, count: frames * format.bytesPerFrame))
    }

    static func errorCode(_ actions: [Action]) -> String? {
        for case let .send(event) in actions where event.type == "error" { return event.string("code") }
        return nil
    }

    static func sent(_ actions: [Action]) -> [String] {
        actions.compactMap { if case let .send(event) = $0 { return event.type } else { return nil } }
    }

    @Test("describe is answered with info listing every phrase as a wake model; ping with pong")
    func describeAndPing() {
        var session = session()
        #expect(session.receive(.describe) == [.send(Self.info)])
        #expect(Self.info.infoWakePhrases == Self.phrases)
        let pong = session.receive(WyomingEvent(type: "ping", data: ["text": "x"]))
        #expect(pong == [.send(WyomingEvent(type: "pong", data: ["text": "x"]))])
        #expect(session.receive(WyomingEvent(type: "transcribe")).isEmpty, "unknown events are ignored")
        #expect(!session.isClosed)
    }

    @Test("a stream: begin, feed, a detection at once with ms of audio, no not-detected at stop, then close")
    func detectionStream() {
        var session = session()
        #expect(session.receive(WyomingEvent(type: "detect")).isEmpty)
        #expect(session.receive(Self.start(Self.stereo44k, timestamp: 500)) == [.begin(Self.stereo44k)])
        let chunk = Self.chunk(Self.stereo44k, frames: 441)
        #expect(session.receive(chunk) == [.feed(chunk.payload, Self.stereo44k)])
        let heard = session.heard([RemoteWake(phrase: "computer", audioSeconds: 1.234)])
        #expect(heard == [.send(.detection(name: "computer", timestamp: 1734))])
        #expect(session.receive(.audioStop()) == [.finish])
        #expect(session.streamFinished() == [.close(reason: "audio-stop")])
        #expect(session.isClosed)
        #expect(session.receive(.describe).isEmpty, "nothing after the close")
    }

    @Test("nothing heard: not-detected at audio-stop, then close")
    func notDetected() {
        var session = session()
        _ = session.receive(Self.start(Self.mono16k))
        _ = session.receive(Self.chunk(Self.mono16k, frames: 1600))
        #expect(session.heard([]).isEmpty)
        #expect(session.receive(.audioStop()) == [.finish])
        #expect(Self.sent(session.streamFinished()) == ["not-detected"])
    }

    @Test("detect names limit what is reported, compared case-blind with _ as a space")
    func namesFilter() {
        var session = session()
        #expect(session.receive(WyomingEvent(type: "detect", data: ["names": ["Hey_Cordelia"]])).isEmpty)
        _ = session.receive(Self.start(Self.mono16k))
        #expect(session.heard([RemoteWake(phrase: "computer", audioSeconds: 1)]).isEmpty)
        _ = session.receive(.audioStop())
        #expect(Self.sent(session.streamFinished()) == ["not-detected"], "a filtered-out wake is no detection")

        var other = self.session()
        _ = other.receive(WyomingEvent(type: "detect", data: ["names": ["hey cordelia"]]))
        _ = other.receive(Self.start(Self.mono16k))
        #expect(Self.sent(other.heard([RemoteWake(phrase: "hey cordelia", audioSeconds: 1)])) == ["detection"])
    }

    @Test("a detect naming no configured phrase is an error and a close")
    func unknownName() {
        var session = session()
        let actions = session.receive(WyomingEvent(type: "detect", data: ["names": ["ok_nabu"]]))
        #expect(Self.errorCode(actions) == WyomingWakeSession.unknownNameCode)
        #expect(session.isClosed)
        if case let .send(event) = actions.first { #expect(event.string("text")?.contains("ok_nabu") == true) }
    }

    @Test("a chunk with no audio-start starts the stream in its own format")
    func implicitStart() {
        var session = session()
        let chunk = Self.chunk(Self.mono16k, frames: 160)
        #expect(session.receive(chunk) == [.begin(Self.mono16k), .feed(chunk.payload, Self.mono16k)])
        #expect(session.isStreaming)
        #expect(session.receive(chunk) == [.feed(chunk.payload, Self.mono16k)])
    }

    @Test("several detections in one stream are all sent")
    func severalDetections() {
        var session = session()
        _ = session.receive(Self.start(Self.mono16k))
        let actions = session.heard([RemoteWake(phrase: "computer", audioSeconds: 1), RemoteWake(phrase: "hey cordelia", audioSeconds: 3)])
        #expect(actions == [.send(.detection(name: "computer", timestamp: 1000)), .send(.detection(name: "hey cordelia", timestamp: 3000))])
    }

    @Test("bad audio events get an error event and a close", arguments: [
        WyomingEvent(type: "audio-start", data: ["rate": 16000, "width": 2]),
        WyomingEvent(type: "audio-start", data: ["rate": 16000, "width": 3, "channels": 1]),
        WyomingEvent(type: "audio-start", data: ["rate": 100, "width": 2, "channels": 1]),
        WyomingEvent(type: "audio-start", data: ["rate": 16000, "width": 2, "channels": 0]),
        WyomingEvent(type: "audio-chunk", data: ["rate": 16000, "width": 2, "channels": 1], payload: [1, 2, 3]),
        WyomingEvent(type: "detect", data: ["names": "computer"]),
    ])
    func badEvents(event: WyomingEvent) {
        var session = session()
        let actions = session.receive(event)
        #expect(Self.errorCode(actions) == WyomingWakeSession.badEventCode)
        #expect(actions.last == .close(reason: { if case let .send(e) = actions.first { return e.string("text") ?? "" } else { return "" } }()))
        #expect(session.isClosed)
    }

    @Test("unreadable bytes and a failed listener end the session with an error")
    func failures() {
        var session = session()
        let actions = session.unreadable(.headerTooLong(limit: 10))
        #expect(Self.errorCode(actions) == WyomingWakeSession.badEventCode)
        #expect(session.isClosed)
        var other = self.session()
        _ = other.receive(Self.start(Self.mono16k))
        #expect(Self.errorCode(other.listenerFailed(RemoteWakeError(sentence: "no model"))) == "wake-failed")
        #expect(other.listenerFailed(RemoteWakeError(sentence: "again")).isEmpty, "only once")
    }

    @Test("audio-stop without audio answers not-detected and closes")
    func stopWithoutAudio() {
        var session = session()
        #expect(Self.sent(session.receive(.audioStop())) == ["not-detected"])
        #expect(session.isClosed)
    }
}
