#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import EarsCore
import Foundation
import Synchronization
import EarsPhonetics
import EarsConfig
import EarsNeural
import EarsTraining
import EarsEngines

/// `ears train "PHRASE" [--minutes N] [--voices LIST] [--seed N] [--language en|ko]`:
/// builds the phrase's neural model on this machine from synthesized speech
/// (`PhraseTrainer`) and writes it to the models directory as one file,
/// `<phrase>.wakemodel` (`ModelFileWriter`: whole or not at all).
///
/// Progress goes to stderr: one line redrawn in place on a terminal, plain
/// lines (a step every 10 %) otherwise. The result — where the file went,
/// the threshold, and the figures on held-out voices — goes to stdout.
/// Ctrl-C or SIGTERM stops it between steps; nothing is written then, and
/// the synthesizer's temp directory is removed. Exit status: 0 written,
/// 1 failed, 130 interrupted.
package enum TrainCommand {
    /// Exit status after an interruption (128 + SIGINT, as shells report it).
    static let interruptedStatus: Int32 = 130

    /// Runs the command; returns the exit status.
    package static func run(_ options: TrainOptions, config: EarsConfig, output: @escaping (String) -> Void,
                           errors: @escaping @Sendable (String) -> Void) -> Int32 {
        let language = options.language ?? (options.phrase.unicodeScalars.contains { Hangul.isSyllable($0) } ? "ko" : "en")
        let settings = PhraseTrainer.Settings(phrase: options.phrase, language: language, minutes: options.minutes,
                                              voices: options.voices, seed: options.seed)
        let directory = TrainedModels.directory(for: config)
        let name = PhraseModelDirectory.fileName(forPhrase: options.phrase)

        let interrupted = Atomic<Bool>(false)
        let signals = stopSignals { interrupted.store(true, ordering: .relaxed) }
        defer { for source in signals { source.cancel() } }

        if options.idle { lowerPriority(errors: errors) }
        let display = ProgressDisplay(style: options.progressLines ? .lines : isatty(STDERR_FILENO) == 1 ? .bar : .plain,
                                      write: errors)
        errors("ears train: \"\(options.phrase)\" (\(language)), budget \(options.minutes) min, seed \(options.seed); the model goes to \(directory)/\(name)")
        let trainer = PhraseTrainer(settings: settings,
                                    progress: { stage, done, total in display.update(stage, done: done, total: total) },
                                    note: { line in display.note(line) },
                                    isCancelled: { interrupted.load(ordering: .relaxed) })
        var check: AcousticCheck?
        do throws(TranscriberError) {
            check = try AcousticCheck(phrase: options.phrase, language: language, config: config)
        } catch {
            display.note("ears train: the acoustic route cannot load (\(error.sentence)); the model is used without comparing it")
        }
        let outcome: PhraseTrainer.Outcome
        do throws(PhraseTrainer.Failure) {
            outcome = try trainer.run(pronouncer: DetectorFactory.pronouncer(for: config),
                                      acousticHears: check.map { check in { check.hears($0, speechEndSample: $1) } })
        } catch {
            display.finish()
            errors("ears train: \(error.sentence)")
            if case .cancelled = error { return interruptedStatus }
            return 1
        }
        display.finish()
        if interrupted.load(ordering: .relaxed) {
            errors("ears train: \(PhraseTrainer.Failure.cancelled.sentence)")
            return interruptedStatus
        }
        let model = outcome.model
        let aside = options.useAnyway ? nil : outcome.comparison?.asideWhy
        let path: String
        do throws(ModelFileWriter.ModelFileError) {
            // A model worse than the acoustic route is written beside the
            // models (not read by listen or scan), so its figures can be seen.
            path = try ModelFileWriter.write(model.encoded(), directory: directory, name: aside == nil ? name : name + asideSuffix)
        } catch {
            errors("ears train: \(error.sentence)")
            return 1
        }
        // A model in use supersedes one kept aside before.
        if aside == nil { unlink(directory + "/" + name + asideSuffix) }
        for line in summary(model, path: path, comparison: outcome.comparison, usedAnyway: options.useAnyway,
                            stillWoken: outcome.stillWoken) { output(line) }
        if let aside {
            errors("ears train: kept aside: \(aside); a larger --minutes may do better, or --use-anyway uses it regardless")
            return keptAsideStatus
        }
        return 0
    }

    /// Exit status when the model was trained but kept aside (`TrainedModels.keptAsideExitStatus`).
    static let keptAsideStatus = TrainedModels.keptAsideExitStatus
    /// What a kept-aside model's file name ends in (`TrainedModels.asideSuffix`).
    static let asideSuffix = TrainedModels.asideSuffix

    /// What a person reads when training is done: the file, the threshold,
    /// the figures on the voices the model never heard, and a warning when
    /// even the highest threshold left the validation speech waking it.
    static func summary(_ model: WakeModel, path: String, comparison: RouteComparison? = nil, usedAnyway: Bool = false,
                        stillWoken: TrainingEvaluation.Figures? = nil) -> [String] {
        let percent = { (value: Double?) in value.map { "\(Int(($0 * 100).rounded()))%" } ?? "n/a" }
        let figures = model.validation
        // One recall figure per condition, with the acoustic route's on the same calls beside it when measured.
        let recall = [("clean", figures.recallClean, RouteComparison.Condition.clean),
                      ("~10 dB", figures.recallAt10dB, .near10dB), ("~5 dB", figures.recallAt5dB, .near5dB)]
            .map { label, rate, condition -> String in
                let beside = comparison.flatMap { found -> String? in
                    guard let acoustic = found.acoustic[condition], acoustic.total > 0 else { return nil }
                    return " (acoustic route \(percent(acoustic.rate)), of \(acoustic.total) calls)"
                } ?? ""
                return "\(label) \(percent(rate))\(beside)"
            }.joined(separator: ", ")
        return [
            "wrote \(path)",
            "  phrase \"\(model.phrase)\" (\(model.language)), threshold \(model.threshold), trained in \(Int(model.training.trainingSeconds)) s "
                + "on \(model.training.voices.count) speakers, \(Int(model.training.audioSeconds / 60)) min of synthesized audio",
            "  on held-out voices (\(model.training.heldOutVoices.joined(separator: ", "))): recall \(recall); "
                + "false wakes \(figures.falseWakesPerHour.map { String(format: "%.1f", $0) } ?? "n/a") per hour; "
                + "sound-alikes that wake \(percent(figures.soundAlikeWakeRate))",
        ] + (stillWoken.map { woken in
            ["  warning: at its highest threshold other speech still woke it \(woken.falseWakes) times in "
                + "\(Int((woken.negativeSeconds / 60).rounded())) min of the validation voices: expect false wakes; a longer phrase, "
                + "or one with rarer sounds, is told apart from speech more reliably"]
        } ?? []) + [
            comparison?.asideWhy == nil || usedAnyway
                ? (comparison?.asideWhy == nil ? "" : "  used anyway (--use-anyway), though the acoustic route heard more of these calls\n")
                    + "  ears listen and ears scan use it for \"\(model.phrase)\" (a running ears picks it up on SIGHUP: systemctl reload ears)"
                : "  kept aside: ears listen and ears scan keep the acoustic route for \"\(model.phrase)\"",
        ]
    }

    /// `--idle`: SCHED_IDLE (runs only when a core would otherwise idle) and
    /// nice 19 for this process; the synthesizers it starts inherit both.
    /// A failure is said and training goes on at normal priority.
    private static func lowerPriority(errors: (String) -> Void) {
        var parameters = sched_param()
        parameters.sched_priority = 0
        if sched_setscheduler(0, schedIdle, &parameters) != 0 {
            errors("ears train: cannot run at idle priority (\(String(cString: strerror(errno)))); going on at nice 19")
        }
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19) != 0 {
            errors("ears train: cannot lower the priority to nice 19 (\(String(cString: strerror(errno))))")
        }
    }

    /// Linux's SCHED_IDLE policy (linux/sched.h); Glibc hides the name
    /// without _GNU_SOURCE.
    private static let schedIdle: Int32 = 5

    /// SIGINT and SIGTERM set the flag (through `onStop`) instead of killing
    /// the process, so the run ends between steps and removes its temp files.
    private static func stopSignals(_ onStop: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return [SIGINT, SIGTERM].map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler(handler: onStop)
            source.resume()
            return source
        }
    }
}

