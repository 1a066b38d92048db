/// Everything `ears` keeps about one trained phrase: the head, the front end
/// it was trained on, the threshold chosen for it, and how it was trained and
/// how well it did on voices it never saw. No audio. Stored with
/// `encoded()` and read back with `WakeModel.decode(_:)` (see `WakeModelFile`).
package struct WakeModel: Sendable, Equatable {
    /// How the head was trained.
    package struct TrainingSummary: Sendable, Equatable {
        /// Voices the training positives were spoken in (e.g. `flite-slt`).
        package var voices: [String]
        /// Voices kept out of training and used only for the validation figures.
        package var heldOutVoices: [String]
        package var positives: Int
        package var negatives: Int
        /// Seconds of audio the examples were cut from.
        package var audioSeconds: Double
        /// Wall-clock seconds the training took.
        package var trainingSeconds: Double
        /// When it was trained, ISO 8601 in UTC (e.g. `2026-11-30T15:20:00Z`).
        package var createdAt: String

        package init(voices: [String] = [], heldOutVoices: [String] = [], positives: Int = 0, negatives: Int = 0,
                    audioSeconds: Double = 0, trainingSeconds: Double = 0, createdAt: String = "") {
            self.voices = voices
            self.heldOutVoices = heldOutVoices
            self.positives = positives
            self.negatives = negatives
            self.audioSeconds = audioSeconds
            self.trainingSeconds = trainingSeconds
            self.createdAt = createdAt
        }
    }

    /// How the head did at its threshold on held-out voices; nil where not measured.
    package struct ValidationFigures: Sendable, Equatable {
        /// Fraction of held-out phrases heard, clean.
        package var recallClean: Double?
        /// Fraction heard with noise at 10 dB SNR.
        package var recallAt10dB: Double?
        /// Fraction heard with noise at 5 dB SNR.
        package var recallAt5dB: Double?
        /// Detections per hour of speech and sound without the phrase.
        package var falseWakesPerHour: Double?
        /// Fraction of sound-alike phrases that fired.
        package var soundAlikeWakeRate: Double?

        package init(recallClean: Double? = nil, recallAt10dB: Double? = nil, recallAt5dB: Double? = nil,
                    falseWakesPerHour: Double? = nil, soundAlikeWakeRate: Double? = nil) {
            self.recallClean = recallClean
            self.recallAt10dB = recallAt10dB
            self.recallAt5dB = recallAt5dB
            self.falseWakesPerHour = falseWakesPerHour
            self.soundAlikeWakeRate = soundAlikeWakeRate
        }
    }

    /// The phrase as the user wrote it.
    package var phrase: String
    /// Language tag of the phrase (e.g. `en-US`).
    package var language: String
    /// `SpeechEmbedder.frontEndVersion` of the front end the head was trained
    /// on, followed by `denoisedSuffix` when its clips were denoised first.
    package var frontEndVersion: String
    package var head: WakeHead
    /// The score at or above which the phrase is heard.
    package var threshold: Float
    package var training: TrainingSummary
    package var validation: ValidationFigures

    package init(phrase: String, language: String, frontEndVersion: String, head: WakeHead, threshold: Float,
                training: TrainingSummary = TrainingSummary(), validation: ValidationFigures = ValidationFigures()) {
        self.phrase = phrase
        self.language = language
        self.frontEndVersion = frontEndVersion
        self.head = head
        self.threshold = threshold
        self.training = training
        self.validation = validation
    }

    /// What `frontEndVersion` ends in when the head heard every clip through
    /// the noise suppressor before the front end (a model of an earlier ears
    /// lacks it: it heard audio as captured).
    package static let denoisedSuffix = " +denoised"

    /// Whether the head was trained on denoised audio (and so wants it).
    package var heardDenoised: Bool { frontEndVersion.hasSuffix(Self.denoisedSuffix) }

    /// The embedder's version the head was trained on, without the suffix.
    package var embedderVersion: String {
        heardDenoised ? String(frontEndVersion.dropLast(Self.denoisedSuffix.count)) : frontEndVersion
    }

    /// The model file's bytes (see `WakeModelFile` for the layout).
    package func encoded() -> [UInt8] {
        WakeModelFile.encode(self)
    }

    /// Reads a model file's bytes; the error says what is wrong and what to do.
    package static func decode(_ bytes: [UInt8]) throws(WakeModelError) -> WakeModel {
        try WakeModelFile.decode(bytes)
    }
}

/// Why a model file could not be read. `sentence` says what to do; the
/// caller adds the file's path.
package enum WakeModelError: Error, Equatable, Sendable {
    /// The file ends before its header or payload does.
    case truncated
    /// The file does not start with `WakeModelFile.magic`: not a wake model.
    case wrongMagic
    /// The file's format version is one this build cannot read.
    case unsupportedVersion(found: UInt32, expected: UInt32)
    /// The payload's checksum does not match: the file was damaged.
    case checksumMismatch
    /// The checksum matched but the contents make no sense.
    case malformed(String)

    /// One sentence for logs and the command line.
    package var sentence: String {
        switch self {
        case .truncated:
            "the wake model file is cut short; run `ears train \"PHRASE\"` again to make a new one"
        case .wrongMagic:
            "this is not an ears wake model file; point the phrase at the file `ears train \"PHRASE\"` wrote, or run it again"
        case .unsupportedVersion(let found, let expected):
            found > expected
                ? "the wake model file is format \(found), newer than this ears reads (\(expected)); update ears or run `ears train \"PHRASE\"` again"
                : "the wake model file is format \(found), older than this ears reads (\(expected)); run `ears train \"PHRASE\"` again"
        case .checksumMismatch:
            "the wake model file is damaged (its checksum does not match); run `ears train \"PHRASE\"` again"
        case .malformed(let detail):
            "the wake model file is malformed (\(detail)); run `ears train \"PHRASE\"` again"
        }
    }
}
