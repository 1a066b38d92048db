import Dispatch
import EarsALSA
import EarsCore
import EarsFiles
import EarsSocket
import EarsStatus
import EarsSystemd
import EarsWyoming
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `ears` program: parses the command line and runs a command.
public enum EarsMain {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// Exit statuses, documented in docs/operations.md.
    public enum ExitCode {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        /// Bad command line (EX_USAGE).
        public static let usage: Int32 = 64
        /// Bad configuration (EX_CONFIG).
        public static let config: Int32 = ConfigError.exitCode
    }

    /// Runs `ears` with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        let invocation: Invocation
        do throws(UsageError) {
            invocation = try Arguments.parse(arguments)
        } catch {
            printError(error.description)
            return ExitCode.usage
        }
        switch invocation {
        case .help:
            say(Arguments.usage)
            return ExitCode.success
        case .version:
            say("ears \(version)")
            return ExitCode.success
        case let .checkConfig(overrides):
            guard let config = loadCheckedConfig(overrides) else { return ExitCode.config }
            say("configuration OK: engine \(config.engine.rawValue), device \(config.device), phrases \(config.phrases.map { "\"\($0.text)\"" }.joined(separator: ", "))")
            return ExitCode.success
        case let .tap(overrides):
            guard let config = loadConfig(overrides) else { return ExitCode.config }
            let socketPath = ConfigLoader.runtimeDirectory(for: config) + "/status.sock"
            do throws(StatusClient.Failure) {
                let answer = try StatusClient.get("/tap", socketPath: socketPath, method: "POST")
                say(answer.status == 202 ? "tap: a capture starts now" : "tap: the daemon answered \(answer.status)")
                return answer.status == 202 ? ExitCode.success : ExitCode.failure
            } catch {
                printError("ears tap: \(error.description)")
                return ExitCode.failure
            }
        case let .follow(overrides, wav):
            guard let config = loadConfig(overrides) else { return ExitCode.config }
            return FollowCommand.run(config: config, wav: wav, output: say, errors: printError)
        case let .status(overrides):
            guard let config = loadConfig(overrides) else { return ExitCode.config }
            let socketPath = ConfigLoader.runtimeDirectory(for: config) + "/status.sock"
            do throws(StatusClient.Failure) {
                let answer = try StatusClient.get("/ears", socketPath: socketPath)
                say(answer.body)
                return answer.status == 200 ? ExitCode.success : ExitCode.failure
            } catch {
                printError("ears status: \(error.description)")
                return ExitCode.failure
            }
        case let .modelStatus(overrides, json):
            guard let config = loadConfig(overrides) else { return ExitCode.config }
            return ModelStatusCommand.run(config: config, json: json, output: say)
        case let .soundAlikes(options):
            guard let config = loadConfig(options.overrides) else { return ExitCode.config }
            return SoundAlikesCommand.run(options, config: config, output: say)
        case let .train(options):
            guard let config = loadConfig(options.overrides) else { return ExitCode.config }
            return TrainCommand.run(options, config: config, output: say, errors: printError)
        case let .scan(options):
            guard let config = loadConfig(options.overrides) else { return ExitCode.config }
            let format = errorFormat
            let log = EarsLog(debugEnabled: options.verbose) { level, message in
                FileHandle.standardError.write(Data(format.text(level, message).utf8))
            }
            return ScanCommand.run(options, config: config, output: say, errors: printError, log: log)
        case let .listen(options):
            if let input = options.inputFile, let refusal = InputKind(path: input).listenRefusal(path: input) {
                printError(refusal)
                return ExitCode.usage
            }
            guard let config = loadCheckedConfig(options.overrides) else { return ExitCode.config }
            return listen(options, config: config)
        }
    }

    private static func loadConfig(_ overrides: ConfigOverrides) -> EarsConfig? {
        do throws(ConfigError) {
            return try ConfigLoader.load(overrides)
        } catch {
            printError(error.description)
            return nil
        }
    }

    /// The configuration, checked against the machine (`ConfigValidation`):
    /// what `check-config` passes is what `listen` starts with.
    private static func loadCheckedConfig(_ overrides: ConfigOverrides) -> EarsConfig? {
        do throws(ConfigValidation.Problems) {
            return try ConfigValidation.load(overrides)
        } catch {
            printError(error.description)
            return nil
        }
    }

    /// `ears listen`: status socket, audio loop, signals. Returns on SIGTERM/SIGINT.
    private static func listen(_ options: ListenOptions, config: EarsConfig) -> Int32 {
        let format = lineFormat
        let log = EarsLog(debugEnabled: options.verbose) { level, message in
            write(format.text(level, message))
        }
        log.info(configFileLine(options.overrides))
        // Block the stop signals before any thread starts, so every thread
        // inherits the mask and the dispatch sources below cannot miss one.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let taps = TapRequests()
        var consumers: [any CaptureConsumer] = []
        let hook = config.onWake.map { ExecHook(path: $0, timeoutSeconds: config.hookTimeoutSeconds, log: log) }
        if let hook { consumers.append(hook) }
        guard let cue = detectCue(config, log: log) else { return ExitCode.config }
        let board = StatusBoard(engine: config.engine.rawValue, model: EngineFactory.modelLabel(for: config),
                                clock: ProcessClock.monotonicSeconds)
        board.update { $0.heardShown = config.earText }
        let runtimeDirectory = ConfigLoader.runtimeDirectory(for: config)
        let socketPath = runtimeDirectory + "/status.sock"
        let server: StatusServer
        do {
            try RuntimeDirectory.prepare(runtimeDirectory)
            server = try StatusServer(socketPath: socketPath, mode: mode_t(config.socketMode)) { request in
                log.debug("status socket: \(JSONText.string(String(request.method.prefix(16)))) \(JSONText.string(String(request.path.prefix(80))))")
                return StatusRoutes.answer(request, board: board, taps: taps)
            }
        } catch {
            printError("ears: cannot serve status on \(socketPath): \(error)")
            return ExitCode.failure
        }
        log.info("status on \(socketPath)")

        // The listen socket: captures (and, only if ear_text is on, the recent
        // transcript) for local consumers, in the Wyoming protocol.
        let listenPath = WyomingServer.socketPath(runtimeDirectory: runtimeDirectory)
        var listenGroup: gid_t?
        if let name = config.listenSocketGroup {
            // Checked by ConfigValidation; the group can only have gone since.
            guard let group = ConfigValidation.groupID(named: name) else {
                printError("ears: [listen] socket_group \(ConfigLines.quoted(name)) is not a group on this machine; create it or leave the key empty")
                server.stop()
                return ExitCode.config
            }
            listenGroup = group
        }
        let listenServer: WyomingServer
        let phraseList = PhraseList(config.phrases.map(\.text))
        do {
            listenServer = try WyomingServer(socketPath: listenPath,
                                             options: .init(mode: mode_t(config.socketMode), groupID: listenGroup, version: version),
                                             log: log) { phraseList.current }
        } catch {
            printError("ears: cannot serve captures on \(listenPath): \(error)")
            server.stop()
            return ExitCode.failure
        }
        let listenConsumer = ListenSocketConsumer(server: listenServer)
        consumers.insert(listenConsumer, at: 0)
        log.info("captures on \(listenPath)")

        // Called only while [listen] ear_text is on (the service checks, so a reload can switch it).
        let earTextSink: @Sendable (String) -> Void = { text in listenConsumer.earText(text) }
        let source: any AudioSource = options.inputFile.map { SoundFileSource(path: $0, pacedAtRealTime: true) }
            ?? AlsaMicrophone(device: config.device)
        let service = ListenService(config: config, source: source, board: board, log: log,
                                    consumers: consumers, taps: taps,
                                    earText: earTextSink, phraseList: phraseList) { wake in
            // The cue first: it only queues work, and it is what a person waits for.
            if cue.isActive { cue.detected(wake) }
            log.notice("wake phrase=\(JSONText.string(wake.phrase)) score=\(JSONText.number(wake.score, places: 3)) piece=\(wake.pieceKind.rawValue) t=\(JSONText.number(wake.audioSeconds, places: 2))s at=\(Date().formatted(.iso8601))")
        }
        // The Wyoming wake service (`[wyoming] uri`): remote streams, each with its own ear.
        let wakeService: WyomingWakeService?
        do {
            wakeService = try WyomingWakeSetup.start(config: config, current: { service.currentConfig }, phrases: phraseList,
                                                     board: board, version: version, log: log)
        } catch {
            printError("ears: cannot serve the Wyoming wake service: \(error)")
            listenServer.stop()
            server.stop()
            return ExitCode.failure
        }
        let zeroconf = ZeroconfSetup.start(config: config, addresses: wakeService?.addresses ?? [], version: version, log: log)
        let audioThread = Thread { service.run() }
        audioThread.name = "ears-audio"
        audioThread.start()

        // CPU % is sampled on its own timer so it keeps moving while closed.
        let meterQueue = DispatchQueue(label: "ears.meter")
        let cpuTimer = DispatchSource.makeTimerSource(queue: meterQueue)
        let cpuMeter = Mutex(CPUMeter())
        cpuTimer.schedule(deadline: .now(), repeating: 1.0)
        cpuTimer.setEventHandler {
            let percent = cpuMeter.withLock { meter -> Double in
                meter.record(cpuSeconds: ProcessClock.cpuSeconds(), wallSeconds: ProcessClock.monotonicSeconds())
                return meter.percent
            }
            let hookCounts = hook?.snapshot
            board.update {
                $0.cpuPercent = percent
                $0.hook = hookCounts.map { ($0.runs, $0.failures, $0.killed, $0.seconds) }
            }
        }
        cpuTimer.resume()

        // systemd: READY now that both sockets are up (listening or closed
        // with a reason both count), then STATUS and watchdog pings.
        let supervision = ServiceSupervision(notifier: SystemdNotifier(), board: board, service: service, log: log)
        supervision.start()

        let stopRequested = DispatchSemaphore(value: 0)
        let signalQueue = DispatchQueue(label: "ears.signals")
        var sources: [DispatchSourceSignal] = []
        for signal in [SIGTERM, SIGINT] {
            let signalSource = DispatchSource.makeSignalSource(signal: signal, queue: signalQueue)
            signalSource.setEventHandler { stopRequested.signal() }
            signalSource.resume()
            sources.append(signalSource)
        }
        // SIGHUP on a queue of its own: reading a huge or slow configuration
        // file must never delay the SIGTERM handler behind it.
        let reloadQueue = DispatchQueue(label: "ears.reload")
        let reloadSource = DispatchSource.makeSignalSource(signal: SIGHUP, queue: reloadQueue)
        reloadSource.setEventHandler {
            supervision.reloading()
            reload(options.overrides, into: service, log: log)
            supervision.reloaded()
        }
        reloadSource.resume()
        sources.append(reloadSource)
        stopRequested.wait()
        log.info("stopping")
        supervision.stopping()
        service.stop()
        // The audio owner notices within a chunk; a device stuck in a read
        // must not hold up shutdown, so wait at most a second. The ear's and
        // the loader's threads are not waited for (a load may be deep in C code).
        let deadline = ProcessClock.monotonicSeconds() + 1.0
        while !service.hasFinished && ProcessClock.monotonicSeconds() < deadline { usleep(10_000) }
        cpuTimer.cancel()
        sources.forEach { $0.cancel() }
        zeroconf?.stop()
        wakeService?.stop()
        listenServer.stop()
        server.stop()
        log.info("stopped")
        return ExitCode.success
    }

    /// SIGHUP: re-reads the configuration (same `--config` and flags). A bad
    /// file — one `check-config` would refuse — is refused with its
    /// file:line and the configuration in force stays.
    private static func reload(_ overrides: ConfigOverrides, into service: ListenService, log: EarsLog) {
        let path = overrides.configPath ?? EarsConfig.defaultPath
        do throws(ConfigValidation.Problems) {
            let newConfig = try ConfigValidation.load(overrides)
            let read = overrides.configPath != nil || FileManager.default.fileExists(atPath: path)
            log.info(read ? "reload: read \(path)" : "reload: no \(path); the defaults and flags apply")
            service.reload(newConfig)
        } catch {
            log.error("reload refused, the configuration in force stays: \(error.errors.map(\.description).joined(separator: "; "))")
        }
    }

    /// The `[capture] on_detect` / `awake_sound` cue for `config`, its WAV
    /// read now (it was checked at load; it can only have gone since), or
    /// nil after saying why on stderr.
    private static func detectCue(_ config: EarsConfig, log: EarsLog) -> DetectCue? {
        var sound: AwakeSound?
        if let path = config.awakeSound {
            do throws(AwakeSound.Problem) {
                let read = try ConfigValidation.readAwakeSound(path)
                log.debug("awake sound \(path): \(read.sampleRate) Hz, \(read.channels) channel(s), \(JSONText.number(read.seconds, places: 2)) s, on \(config.awakeSoundDevice)")
                sound = read
            } catch {
                printError("ears: [capture] awake_sound \(ConfigLines.quoted(path)) \(error.description)")
                return nil
            }
        }
        return DetectCue(hookPath: config.onDetect, timeoutSeconds: config.hookTimeoutSeconds,
                         sound: sound, soundDevice: config.awakeSoundDevice, log: log)
    }

    /// Which configuration file `listen` runs with, for its first log line
    /// (the same test `ConfigLoader` makes: `--config` must exist, the
    /// default path is read only when it does).
    static func configFileLine(_ overrides: ConfigOverrides) -> String {
        let path = overrides.configPath ?? EarsConfig.defaultPath
        let read = overrides.configPath != nil || FileManager.default.fileExists(atPath: path)
        return read ? "configuration read from \(path)" : "no configuration file at \(path); running on the defaults and the command-line flags"
    }

    /// How log lines (stdout) are written: with `<N>` priorities when the
    /// output is the journal (`JOURNAL_STREAM`, not a terminal), as before otherwise.
    static let lineFormat = LogLineFormat(environment: ProcessInfo.processInfo.environment,
                                          outputIsTerminal: isatty(STDOUT_FILENO) == 1)
    /// The same for error lines on stderr.
    static let errorFormat = LogLineFormat(environment: ProcessInfo.processInfo.environment,
                                           outputIsTerminal: isatty(STDERR_FILENO) == 1)

    /// Writes one line to stdout at once (unbuffered, so the journal and
    /// tests see each line as it happens).
    @Sendable static func say(_ message: String) {
        write(message + "\n")
    }

    /// Writes `text` (whole lines) to stdout at once.
    @Sendable private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// An error line on stderr; `<3>`-prefixed when stderr is the journal.
    @Sendable private static func printError(_ message: String) {
        FileHandle.standardError.write(Data(errorFormat.bare(.error, message).utf8))
    }
}

import Synchronization