/// Draws `TrainingProgress` on stderr from any thread: redrawn in place on
/// a terminal (at most every 0.2 s), a plain line per 10 % otherwise, or
/// (`--progress lines`, for the daemon) `progress FRACTION SECONDS_LEFT` at
/// each whole percent (`-` while too early to say how long).
final class ProgressDisplay: Sendable {
    /// How progress is drawn.
    enum Style: Sendable {
        case bar, plain, lines
    }

    private struct State {
        var progress: TrainingProgress
        var lastDrawn = -1.0
        var lastTenth = -1
        var lineOpen = false
    }

    private let style: Style
    private let write: @Sendable (String) -> Void
    private let state: Mutex<State>

    init(style: Style, write: @escaping @Sendable (String) -> Void) {
        self.style = style
        self.write = write
        state = Mutex(State(progress: TrainingProgress(startSeconds: ProcessClock.monotonicSeconds())))
    }

    func update(_ stage: TrainingProgress.Stage, done: Int, total: Int) {
        let now = ProcessClock.monotonicSeconds()
        state.withLock { state in
            state.progress.update(stage, done: done, total: total, now: now)
            let line = state.progress.line(now: now)
            switch style {
            case .lines:
                let percent = Int(state.progress.fraction * 100)
                guard percent > state.lastTenth else { return }
                state.lastTenth = percent
                let left = state.progress.secondsLeft(now: now).map { String(Int($0.rounded())) } ?? "-"
                write("progress \(JSONText.number(state.progress.fraction, places: 3)) \(left)")
            case .bar:
                guard now - state.lastDrawn >= 0.2 || done == total else { return }
                state.lastDrawn = now
                state.lineOpen = true
                writeRaw("\r\u{1B}[2K" + line)
            case .plain:
                let tenth = Int(state.progress.fraction * 10)
                guard tenth > state.lastTenth else { return }
                state.lastTenth = tenth
                write(line)
            }
        }
    }

    func note(_ line: String) {
        state.withLock { state in
            if state.lineOpen { writeRaw("\r\u{1B}[2K"); state.lineOpen = false }
            write(line)
        }
    }

    func finish() {
        state.withLock { state in
            if state.lineOpen { writeRaw("\n"); state.lineOpen = false }
        }
    }

    private func writeRaw(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
