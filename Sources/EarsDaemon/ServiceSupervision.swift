import Dispatch
import EarsCore
import EarsSystemd
import Synchronization
import EarsEngines

/// The service-manager side of `ears listen` (`Type=notify` in
/// systemd/ears.service): READY once the sockets are up, a content-free
/// STATUS line that follows the board, and WATCHDOG pings that go out only
/// while the audio loop's heartbeat is fresh (`LoopWatchdog`).
///
/// Outside systemd (no `$NOTIFY_SOCKET`) it does nothing but tick.
final class ServiceSupervision: Sendable {
    private let notifier: SystemdNotifier
    private let board: StatusBoard
    private let service: ListenService
    private let log: EarsLog
    private let queue = DispatchQueue(label: "ears.supervision")
    /// Dispatch sources may be resumed and cancelled from any thread, but
    /// Dispatch does not mark them Sendable: the one property vouched for by hand.
    nonisolated(unsafe) private let timer: DispatchSourceTimer
    /// The watchdog's state and the last STATUS line sent: used on `queue`,
    /// held in a lock so the compiler checks what the queue only promised.
    private let state: Mutex<(watchdog: LoopWatchdog?, lastStatus: String)>

    /// How often (seconds) the STATUS line is refreshed when no watchdog asks for more.
    static let statusRefreshSeconds = 1.0

    /// Prepares supervision of `service`, showing `board` in STATUS.
    init(notifier: SystemdNotifier, board: StatusBoard, service: ListenService, log: EarsLog) {
        self.notifier = notifier
        self.board = board
        self.service = service
        self.log = log
        timer = DispatchSource.makeTimerSource(queue: queue)
        state = Mutex((notifier.watchdogSeconds.map { LoopWatchdog(watchdogSeconds: $0) }, ""))
    }

    /// Sends READY=1 with the first STATUS line and starts the timer.
    func start() {
        let tick = min(Self.statusRefreshSeconds, state.withLock { $0.watchdog?.tickSeconds } ?? Self.statusRefreshSeconds)
        queue.sync {
            let line = Self.statusLine(board.snapshot())
            state.withLock { $0.lastStatus = line }
            report(notifier.ready(status: line), what: "READY")
        }
        if notifier.isSupervised {
            let seconds = notifier.watchdogSeconds.map { String($0) } ?? "off"
            log.info("systemd notification on; watchdog \(seconds == "off" ? "off" : seconds + " s")")
        }
        timer.schedule(deadline: .now() + tick, repeating: tick)
        timer.setEventHandler { [self] in self.tick() }
        timer.resume()
    }

    /// RELOADING=1 before a configuration is re-read.
    func reloading() { queue.sync { report(notifier.reloading(), what: "RELOADING") } }

    /// READY=1 again after a reload (applied or refused).
    func reloaded() {
        queue.sync {
            let line = Self.statusLine(board.snapshot())
            state.withLock { $0.lastStatus = line }
            report(notifier.ready(status: line), what: "READY")
        }
    }

    /// STOPPING=1, and no more pings.
    func stopping() {
        timer.cancel()
        queue.sync { report(notifier.stopping(), what: "STOPPING") }
    }

    private func tick() {
        let line = Self.statusLine(board.snapshot())
        let changed = state.withLock { current -> Bool in
            guard current.lastStatus != line else { return false }
            current.lastStatus = line
            return true
        }
        if changed {
            report(notifier.status(line), what: "STATUS")
        }
        guard var dog = state.withLock({ $0.watchdog }) else { return }
        switch dog.tick(now: ProcessClock.monotonicSeconds(), lastBeatAt: service.lastBeatSeconds) {
        case .ping:
            report(notifier.watchdog(), what: "WATCHDOG")
        case .recovered:
            log.notice("the audio loop is turning again; watchdog pings resume")
            report(notifier.watchdog(), what: "WATCHDOG")
        case let .holdBecauseStalled(newly):
            if newly {
                log.error("the audio loop has not turned for \(Int(dog.staleAfterSeconds)) s; holding the watchdog ping so systemd restarts ears if it stays stuck")
            }
        case .wait:
            break
        }
        state.withLock { $0.watchdog = dog }
    }

    private func report(_ result: Result<Bool, SystemdNotifyError>, what: String) {
        if case let .failure(error) = result { log.warning("systemd notification \(what) not delivered: \(error)") }
    }

    /// The STATUS= text: phase, engine, wakes, and while closed the reason
    /// (a fixed sentence about the device or model, never anything heard).
    static func statusLine(_ report: StatusReport) -> String {
        var line = "\(report.phase.rawValue); engine \(report.engine); \(report.wakes) \(report.wakes == 1 ? "wake" : "wakes")"
        if report.phase == .closed, let why = report.closedWhy { line += "; closed: " + why }
        if report.phase == .ended { line += "; the input file has ended" }
        guard line.count > SystemdNotifier.statusLimit else { return line }
        // Cut at a word so `systemctl status` shows no half word.
        var cut = String(line.prefix(SystemdNotifier.statusLimit - 1))
        if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
        return cut + "…"
    }
}
