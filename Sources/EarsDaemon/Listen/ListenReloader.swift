import EarsCore
import EarsConfig
import EarsEngines

/// A SIGHUP's new configuration, applied without touching the audio
/// owner's thread: it works out the `ReloadPlan`, puts the new phrases,
/// capture limits and ear-text switch in force at once, and asks the loader
/// for a new engine or judge when the plan (or a changed trained model) needs
/// one. The old engine decodes until the new one is swapped in.
///
/// Called from one thread at a time (the daemon's reload queue); it never
/// waits for a load.
struct ListenReloader: Sendable {
    let shared: ListenShared
    let loader: EngineLoader
    let publisher: StatusPublisher
    let phraseList: PhraseList
    let log: EarsLog

    /// Applies `newConfig`; returns at once.
    func apply(_ newConfig: EarsConfig) {
        let plan = shared.config.withLock { config in
            let plan = ReloadPlan(old: config, new: newConfig)
            config = plan.effective
            return plan
        }
        let config = plan.effective
        phraseList.replace(config.phrases.map(\.text))
        if plan.captureLimitsChanged { shared.captureLimits.withLock { $0 = config.captureLimits } }
        shared.earText.store(config.earText, ordering: .relaxed)
        publisher.heardShown(config.earText)
        log.notice("reloaded: \(plan.summary)")
        // `ears train` may have written (or replaced) a phrase's model since
        // the engine loaded: a reload picks it up by loading the engines again.
        let modelsChanged = TrainedModels.signature(for: config) != loader.modelSignature
        log.debug("reload: rebuild engine \(plan.rebuildEngine), detector \(plan.rebuildDetector), trained models changed \(modelsChanged), engine state \(shared.engineState)")
        switch shared.engineState {
        case .ready, .loading:
            if modelsChanged { log.notice("reloaded: the trained models changed; loading the engines again") }
            if plan.rebuildEngine || modelsChanged {
                loader.request(.engine)
            } else if plan.rebuildDetector {
                loader.request(.judge)
            }
        case .notLoaded, .failed:
            // No engine to replace: the audio owner's next open loads one
            // for the configuration now in force.
            break
        }
        // While closed, a reload cuts the retry wait short, so a corrected
        // model path or device is tried at once.
        shared.nudge.store(true, ordering: .relaxed)
    }
}
