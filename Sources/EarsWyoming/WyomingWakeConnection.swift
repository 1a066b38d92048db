import EarsCore
import EarsSocket
import Glibc

/// One remote client of the wake service, on its own thread: reads events,
/// runs the `WyomingWakeSession`, performs its actions (writes, and feeds
/// the connection's own `RemoteWakeListener`), until the session closes, the
/// client hangs up or the service stops.
///
/// Nothing here is shared with other connections but the service's meters;
/// the listener is built on this thread, used only here and released with
/// the connection (its engine, ear and rings with it).
final class WyomingWakeConnection: @unchecked Sendable {
    // @unchecked: handed to its thread once at start and used only there.
    let id: UInt64
    private let stream: UnixStream
    private let service: WyomingWakeService
    private var session: WyomingWakeSession
    private var reader: WyomingEventReader
    private var listener: (any RemoteWakeListener)?
    /// Why the connection ended, for the log (set by `.close`).
    private var closeReason: String?

    init(id: UInt64, stream: UnixStream, service: WyomingWakeService) {
        self.id = id
        self.stream = stream
        self.service = service
        reader = WyomingEventReader(limits: service.options.readerLimits)
        let phrases = service.phrases()
        session = WyomingWakeSession(phrases: phrases,
                                     info: .info(wakePhrases: phrases, version: service.options.version,
                                                 languages: service.options.languages))
    }

    /// The connection's whole life; returns when it is closed.
    func run() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let idleLimit = service.options.idleTimeoutSeconds
        var lastHeard = MonotonicClock.seconds()
        readLoop: while closeReason == nil && !service.stopping.load(ordering: .relaxed) {
            do {
                guard try stream.waitReadable(timeoutMilliseconds: WyomingWakeService.pollMilliseconds) else {
                    if MonotonicClock.seconds() - lastHeard > idleLimit {
                        closeReason = "nothing received for \(Int(idleLimit)) s"
                    }
                    continue
                }
                guard let count = try stream.receive(into: &buffer) else { continue }
                if count == 0 {
                    closeReason = "hung up"
                    break readLoop
                }
                lastHeard = MonotonicClock.seconds()
                reader.append(buffer[0..<count])
            } catch {
                closeReason = "read failed: \(error)"
                break readLoop
            }
            while closeReason == nil {
                let event: WyomingEvent?
                do {
                    event = try reader.nextEvent()
                } catch {
                    perform(session.unreadable(error))
                    break
                }
                guard let event else { break }
                perform(session.receive(event))
            }
        }
        releaseSlot()
        linger()
        stream.close()
        let reason = closeReason ?? "service stopping"
        service.log.info("wyoming wake: client \(id) disconnected (\(reason))")
    }

    /// Performs `actions` in order; the listener's wakes and the end of a
    /// stream feed further actions back through the session.
    private func perform(_ actions: [WyomingWakeSession.Action]) {
        // The session's last words (`not-detected`, `error`) come with its
        // close: the slot goes back before they are written, so a client
        // that reconnects as soon as it reads them is admitted.
        if actions.contains(where: { if case .close = $0 { true } else { false } }) { releaseSlot() }
        for action in actions where closeReason == nil {
            switch action {
            case let .send(event):
                send(event)
            case let .begin(format):
                do throws(RemoteWakeError) {
                    if listener == nil { listener = try service.makeListener() }
                    try listener?.begin(format)
                } catch {
                    fail(error)
                }
            case let .feed(payload, format):
                service.updateMeter { $0.audioSeconds += format.seconds(ofBytes: payload.count) }
                guard let listener else { continue }
                do throws(RemoteWakeError) {
                    perform(session.heard(try listener.feed(payload, format: format)))
                } catch {
                    fail(error)
                }
            case .finish:
                do throws(RemoteWakeError) {
                    if let listener { perform(session.heard(try listener.finish())) }
                    perform(session.streamFinished())
                } catch {
                    fail(error)
                }
            case let .close(reason):
                closeReason = reason
            }
        }
    }

    /// Whether `releaseSlot` has run.
    private var released = false

    /// Gives the listener (its engine loaded) back to the service and frees
    /// this connection's stream slot, once: the stream is over, so a client
    /// that reconnects at once (Home Assistant and satellites open a
    /// connection per pipeline run) is admitted and finds the engine loaded,
    /// instead of `busy` or a second load.
    private func releaseSlot() {
        guard !released else { return }
        released = true
        if let listener { service.recycle(listener) }
        listener = nil
        service.updateMeter { $0.openConnections -= 1 }
    }

    /// Longest wait, in seconds, for a closed session's client to stop sending.
    static let lingerSeconds = 1.0

    /// Ends the sending side (the client reads what was sent, then end of
    /// stream) and discards what the client still sends, for at most
    /// `lingerSeconds`: closing with unread bytes queued would make TCP
    /// reset the connection, and a reset can destroy the `error` event
    /// before the client reads it.
    private func linger() {
        stream.shutdownWrite()
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = MonotonicClock.seconds() + Self.lingerSeconds
        while let count = try? stream.receive(into: &scratch, deadlineSeconds: deadline, timeoutSeconds: Self.lingerSeconds),
              count > 0 {}
    }

    /// The listener failed: logged, then the session's `error` event and close.
    private func fail(_ error: RemoteWakeError) {
        service.log.warning("wyoming wake: client \(id): \(error.sentence)")
        perform(session.listenerFailed(error))
    }

    /// Writes `event`, waiting at most `writeTimeoutSeconds` for room;
    /// counts detections and errors in the meters.
    private func send(_ event: WyomingEvent) {
        switch event.type {
        case WyomingEvent.EventType.detection:
            let name = event.string("name") ?? ""
            service.updateMeter { $0.detections[name, default: 0] += 1 }
        case "error":
            service.updateMeter { $0.errors += 1 }
            service.log.warning("wyoming wake: client \(id): sent error: \(event.string("text") ?? "")")
        default:
            break
        }
        let bytes = event.encoded()
        var written = 0
        let deadline = MonotonicClock.seconds() + service.options.writeTimeoutSeconds
        do {
            while written < bytes.count {
                let count = try stream.sendSome(bytes, from: written)
                written += count
                guard count == 0 else { continue }
                let remaining = deadline - MonotonicClock.seconds()
                guard remaining > 0 else {
                    closeReason = "the client took nothing for \(Int(service.options.writeTimeoutSeconds)) s"
                    return
                }
                var fds = [pollfd(fd: stream.descriptor, events: Int16(POLLOUT), revents: 0)]
                try SocketCall.poll(&fds, timeoutMilliseconds: Int32((remaining * 1000).rounded(.up)), path: stream.path)
            }
        } catch {
            closeReason = "write failed: \(error)"
        }
    }
}
