/// What a SIGHUP reload changes, worked out from the configuration in force
/// and the newly read one, without doing any of it.
///
/// Some keys take effect in place (phrases, thresholds, matching, capture
/// limits, the ear text switch); some need the engine built again (the engine,
/// its model, its phrase boost or grammar, which also depend on the phrases);
/// the rest are bound to things opened once at start (the device, the
/// sockets, the hook) and are reported as needing a restart, while the value
/// in force stays.
package struct ReloadPlan: Sendable, Equatable {
    /// The configuration to run with after the reload: the new one, except
    /// that every key in `needsRestart` keeps its old value.
    package var effective: EarsConfig
    /// Whether the wake detector must be rebuilt (phrases, thresholds,
    /// aliases, matching or refractory time changed).
    package var rebuildDetector: Bool
    /// Whether the transcriber must be loaded again (engine, model, speech
    /// gate, phrase boost, Vosk grammar switch, or phrases, which the boost
    /// and the grammar are built from).
    package var rebuildEngine: Bool
    /// Whether the capture limits changed (they apply from the next capture).
    package var captureLimitsChanged: Bool
    /// Whether the ear text switch changed.
    package var earTextChanged: Bool
    /// `[section] key` names whose new value needs a restart; the old value stays in force.
    package var needsRestart: [String]

    /// Whether anything at all changes.
    package var changesNothing: Bool {
        !rebuildDetector && !rebuildEngine && !captureLimitsChanged && !earTextChanged
    }

    /// Plans the move from `old` (in force) to `new` (just read).
    package init(old: EarsConfig, new: EarsConfig) {
        var effective = new
        var restart: [String] = []
        func keep<Value: Equatable>(_ key: WritableKeyPath<EarsConfig, Value>, _ name: String) {
            if old[keyPath: key] != new[keyPath: key] {
                restart.append(name)
                effective[keyPath: key] = old[keyPath: key]
            }
        }
        keep(\.device, "[audio] device")
        keep(\.runtimeDirectory, "[status] runtime_directory")
        keep(\.socketMode, "[status] socket_mode")
        keep(\.listenSocketGroup, "[listen] socket_group")
        keep(\.wyomingURIs, "[wyoming] uri")
        keep(\.wyomingZeroconf, "[wyoming] zeroconf")
        keep(\.wyomingMaxStreams, "[wyoming] max_streams")
        keep(\.onWake, "[capture] on_wake")
        keep(\.hookTimeoutSeconds, "[capture] hook_timeout_seconds")
        keep(\.onDetect, "[capture] on_detect")
        keep(\.awakeSound, "[capture] awake_sound")
        keep(\.awakeSoundDevice, "[capture] awake_sound_device")

        rebuildDetector = old.phrases != effective.phrases || old.matching != effective.matching
            || old.refractorySeconds != effective.refractorySeconds
            || old.verifier != effective.verifier || old.verifierThreshold != effective.verifierThreshold
            || old.trainedContest != effective.trainedContest || old.bothRoutesVerifier != effective.bothRoutesVerifier
        rebuildEngine = old.engine != effective.engine || old.model != effective.model
            || old.speechGate != effective.speechGate || old.phraseBoost != effective.phraseBoost
            || old.voskGrammar != effective.voskGrammar
            || old.noiseSuppression != effective.noiseSuppression
            || old.noiseSuppressionDecibels != effective.noiseSuppressionDecibels
            || old.trainedDenoise != effective.trainedDenoise || old.bothRoutes != effective.bothRoutes || old.headAgreement != effective.headAgreement
            || old.headAloneScore != effective.headAloneScore || old.sureVerifierScore != effective.sureVerifierScore
            || old.bothRoutesVerifier != effective.bothRoutesVerifier
            || old.acousticOnLean != effective.acousticOnLean || old.quietRoomRaw != effective.quietRoomRaw
            || old.microphoneFloor != effective.microphoneFloor
            || old.spotter != effective.spotter || old.spotterThreshold != effective.spotterThreshold
            || old.phrases.map(\.text) != effective.phrases.map(\.text)
            || old.trainedModels != effective.trainedModels || old.modelsDirectory != effective.modelsDirectory
            || old.trainedThreshold != effective.trainedThreshold
        captureLimitsChanged = old.captureLimits != effective.captureLimits
        earTextChanged = old.earText != effective.earText
        needsRestart = restart
        self.effective = effective
    }

    /// One content-free line for the journal: what changed, what waits for a restart.
    package var summary: String {
        var parts: [String] = []
        if rebuildDetector { parts.append("wake phrases") }
        if rebuildEngine { parts.append("engine") }
        if captureLimitsChanged { parts.append("capture limits") }
        if earTextChanged { parts.append("ear text \(effective.earText ? "on" : "off")") }
        var line = parts.isEmpty ? "nothing changed that applies live" : "applied: " + parts.joined(separator: ", ")
        if !needsRestart.isEmpty {
            line += "; \(needsRestart.joined(separator: ", ")) \(needsRestart.count == 1 ? "changes" : "change") only at restart (the old value stays in force until then)"
        }
        return line
    }
}
