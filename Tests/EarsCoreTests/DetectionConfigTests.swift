import EarsCore
import Testing
import EarsConfig

/// The keys of the noise front end, the spotter and the verifier.
@Suite struct DetectionConfigTests {
    @Test("noise suppression, spotter and verifier keys are read")
    func theDetectionKeysAreRead() throws {
        let config = try ConfigParser.parse("""
        [audio]
        noise_suppression = off
        noise_suppression_db = -25
        [wake]
        spotter = transcript
        spotter_threshold = 1e-40
        verifier = no
        verifier_threshold = 0.7
        """, file: "ears.conf")
        #expect(!config.noiseSuppression)
        #expect(config.noiseSuppressionDecibels == -25)
        #expect(config.spotter == .transcript)
        #expect(config.spotterThreshold == 1e-40)
        #expect(!config.verifier)
        #expect(config.verifierThreshold == 0.7)
    }

    @Test("the defaults listen acoustically, verified, with noise suppression on")
    func theDefaultsAreAcoustic() {
        let config = EarsConfig()
        #expect(config.spotter == .keyphrase)
        #expect(config.verifier)
        #expect(config.noiseSuppressionDecibels == EarsConfig.defaultNoiseSuppressionDecibels)
    }

    @Test("a noise suppression level outside -60 to -1 dB is refused with its line and what is allowed", arguments: ["5", "-61", "0", "loud", "-15.5"])
    func aBadLevelIsRefused(value: String) {
        do {
            _ = try ConfigParser.parse("[audio]\n# level\nnoise_suppression_db = \(value)\n", file: "/etc/ears/ears.conf")
            Issue.record("\(value) was accepted")
        } catch {
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("/etc/ears/ears.conf:3:"))
            #expect(error.description.contains("-60 to -1"))
        }
    }

    @Test("an unknown spotter and an out-of-range verifier threshold are refused", arguments: [
        "[wake]\nspotter = neural\n", "[wake]\nverifier_threshold = 1.5\n", "[wake]\nspotter_threshold = 2\n",
    ])
    func badDetectionValuesAreRefused(text: String) {
        #expect(throws: ConfigError.self) { try ConfigParser.parse(text, file: "x.conf") }
    }

    @Test("changing the noise front end or the spotter reloads the engine; the verifier rebuilds only the judge")
    func reloadPlansFollowTheKeys() {
        var new = EarsConfig()
        new.noiseSuppression.toggle()
        #expect(ReloadPlan(old: EarsConfig(), new: new).rebuildEngine)
        new = EarsConfig()
        new.spotter = .transcript
        #expect(ReloadPlan(old: EarsConfig(), new: new).rebuildEngine)
        new = EarsConfig()
        new.verifierThreshold = 0.9
        let plan = ReloadPlan(old: EarsConfig(), new: new)
        #expect(plan.rebuildDetector && !plan.rebuildEngine)
    }
}
