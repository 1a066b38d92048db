#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import Foundation
import Synchronization
import EarsConfig
import EarsTraining
import EarsEngines

/// Background training for `ears listen` (`[wake] auto_train`): carries out
/// `AutoTrainSchedule`'s actions by running `ears train PHRASE --idle
/// --progress lines` as a child process, one at a time, reading its progress
/// into the status board, and asking for a reload when it wrote a model.
///
/// A child process rather than a thread: training's working set (hundreds of
/// MB of features) goes back to the system when the child exits instead of
/// staying in the daemon's heap; its priority (SCHED_IDLE, nice 19) is its
/// own; and a stop is a SIGTERM that `ears train` already honours between
/// steps, writing nothing (`ModelFileWriter`).
package final class AutoTrainer: Sendable {
    /// What `configure` needs of the daemon's command line.
    package struct Invocation: Sendable {
        /// The `ears` executable to run (this one, from /proc/self/exe).
        package var executable: String
        /// `--config PATH` given to the daemon, or nil for the default path.
        package var configPath: String?

        package init(executable: String, configPath: String?) {
            self.executable = executable
            self.configPath = configPath
        }
    }

    /// The training child, by phrase and process id (the `Process` object
    /// stays with the thread that reads it and reaps it; `running` is nil
    /// again once it has been reaped, so a pid here is never a stranger's).
    private struct Running: Sendable {
        let phrase: String
        let pid: pid_t
    }

    private struct State {
        var schedule = AutoTrainSchedule()
        var running: Running?
        var minutes = EarsConfig.defaultTrainingMinutes
        var modelsDirectory = ""
    }

    private let state = Mutex(State())
    private let invocation: Invocation
    private let log: EarsLog
    private let publish: @Sendable (TrainingMeter) -> Void
    private let reload: @Sendable () -> Void

    /// A trainer that runs `invocation`'s executable, logs to `log`, hands
    /// every change of state to `publish`, and calls `reload` when a model
    /// was written (from the child's reader thread).
    package init(invocation: Invocation, log: EarsLog, publish: @escaping @Sendable (TrainingMeter) -> Void,
                 reload: @escaping @Sendable () -> Void) {
        self.invocation = invocation
        self.log = log
        self.publish = publish
        self.reload = reload
    }

    /// The running `ears` executable's path (/proc/self/exe resolved), or
    /// `fallback` when it cannot be read.
    package static func selfExecutable(fallback: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return fallback }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A configuration came in (start or SIGHUP): which phrases need a
    /// model, and whether to train at all (`auto_train` and `trained_models`).
    package func configure(_ config: EarsConfig) {
        let phrases = config.phrases.map { phrase in
            let path = TrainedModels.path(of: phrase.text, config: config)
            // A file that is there but unusable is replaced by training.
            let usable = ((try? TrainedModels.read(path, phrase: phrase.text)) ?? nil) != nil
            return AutoTrainSchedule.Phrase(text: phrase.text, hasModel: usable, asideWhy: usable ? nil : Self.asideWhy(path))
        }
        let actions = state.withLock { state in
            state.minutes = config.autoTrainMinutes
            state.modelsDirectory = TrainedModels.directory(for: config)
            return state.schedule.configure(phrases, autoTrain: config.autoTrain && config.trainedModels)
        }
        perform(actions)
    }

    /// The daemon is stopping: SIGTERM to a running training. Returns at once;
    /// `waitForStop(until:)` waits for the child.
    package func stop() {
        perform(state.withLock { $0.schedule.stopAll() })
    }

    /// Waits until no training runs or `deadline` (monotonic seconds) passes;
    /// a child still running then is killed (it may leave its temp directory,
    /// never a model file: the model is written by rename, last).
    package func waitForStop(until deadline: Double) {
        while ProcessClock.monotonicSeconds() < deadline {
            guard state.withLock({ $0.running }) != nil else { return }
            usleep(20_000)
        }
        if let running = state.withLock({ $0.running }) {
            log.error("background training of \(JSONText.string(running.phrase)) did not stop in time; killed")
            kill(running.pid, SIGKILL)
            // Until its reader has reaped it (a killed process with a large
            // heap takes a moment to go), so it does not outlive the daemon.
            let reapBy = ProcessClock.monotonicSeconds() + Self.reapSeconds
            while state.withLock({ $0.running }) != nil && ProcessClock.monotonicSeconds() < reapBy { usleep(20_000) }
        }
    }

    /// Seconds `waitForStop` waits for a killed child to be reaped.
    static let reapSeconds = 1.0

    /// The schedule's meter now.
    package var meter: TrainingMeter { state.withLock { TrainingMeter($0.schedule) } }

    private func perform(_ actions: [AutoTrainSchedule.Action]) {
        publish(meter)
        for action in actions {
            switch action {
            case let .start(phrase): start(phrase)
            case let .stop(phrase):
                guard let running = state.withLock({ $0.running }), running.phrase == phrase else { continue }
                log.notice("background training of \(JSONText.string(phrase)) stopped")
                kill(running.pid, SIGTERM)
            case .reload:
                reload()
            }
        }
    }

    private func start(_ phrase: String) {
        let (minutes, directory) = state.withLock { ($0.minutes, $0.modelsDirectory) }
        var arguments = ["train", phrase, "--idle", "--progress", "lines", "--minutes", JSONText.number(minutes, places: 2),
                         "--models-dir", directory]
        if let path = invocation.configPath { arguments += ["--config", path] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: invocation.executable)
        process.arguments = arguments
        let errors = Pipe(), output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            let why = "cannot start \(invocation.executable) train: \(error.localizedDescription)"
            log.error("background training of \(JSONText.string(phrase)) failed: \(why)")
            perform(state.withLock { $0.schedule.finished(phrase, .failed(why)) })
            return
        }
        let pid = process.processIdentifier
        state.withLock { $0.running = Running(phrase: phrase, pid: pid) }
        log.notice("training \(JSONText.string(phrase)) in the background (ears train --idle, budget \(JSONText.number(minutes, places: 1)) min); the acoustic route hears it meanwhile")
        let reader = Thread { [self] in follow(phrase, process: process, errors: errors.fileHandleForReading, output: output.fileHandleForReading) }
        reader.name = "ears-train-reader"
        reader.start()
    }

    /// Reads the child's progress until it exits, then records the outcome.
    private func follow(_ phrase: String, process: Process, errors: FileHandle, output: FileHandle) {
        var lastSentence: String?
        var pending = Data()
        while true {
            let chunk = errors.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if let (fraction, left) = Self.progress(line) {
                    state.withLock { $0.schedule.progress(phrase, fraction: fraction, secondsLeft: left) }
                    publish(meter)
                } else if line.hasPrefix("ears train: ") {
                    lastSentence = String(line.dropFirst("ears train: ".count))
                    log.debug("background training: \(line)")
                } else {
                    log.debug("background training: \(line)")
                }
            }
        }
        let summary = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let status = process.terminationStatus
        let outcome: AutoTrainSchedule.Outcome
        if process.terminationReason == .exit && status == 0 {
            outcome = .written
            for line in summary.split(separator: "\n") { log.info("background training: \(line.trimmingCharacters(in: .whitespaces))") }
            log.notice("trained \(JSONText.string(phrase)) in the background; loading its model")
        } else if process.terminationReason == .exit && status == TrainedModels.keptAsideExitStatus {
            let why = lastSentence.map { String($0.dropFirst($0.hasPrefix("kept aside: ") ? "kept aside: ".count : 0)) }
                ?? "the trained model heard fewer held-out calls than the acoustic route"
            outcome = .keptAside(why)
            log.notice("background training of \(JSONText.string(phrase)) kept its model aside: \(why)")
        } else if process.terminationReason == .uncaughtSignal || status == 130 {
            outcome = .stopped
        } else {
            let why = lastSentence ?? "ears train exited with status \(status)"
            outcome = .failed(why)
            log.error("background training of \(JSONText.string(phrase)) failed: \(why); it is tried again on reload (SIGHUP) or restart")
        }
        let actions = state.withLock { state in
            if state.running?.pid == process.processIdentifier { state.running = nil }
            return state.schedule.finished(phrase, outcome)
        }
        perform(actions)
    }

    /// Why the model at `modelPath` is kept aside, when its aside file is
    /// there (`ears train` found the acoustic route better); nil otherwise.
    static func asideWhy(_ modelPath: String) -> String? {
        let asidePath = modelPath + TrainedModels.asideSuffix
        guard FileManager.default.fileExists(atPath: asidePath) else { return nil }
        return "a model was trained but hears fewer held-out calls than the acoustic route, so it is kept aside at "
            + "\(asidePath); run ears train again (a larger --minutes may do better) or remove that file to train again"
    }

    /// `progress FRACTION SECONDS_LEFT` (`-` for unknown) read, or nil for another line.
    static func progress(_ line: String) -> (Double, Double?)? {
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "progress", let fraction = Double(parts[1]) else { return nil }
        return (fraction, Double(parts[2]))
    }
}
