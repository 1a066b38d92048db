import EarsCore
import Synchronization
import EarsWyoming

/// The listen socket as a capture consumer: each capture goes out as Wyoming
/// events, `detection` (name = the phrase), `audio-start` (16 kHz, 2 bytes,
/// mono), `audio-chunk`s with PCM, `audio-stop`. `WyomingServer.send` never
/// blocks: each client has a bounded queue that drops its oldest events.
package final class ListenSocketConsumer: CaptureConsumer {
    package let consumerName = "listen_socket"
    /// The server the events go to.
    package let server: WyomingServer
    private let timestamps = TimestampClock()

    /// Hands captures to `server`'s clients.
    package init(server: WyomingServer) {
        self.server = server
    }

    /// Events dropped for clients that fell behind.
    package var droppedChunks: Int { server.droppedEvents }

    package func captureBegan(_ info: CaptureInfo) {
        timestamps.begin()
        if info.source == .wake {
            server.send(.detection(name: info.phrase, timestamp: Int(info.timestampMilliseconds)))
        }
        server.send(.audioStart(timestamp: 0))
    }

    package func captureAudio(_ samples: [Int16]) {
        // Wyoming timestamps are milliseconds of audio since audio-start.
        server.send(.audioChunk(samples: samples, timestamp: timestamps.advance(by: samples.count)))
    }

    package func captureEnded(_ reason: CaptureStateMachine.StopReason) {
        server.send(.audioStop(timestamp: timestamps.current))
    }

    /// Sends the recent transcript to the owner's clients: only when the
    /// `ear_text` switch is on, and only ever on this socket.
    package func earText(_ text: String) {
        server.send(WyomingEvent(type: "transcript", data: ["text": .string(text)]))
    }
}

/// Milliseconds of captured audio, for chunk timestamps. Used from the
/// audio thread only; an atomic makes that checked rather than promised.
private final class TimestampClock: Sendable {
    private let samples = Atomic<Int>(0)
    func begin() { samples.store(0, ordering: .relaxed) }
    var current: Int { samples.load(ordering: .relaxed) * 1000 / AudioFormat.sampleRate }
    func advance(by count: Int) -> Int {
        samples.add(count, ordering: .relaxed).oldValue * 1000 / AudioFormat.sampleRate
    }
}
