import Testing
@testable import EarsCore
@testable import EarsPhonetics
@testable import EarsConfig

/// What a SIGHUP changes, decided without any I/O.
@Suite struct ReloadPlanTests {
    @Test func theSameConfigurationChangesNothing() {
        let plan = ReloadPlan(old: EarsConfig(), new: EarsConfig())
        #expect(plan.changesNothing)
        #expect(plan.needsRestart.isEmpty)
        #expect(plan.effective == EarsConfig())
        #expect(plan.summary == "nothing changed that applies live")
    }

    @Test func aNewPhraseRebuildsTheDetectorAndTheEngineThatIsBoostedTowardIt() {
        var new = EarsConfig()
        new.phrases = [WakePhrase(text: "okay jarvis")]
        let plan = ReloadPlan(old: EarsConfig(), new: new)
        #expect(plan.rebuildDetector)
        #expect(plan.rebuildEngine)
        #expect(plan.effective.phrases.map(\.text) == ["okay jarvis"])
    }

    @Test func aNewThresholdRebuildsOnlyTheDetector() {
        var new = EarsConfig()
        new.phrases = [WakePhrase(text: EarsConfig.defaultPhrase, threshold: 0.9)]
        let plan = ReloadPlan(old: EarsConfig(), new: new)
        #expect(plan.rebuildDetector)
        #expect(!plan.rebuildEngine)
        #expect(plan.effective.phrases.first?.threshold == 0.9)
    }

    @Test func turningTheBothRoutesVerifierOffReloadsTheVerifierAndTheJudge() {
        var new = EarsConfig()
        new.bothRoutesVerifier = false
        let plan = ReloadPlan(old: EarsConfig(), new: new)
        #expect(plan.rebuildDetector)
        #expect(plan.rebuildEngine) // the verifier is then loaded for the phrases without a model only
        #expect(!plan.effective.bothRoutesVerifier)
    }

    @Test func captureLimitsAndTheEarTextSwitchApplyInPlace() {
        var new = EarsConfig()
        new.captureLimits = CaptureLimits(maximumSeconds: 7)
        new.earText = true
        let plan = ReloadPlan(old: EarsConfig(), new: new)
        #expect(plan.captureLimitsChanged)
        #expect(plan.earTextChanged)
        #expect(!plan.rebuildEngine && !plan.rebuildDetector)
        #expect(plan.effective.captureLimits.maximumSeconds == 7)
        #expect(plan.summary == "applied: capture limits, ear text on")
    }

    @Test func anotherEngineIsLoadedAgain() {
        var new = EarsConfig()
        new.engine = .vosk
        #expect(ReloadPlan(old: EarsConfig(), new: new).rebuildEngine)
        var gate = EarsConfig()
        gate.speechGate = false
        #expect(ReloadPlan(old: EarsConfig(), new: gate).rebuildEngine)
    }

    @Test func theDeviceAndSocketsKeepTheirOldValuesUntilARestart() {
        var new = EarsConfig()
        new.device = "hw:1"
        new.socketMode = 0o600
        new.runtimeDirectory = "/run/elsewhere"
        new.onWake = "/usr/local/bin/hook"
        new.captureLimits = CaptureLimits(maximumSeconds: 5)
        let plan = ReloadPlan(old: EarsConfig(), new: new)
        #expect(plan.needsRestart == ["[audio] device", "[status] runtime_directory", "[status] socket_mode", "[capture] on_wake"])
        #expect(plan.effective.device == "default")
        #expect(plan.effective.socketMode == EarsConfig.defaultSocketMode)
        #expect(plan.effective.runtimeDirectory == nil)
        #expect(plan.effective.onWake == nil)
        // What can apply still does.
        #expect(plan.effective.captureLimits.maximumSeconds == 5)
        #expect(plan.summary.contains("[audio] device"))
        #expect(plan.summary.contains("only at restart"))
    }
}
