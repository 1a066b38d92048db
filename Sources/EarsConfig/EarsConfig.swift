import EarsCore
import EarsPhonetics
/// Everything ears can be told, with the defaults a fresh install runs with.
/// Read from ears.conf (`ConfigParser`), then overridden by command-line flags.
/// Every key is documented in docs/configuration.md.
package struct EarsConfig: Sendable, Equatable {
    /// Where the daemon looks when `--config` is not given.
    package static let defaultPath = "/etc/ears/ears.conf"
    /// The phrase listened for when none is configured.
    package static let defaultPhrase = "hey cordelia"
    /// PocketSphinx phrase boost when none is configured (see docs/performance.md).
    package static let defaultPhraseBoost = 1000.0
    /// Noise suppression level when none is configured, in dB (see docs/benchmark.md).
    package static let defaultNoiseSuppressionDecibels = -15
    /// Keyphrase threshold when none is configured (see docs/benchmark.md).
    package static let defaultSpotterThreshold = 1e-30
    /// Verifier threshold when none is configured: chosen by
    /// bench/fit_verifier.py with the weights (`VerifierWeights`).
    package static let defaultVerifierThreshold = VerifierWeights.threshold
    /// Mode of the status socket file when none is configured.
    package static let defaultSocketMode: UInt32 = 0o660

    /// `[audio] device`: ALSA capture device name.
    package var device = "default"
    /// `[audio] noise_suppression`: whether the engines hear denoised audio
    /// (libspeexdsp); the ring and captures keep the raw audio either way.
    package var noiseSuppression = true
    /// `[audio] noise_suppression_db`: how far noise is pushed down, in dB (-60 to -1).
    package var noiseSuppressionDecibels = EarsConfig.defaultNoiseSuppressionDecibels
    /// `[engine] engine`: which transcriber runs.
    package var engine: EngineKind = .pocketsphinx
    /// `[engine] model`: model directory; nil means the engine's installed default.
    package var model: String?
    /// `[engine] phrase_boost`: how strongly PocketSphinx's language model leans
    /// toward the phrases, as a multiple of a uniform word probability; 0 is off.
    package var phraseBoost: Double = EarsConfig.defaultPhraseBoost
    /// `[engine] speech_gate`: whether silence and steady noise are kept from
    /// the transcriber (the ring and the meter still see every chunk).
    package var speechGate = true
    /// `[engine] vosk_grammar`: whether Vosk decodes with a small grammar of
    /// the phrases plus filler words (on) or its full language model (off).
    package var voskGrammar = true
    /// `[wake] phrase` (repeatable): the phrases, each with its threshold.
    package var phrases: [WakePhrase] = [WakePhrase(text: EarsConfig.defaultPhrase)]
    /// `[wake] matching`: compare sounds (phonetic) or written letters.
    package var matching: Matching = .phonetic
    /// `[wake] spotter`: how PocketSphinx finds candidates (Vosk always transcribes).
    package var spotter: Spotter = .keyphrase
    /// `[wake] spotter_threshold`: PocketSphinx's keyphrase threshold, a
    /// likelihood ratio (e.g. 1e-30); lower finds more candidates.
    package var spotterThreshold = EarsConfig.defaultSpotterThreshold
    /// `[wake] verifier`: whether each candidate is rescored on its own audio
    /// before it wakes (PocketSphinx model; English phrases).
    package var verifier = true
    /// `[wake] verifier_threshold`: the calibrated score (0…1) a candidate needs.
    package var verifierThreshold = EarsConfig.defaultVerifierThreshold
    /// `[wake] trained_models`: whether a phrase with a model from `ears train`
    /// is heard by it (on) or every phrase by the acoustic route (off).
    package var trainedModels = true
    /// `[wake] auto_train`: whether the daemon trains a model by itself for
    /// each configured phrase without one (at idle priority, one at a time;
    /// the acoustic route hears the phrase meanwhile). Needs `trained_models`.
    package var autoTrain = true
    /// `[wake] auto_train_minutes`: the wall-time budget of one background
    /// training, in minutes (as `ears train --minutes`).
    package var autoTrainMinutes = EarsConfig.defaultTrainingMinutes
    /// The default training budget in minutes, sized to finish one phrase on 2 cores.
    package static let defaultTrainingMinutes = 8.0
    /// `[wake] models_directory`: where trained models live; nil means the
    /// environment decides (`PhraseModelDirectory`).
    package var modelsDirectory: String?
    /// `[wake] trained_contest`: whether a trained model's detection is
    /// refused when the verifier's contest of the phrase against its
    /// sound-alikes picks a sound-alike (needs `verifier = on`, English).
    /// Off by default: measured on the benchmark (docs/training.md, issue
    /// 20), the contest refused about half of the real calls the models
    /// heard (ears trained 58% of calls clean with it, 90% without), for
    /// 4.58 instead of 16 false wakes per hour, most of them one phrase's.
    package var trainedContest = false
    /// `[wake] both_routes`: whether a phrase with a trained model is also
    /// heard by the acoustic route (PocketSphinx; English phrases), whose
    /// detection wakes when the phrase's head agrees: it reached
    /// `headAgreement` near the detection. The head still wakes alone at its
    /// own threshold. Issue 20's "two experts": the acoustic model, trained
    /// on people, hears voices the head does not.
    package var bothRoutes = true
    /// `[wake] head_agreement`: the score (0…1) a phrase's head must reach
    /// near an acoustic detection of the phrase for it to wake, and the
    /// lean around which the acoustic route listens (`acousticOnLean`).
    /// Higher: fewer near-miss wakes by the acoustic route, fewer calls it
    /// rescues (docs/benchmark-head-agreement.md).
    package var headAgreement = WakeJudge.headAgreementScore
    /// `[wake] head_alone_score`: with `bothRoutes`, the score (0.5…1) a
    /// trained head's detection needs to wake alone; below it (but over
    /// the model's threshold) the detection is only the head's agreement,
    /// and the phrase wakes when the acoustic route detects it too (its
    /// verifier and this agreement deciding). nil: the head wakes alone at
    /// its model's threshold (the default). Why: the heads' false wakes on
    /// other speech sit at 0.97–0.999, where the acoustic route rarely
    /// detects the phrase; measured (docs/benchmark-head-alone.md), 0.995 and
    /// 0.999 took false wakes per hour of read speech from 4.99 to 1.81 and
    /// 0.45, but calls in a room from 47.9 to 35.8 and 26.1%: off by default.
    package var headAloneScore: Double?
    /// `[wake] sure_verifier_score`: with `bothRoutes`, the verifier's
    /// calibrated score (0.55…1) at which an acoustic detection of a phrase
    /// with a trained model needs only a faint lean of its head
    /// (`WakeJudge.faintHeadAgreementScore`, 0.05) instead of
    /// `headAgreement`; the heads are watched at that lean too, and the
    /// acoustic route listens around it. nil: every acoustic detection of
    /// such a phrase needs `headAgreement`. Why: on a voice the heads never
    /// heard they can be all but deaf where PocketSphinx's model, trained
    /// on people, is sure. Off by default: measured on the benchmark's full
    /// streams (docs/training.md), 0.8 and 0.9 heard 3 more of the held-out
    /// engines' 60 clean calls but woke on 2–4 more near-miss sentences and
    /// took the CPU on speech from 0.027 to 0.041 s per audio s.
    package var sureVerifierScore: Double?
    /// `[wake] both_routes_verifier`: with `bothRoutes`, whether the
    /// acoustic route's detection of a phrase with a trained model is also
    /// put to the verifier before the head's agreement decides it. On by
    /// default: off, the agreement alone (at 0.7–0.9) heard more calls in
    /// noise, babble, rooms and far away, but fewer clean from the held-out
    /// voices and three to six times the false wakes in noisy read speech
    /// (docs/benchmark-agreement-alone.md, docs/training.md). Off or on,
    /// the verifier judges the phrases without a model.
    package var bothRoutesVerifier = true
    /// `[wake] acoustic_on_lean`: with `bothRoutes`, when every phrase has a
    /// trained model, the acoustic engine hears only the seconds around a
    /// moment a head leaned towards its phrase (`HeadLeanGate`) instead of
    /// all speech: the detections it can then no longer make are ones the
    /// heads would not have agreed with. Off: it hears all speech (behind
    /// the speech gate), at about four times the heads' CPU.
    package var acousticOnLean = true
    /// `[wake] trained_denoise`: whether trained models hear the audio
    /// through the noise suppressor (`noise_suppression`,
    /// `noise_suppression_db`) instead of as captured; nil (`auto`, the
    /// default): as their models were trained (`WakeModel.heardDenoised`).
    package var trainedDenoise: Bool?
    /// `[wake] quiet_room_raw`: trained models that hear denoised audio hear
    /// it as captured while the room's noise floor says it is quiet
    /// (`QuietRoomDetector`): the suppressor costs a quiet room's calls.
    /// On by default since issue 20 (docs/benchmark-quiet-room.md).
    package var quietRoomRaw = true
    /// `[wake] microphone_floor`: every engine hears a microphone's own
    /// noise (pink, −74 dBFS: `MicrophoneFloor`) under the audio, so digital
    /// silence never reaches one; the ring a capture hands on is as captured.
    /// nil (`auto`, the default): on when every phrase has a trained model
    /// — measured, it gave the trained heads more calls in digital silence
    /// and fewer near-miss wakes, while the acoustic route alone woke more
    /// often on speech (docs/benchmark-microphone-floor.md,
    /// docs/benchmark-quick-microphone-floor.md).
    package var microphoneFloor: Bool?
    /// `[wake] trained_threshold`: the score (0…1) a trained model's head
    /// needs; nil means each model's own threshold, chosen when it was trained.
    package var trainedThreshold: Double?
    /// `[wake] refractory_seconds`: seconds of audio before the same phrase may fire again.
    package var refractorySeconds = WakeDetector.defaultRefractorySeconds
    /// `[status] runtime_directory`: where sockets live; nil means the environment decides.
    package var runtimeDirectory: String?
    /// `[status] socket_mode`: permission bits of the status socket (octal in the file).
    package var socketMode: UInt32 = EarsConfig.defaultSocketMode

    /// `[capture] max_seconds` and `silence_seconds`: the capture's limits.
    package var captureLimits = CaptureLimits()
    /// `[capture] on_wake`: a program started per capture with the WAV on stdin; nil is none.
    package var onWake: String?
    /// `[capture] hook_timeout_seconds`: a hook still running after this is killed.
    package var hookTimeoutSeconds = 30.0
    /// `[capture] on_detect`: a program started at each detection (before the
    /// capture ends), with the phrase and score in its environment; nil is none.
    package var onDetect: String?
    /// `[capture] awake_sound`: a WAV played at each detection; nil is none.
    package var awakeSound: String?
    /// `[capture] awake_sound_device`: the ALSA playback device the cue plays on.
    package var awakeSoundDevice = "default"
    /// `[listen] socket_group`: group owning listen.sock (and allowed into the runtime dir); nil keeps ours.
    package var listenSocketGroup: String?
    /// `[listen] ear_text`: whether the owner may read the recent transcript on listen.sock. Off by default.
    package var earText = false
    /// `[wyoming] uri` (repeatable): where the Wyoming wake service listens
    /// for remote audio (Home Assistant, satellites). Empty, the default: off.
    package var wyomingURIs: [ServiceURI] = []
    /// `[wyoming] zeroconf`: announce each `tcp://` address of the wake
    /// service as `_wyoming._tcp` through avahi-daemon. On by default, so it
    /// takes effect as soon as a tcp address is set; `unix://` is never announced.
    package var wyomingZeroconf = true
    /// `[wyoming] max_streams`: remote streams served at once; each holds an engine.
    package var wyomingMaxStreams = EarsConfig.defaultWyomingMaxStreams
    /// The default `wyomingMaxStreams`: a household's satellites and Home
    /// Assistant itself, at about 130 MB of memory each.
    package static let defaultWyomingMaxStreams = 4

    package init() {}
}

