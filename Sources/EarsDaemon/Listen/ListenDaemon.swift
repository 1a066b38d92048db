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
import EarsConfig
import EarsEngines
#endif

/// `ears listen`: the daemon's wiring. The status socket, the listen
/// socket, the audio loop on its own thread, signals (SIGTERM/SIGINT stop,
/// SIGHUP reloads) and systemd supervision; the command line that starts it
/// is EarsCLI's.
package enum ListenDaemon {
    /// Runs the daemon with `config` (already checked by `ConfigValidation`):
    /// status socket, listen socket, audio loop, signals. Returns the exit
    /// status on SIGTERM/SIGINT, or at once when a socket cannot be served.
    package static func run(_ options: ListenOptions, config: EarsConfig) -> Int32 {
        let format = EarsProgram.lineFormat
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
        guard let cue = detectCue(config, log: log) else { return EarsProgram.ExitCode.config }
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
            EarsProgram.printError("ears: cannot serve status on \(socketPath): \(error)")
            return EarsProgram.ExitCode.failure
        }
        log.info("status on \(socketPath)")

        // The listen socket: captures (and, only if ear_text is on, the recent
        // transcript) for local consumers, in the Wyoming protocol.
        let listenPath = WyomingServer.socketPath(runtimeDirectory: runtimeDirectory)
        var listenGroup: gid_t?
        if let name = config.listenSocketGroup {
            // Checked by ConfigValidation; the group can only have gone since.
            guard let group = ConfigValidation.groupID(named: name) else {
                EarsProgram.printError("ears: [listen] socket_group \(ConfigLines.quoted(name)) is not a group on this machine; create it or leave the key empty")
                server.stop()
                return EarsProgram.ExitCode.config
            }
            listenGroup = group
        }
        let listenServer: WyomingServer
        let phraseList = PhraseList(config.phrases.map(\.text))
        do {
            listenServer = try WyomingServer(socketPath: listenPath,
                                             options: .init(mode: mode_t(config.socketMode), groupID: listenGroup, version: EarsProgram.version),
                                             log: log) { phraseList.current }
        } catch {
            EarsProgram.printError("ears: cannot serve captures on \(listenPath): \(error)")
            server.stop()
            return EarsProgram.ExitCode.failure
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
            log.notice("wake phrase=\(JSONText.string(wake.phrase)) score=\(JSONText.number(wake.score, places: 3)) piece=\(wake.pieceKind.rawValue) route=\(wake.route.rawValue) t=\(JSONText.number(wake.audioSeconds, places: 2))s at=\(Date().formatted(.iso8601))")
        }
        // The Wyoming wake service (`[wyoming] uri`): remote streams, each with its own ear.
        let wakeService: WyomingWakeService?
        do {
            wakeService = try WyomingWakeSetup.start(config: config, current: { service.currentConfig }, phrases: phraseList,
                                                     board: board, version: EarsProgram.version, log: log)
        } catch {
            EarsProgram.printError("ears: cannot serve the Wyoming wake service: \(error)")
            listenServer.stop()
            server.stop()
            return EarsProgram.ExitCode.failure
        }
        let zeroconf = ZeroconfSetup.start(config: config, addresses: wakeService?.addresses ?? [], version: EarsProgram.version, log: log)
        let audioThread = Thread { service.run() }
        audioThread.name = "ears-audio"
        audioThread.start()

        // Background training (`[wake] auto_train`): a model for each phrase
        // without one, loaded by a reload on the reload queue when written.
        let reloadQueue = DispatchQueue(label: "ears.reload")
        let trainer = AutoTrainer(invocation: .init(executable: AutoTrainer.selfExecutable(fallback: CommandLine.arguments[0]),
                                                    configPath: options.overrides.configPath),
                                  log: log, publish: { meter in board.update { $0.training = meter } },
                                  reload: { reloadQueue.async { service.reload(service.currentConfig) } })
        trainer.configure(config)

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
        let reloadSource = DispatchSource.makeSignalSource(signal: SIGHUP, queue: reloadQueue)
        reloadSource.setEventHandler {
            supervision.reloading()
            if let newConfig = reload(options.overrides, into: service, log: log) { trainer.configure(newConfig) }
            supervision.reloaded()
        }
        reloadSource.resume()
        sources.append(reloadSource)
        stopRequested.wait()
        log.info("stopping")
        let stopStarted = ProcessClock.monotonicSeconds()
        trainer.stop()
        supervision.stopping()
        service.stop()
        // The audio owner notices within a chunk; a device stuck in a read
        // must not hold up shutdown, so wait at most a second. The ear's and
        // the loader's threads are not waited for (a load may be deep in C code).
        let deadline = ProcessClock.monotonicSeconds() + 1.0
        while !service.hasFinished && ProcessClock.monotonicSeconds() < deadline { usleep(10_000) }
        trainer.waitForStop(until: stopStarted + Self.trainingStopSeconds)
        cpuTimer.cancel()
        sources.forEach { $0.cancel() }
        zeroconf?.stop()
        wakeService?.stop()
        listenServer.stop()
        server.stop()
        log.info("stopped")
        return EarsProgram.ExitCode.success
    }

    /// Seconds a background training gets to stop on SIGTERM before it is
    /// killed (`ears train` stops between steps, well within this).
    static let trainingStopSeconds = 1.5

    /// SIGHUP: re-reads the configuration (same `--config` and flags). A bad
    /// file — one `check-config` would refuse — is refused with its
    /// file:line and the configuration in force stays. Returns the new
    /// configuration, or nil when it was refused.
    private static func reload(_ overrides: ConfigOverrides, into service: ListenService, log: EarsLog) -> EarsConfig? {
        let path = overrides.configPath ?? EarsConfig.defaultPath
        do throws(ConfigValidation.Problems) {
            let newConfig = try ConfigValidation.load(overrides)
            let read = overrides.configPath != nil || FileManager.default.fileExists(atPath: path)
            log.info(read ? "reload: read \(path)" : "reload: no \(path); the defaults and flags apply")
            service.reload(newConfig)
            return newConfig
        } catch {
            log.error("reload refused, the configuration in force stays: \(error.errors.map(\.description).joined(separator: "; "))")
            return nil
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
                EarsProgram.printError("ears: [capture] awake_sound \(ConfigLines.quoted(path)) \(error.description)")
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

    /// Writes `text` (whole lines) to stdout at once.
    @Sendable private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

import Synchronization
