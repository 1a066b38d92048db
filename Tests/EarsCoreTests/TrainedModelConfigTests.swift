@testable import EarsCore
import Testing
@testable import EarsConfig
@testable import EarsNeural
@testable import EarsPhonetics

/// Where trained models are looked for, and the keys that steer them.
@Suite struct TrainedModelConfigTests {
    @Test("the trained-model keys are read")
    func theKeysAreRead() throws {
        let config = try ConfigParser.parse("""
        [wake]
        trained_models = off
        models_directory = /srv/ears/models
        trained_threshold = 0.8
        trained_denoise = on
        quiet_room_raw = off
        microphone_floor = on
        head_agreement = 0.9
        head_alone_score = 0.999
        sure_verifier_score = 0.9
        both_routes_verifier = off
        """, file: "ears.conf")
        #expect(!config.trainedModels)
        #expect(!config.quietRoomRaw)
        #expect(config.microphoneFloor == true)
        #expect(config.trainedDenoise == true)
        #expect(config.modelsDirectory == "/srv/ears/models")
        #expect(config.trainedThreshold == 0.8)
        #expect(config.headAgreement == 0.9)
        #expect(config.headAloneScore == 0.999)
        #expect(config.sureVerifierScore == 0.9)
        #expect(!config.bothRoutesVerifier)
        #expect(try ConfigParser.parse("[wake]\nhead_alone_score = off\n", file: "f").headAloneScore == nil)
        #expect(try ConfigParser.parse("[wake]\nsure_verifier_score = off\n", file: "f").sureVerifierScore == nil)
        #expect(try ConfigParser.parse("[wake]\nmicrophone_floor = auto\n", file: "f").microphoneFloor == nil)
        #expect(try ConfigParser.parse("[wake]\nmicrophone_floor = off\n", file: "f").microphoneFloor == false)
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[wake]\nmicrophone_floor = loud\n", file: "f") }
    }

    @Test("by default trained models are used, from the state directory, at each model's own threshold")
    func theDefaultsUseTrainedModels() {
        let config = EarsConfig()
        #expect(config.trainedModels)
        #expect(config.modelsDirectory == nil)
        #expect(config.trainedThreshold == nil)
        #expect(config.trainedDenoise == nil) // auto: the models hear what they were trained on
        #expect(config.quietRoomRaw) // ...except a quiet room, heard as captured
        #expect(config.microphoneFloor == nil) // auto: the floor when every phrase has a model
        #expect(config.headAgreement == WakeJudge.headAgreementScore)
        #expect(config.bothRoutesVerifier) // a trained phrase's acoustic detection meets the verifier, then the head
    }

    @Test("trained_denoise takes auto, on and off, and names the three when refused")
    func trainedDenoiseTakesAutoOnOff() throws {
        #expect(try ConfigParser.parse("[wake]\ntrained_denoise = auto\n", file: "ears.conf").trainedDenoise == nil)
        #expect(try ConfigParser.parse("[wake]\ntrained_denoise = off\n", file: "ears.conf").trainedDenoise == false)
        do {
            _ = try ConfigParser.parse("[wake]\ntrained_denoise = maybe\n", file: "ears.conf")
            Issue.record("maybe was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains("auto, on or off"))
        }
    }

    @Test("a relative models directory is refused with its line", arguments: ["models", "./phrases"])
    func aRelativeDirectoryIsRefused(value: String) {
        do {
            _ = try ConfigParser.parse("[wake]\nmodels_directory = \(value)\n", file: "ears.conf")
            Issue.record("\(value) was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains("absolute"))
        }
    }

    @Test("the service's state directory wins over the person's")
    func theServiceStateDirectoryWins() {
        let directory = PhraseModelDirectory.resolve(configured: nil,
                                                     environment: ["STATE_DIRECTORY": "/var/lib/ears", "XDG_STATE_HOME": "/home/a/.state"],
                                                     userID: 61234)
        #expect(directory == "/var/lib/ears/phrases")
    }

    @Test("a person's models live under XDG_STATE_HOME, or ~/.local/state without it")
    func aPersonsModelsLiveInTheirStateHome() {
        #expect(PhraseModelDirectory.resolve(configured: nil, environment: ["XDG_STATE_HOME": "/home/a/.state", "HOME": "/home/a"], userID: 1000)
            == "/home/a/.state/ears/phrases")
        #expect(PhraseModelDirectory.resolve(configured: nil, environment: ["HOME": "/home/a"], userID: 1000)
            == "/home/a/.local/state/ears/phrases")
    }

    @Test("root without a state environment writes where the service reads")
    func rootUsesTheSystemStateDirectory() {
        #expect(PhraseModelDirectory.resolve(configured: nil, environment: ["HOME": "/root"], userID: 0) == "/var/lib/ears/phrases")
    }

    @Test("a configured directory is used as given")
    func aConfiguredDirectoryIsUsed() {
        #expect(PhraseModelDirectory.resolve(configured: "/srv/m", environment: ["STATE_DIRECTORY": "/var/lib/ears"], userID: 0) == "/srv/m")
    }

    @Test("spellings that fold alike share one model file; Hangul stays Hangul")
    func fileNamesFoldSpelling() {
        #expect(PhraseModelDirectory.fileName(forPhrase: "Hey Cordelia!") == "hey-cordelia.wakemodel")
        #expect(PhraseModelDirectory.fileName(forPhrase: "hey,  cordelia") == "hey-cordelia.wakemodel")
        #expect(PhraseModelDirectory.fileName(forPhrase: "코델리아 피파") == "코델리아-피파.wakemodel")
    }
}