/// How the detector compares a phrase with the transcript.
package enum Matching: String, Sendable, CaseIterable {
    /// Phones (English), jamo (Hangul) or letters (other scripts), with sound-aware costs.
    case phonetic
    /// Folded letters with spaces removed.
    case letters
}

/// How PocketSphinx finds wake candidates.
package enum Spotter: String, Sendable, CaseIterable {
    /// Acoustic keyphrase search (each phrase against a phone loop), no
    /// language model: cheap and robust in noise; the transcript holds only
    /// the phrases it found.
    case keyphrase
    /// Full transcription with the language model; the detector matches the
    /// phrase in the text (the design before keyphrase search).
    case transcript
}

/// The transcription engines ears knows.
package enum EngineKind: String, Sendable, CaseIterable {
    /// CMU PocketSphinx from Debian: English, the default.
    case pocketsphinx
    /// Vosk (Kaldi): Korean and any language with a Vosk model.
    case vosk
}

/// A configuration mistake, located and explained.
package struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the mistake is in (or `--flag` for a command-line value).
    package var file: String
    /// 1-based line number; 0 when the mistake is not on a line (a missing file).
    package var line: Int
    /// What is wrong and what is allowed.
    package var message: String

    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, the form editors and people both read.
    package var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }

    /// The process exit status for a configuration error (EX_CONFIG).
    package static let exitCode: Int32 = 78
}
