import Foundation
import Testing
@testable import EarsCore
@testable import EarsNeural
@testable import EarsTraining

/// How a trained head is judged on clips and how its threshold is chosen,
/// with a hand-built head whose score the test controls: its window is two
/// one-value embeddings and its score is the logistic of the newest value,
/// so an embedding of `logit(p)` scores exactly `p`.
@Suite struct TrainingEvaluationTests {
    static let head = WakeHead(windowEmbeddings: 2, dimension: 1,
                               layers: [.init(inputs: 2, outputs: 1, weights: [0, 1], biases: [0])])
    static let quiet: Float = 0.01

    static func logit(_ p: Float) -> Float { log(p / (1 - p)) }

    /// A clip of `steps` embeddings scoring `quiet`, except `score` at `loud` steps.
    static func clip(_ role: TrainingClip.Role, steps: Int = 60, loud: [Int] = [], score: Float = 0.99,
                     speechEndStep: Int? = 30, seconds: Double? = nil, noise: Augmentation.NoiseKind? = nil,
                     snr: Double = 20) -> ClipFeatures {
        let loudSteps = Set(loud)
        let embeddings = (0..<steps).map { [logit(loudSteps.contains($0) ? score : quiet)] }
        return ClipFeatures(role: role, split: .validation,
                            augmentation: Augmentation(noise: noise, signalToNoiseDecibels: snr),
                            embeddings: embeddings, speechEndSample: speechEndStep.map { $0 * 1280 },
                            seconds: seconds ?? Double(steps) * 0.08)
    }

    @Test("the hand-built head scores what the test says")
    func theHeadScoresTheNewestValue() {
        #expect(abs(Self.head.score(window: [5, Self.logit(0.75)]) - 0.75) < 1e-5)
    }

    @Test("a positive is heard when the head fires at its speech end")
    func aDetectionAtTheSpeechEndIsHeard() throws {
        // Speech ends at 2.4 s (30 steps); loud at steps 29…31 fires on step 30, ending at 2.48 s.
        let positive = Self.clip(.positive, loud: [29, 30, 31])
        let found = TrainingEvaluation.detections(Self.head, threshold: 0.7, on: positive)
        let detection = try #require(found.first)
        #expect(found.count == 1)
        #expect(abs(detection.endSeconds - 2.48) < 1e-9)
        #expect(TrainingEvaluation.hears(positive, in: found))
    }

    @Test("a positive is not heard when the head fires well before or well after its speech end")
    func aDetectionFarFromTheSpeechEndIsNotHeard() {
        let early = Self.clip(.positive, loud: [3, 4, 5])    // fires ending at 0.4 s
        let late = Self.clip(.positive, loud: [43, 44, 45])  // fires ending at 3.6 s, 1.2 s after the end
        for clip in [early, late] {
            let found = TrainingEvaluation.detections(Self.head, threshold: 0.7, on: clip)
            #expect(found.count == 1)
            #expect(!TrainingEvaluation.hears(clip, in: found))
        }
    }

    @Test("a clip without a speech end is never heard")
    func noSpeechEndIsNeverHeard() {
        let clip = Self.clip(.positive, loud: [29, 30, 31], speechEndStep: nil)
        #expect(!TrainingEvaluation.hears(clip, in: TrainingEvaluation.detections(Self.head, threshold: 0.7, on: clip)))
    }

    @Test("figures count recall per noise condition, false wakes per hour and the sound-alike rate")
    func figuresCountEveryKindOfClip() {
        let clips = [
            Self.clip(.positive, loud: [29, 30, 31]),                                 // clean, heard
            Self.clip(.positive, loud: [3, 4, 5], noise: .pink, snr: 18),             // clean (≥ 15 dB), missed
            Self.clip(.positive, loud: [29, 30, 31], noise: .pink, snr: 10),          // ~10 dB, heard
            Self.clip(.positive, noise: .babble, snr: 5),                             // ~5 dB, missed
            // 4.8 s of other speech with two wakes 2.8 s apart, and 31.2 s of quiet noise: 2 in 36 s.
            Self.clip(.negative(.otherSpeech), loud: [5, 6, 7, 40, 41, 42]),
            Self.clip(.negative(.noiseOnly), steps: 390, speechEndStep: nil),
            Self.clip(.negative(.soundAlike)),
            Self.clip(.negative(.soundAlike)),
            Self.clip(.negative(.soundAlike)),
            Self.clip(.negative(.phraseWordAlone), loud: [29, 30, 31]),
        ]
        let figures = TrainingEvaluation.figures(Self.head, threshold: 0.7, clips: clips)
        #expect(figures.clean == TrainingEvaluation.Tally(hits: 1, total: 2))
        #expect(figures.near10dB == TrainingEvaluation.Tally(hits: 1, total: 1))
        #expect(figures.near5dB == TrainingEvaluation.Tally(hits: 0, total: 1))
        #expect(figures.allPositives == TrainingEvaluation.Tally(hits: 2, total: 4))
        #expect(figures.falseWakes == 2)
        #expect(abs(figures.negativeSeconds - 36) < 1e-9)
        #expect(abs((figures.falseWakesPerHour ?? 0) - 200) < 1e-6)
        #expect(figures.soundAlikes == TrainingEvaluation.Tally(hits: 1, total: 4))
        #expect(figures.soundAlikes.rate == 0.25)
    }

    @Test("without negative audio there is no false-wake rate, and an empty tally has no rate")
    func emptyFiguresHaveNoRates() {
        let figures = TrainingEvaluation.figures(Self.head, threshold: 0.7, clips: [Self.clip(.positive, loud: [29, 30, 31])])
        #expect(figures.falseWakesPerHour == nil)
        #expect(figures.soundAlikes.rate == nil)
    }

    @Test("the chosen threshold is the lowest at which the negatives are quiet")
    func theLowestQuietThresholdIsChosen() {
        // Other speech scoring 0.75 wakes at 0.5, 0.6 and 0.7, not at 0.8.
        let clips = [Self.clip(.positive, loud: [29, 30, 31]),
                     Self.clip(.negative(.otherSpeech), loud: Array(10...20), score: 0.75)]
        let chosen = TrainingEvaluation.chooseThreshold(Self.head, clips: clips)
        #expect(chosen.threshold == 0.8)
        #expect(chosen.figures.falseWakes == 0)
        #expect(chosen.figures.allPositives == TrainingEvaluation.Tally(hits: 1, total: 1))
        #expect(TrainingEvaluation.figures(Self.head, threshold: 0.7, clips: clips).falseWakes == 1)
    }

    @Test("over hours of negatives the chosen threshold may show the allowance of false wakes per hour, over less than an hour none")
    func theAllowanceCountsOverTheNegativesHours() {
        // One clip of other speech scoring 0.75 once, in 2 h of other speech: one false wake in 2 h is within 1 per hour.
        let long = [Self.clip(.positive, loud: [29, 30, 31]),
                    Self.clip(.negative(.otherSpeech), loud: Array(10...20), score: 0.75, seconds: 7200)]
        #expect(TrainingEvaluation.chooseThreshold(Self.head, clips: long).threshold == 0.5)
        // The same in 30 minutes is not.
        let short = [Self.clip(.positive, loud: [29, 30, 31]),
                     Self.clip(.negative(.otherSpeech), loud: Array(10...20), score: 0.75, seconds: 1800)]
        #expect(TrainingEvaluation.chooseThreshold(Self.head, clips: short).threshold == 0.8)
        #expect(TrainingEvaluation.quiet(.init(falseWakes: 2, negativeSeconds: 7200)))
        #expect(!TrainingEvaluation.quiet(.init(falseWakes: 3, negativeSeconds: 7200)))
    }

    @Test("a sound-alike that wakes pushes the threshold above its score")
    func aWakingSoundAlikeRaisesTheThreshold() {
        let clips = [Self.clip(.positive, loud: [29, 30, 31]),
                     Self.clip(.negative(.otherSpeech), loud: Array(10...20), score: 0.75),
                     Self.clip(.negative(.soundAlike), loud: [29, 30, 31, 32], score: 0.87)]
        let chosen = TrainingEvaluation.chooseThreshold(Self.head, clips: clips)
        #expect(chosen.threshold == 0.9)
        #expect(chosen.figures.soundAlikes == TrainingEvaluation.Tally(hits: 0, total: 1))
    }

    @Test("when no candidate keeps the negatives quiet, the highest is chosen and its false wakes are reported")
    func noQuietThresholdGivesTheHighest() {
        let clips = [Self.clip(.negative(.otherSpeech), loud: Array(10...20), score: 0.9999)]
        let chosen = TrainingEvaluation.chooseThreshold(Self.head, clips: clips)
        #expect(chosen.threshold == TrainingEvaluation.candidateThresholds.last)
        #expect(chosen.figures.falseWakes == 1)
        #expect(!TrainingEvaluation.quiet(chosen.figures))
    }

    @Test("other speech that still wakes the head at 0.998 puts the threshold above it, at 0.999, not at the old grid's end")
    func speechWakingAt0998IsOutrunByTheGrid() {
        let clips = [Self.clip(.positive, loud: [29, 30, 31], score: 0.9999),
                     Self.clip(.negative(.otherSpeech), loud: Array(10...20), score: 0.9985)]
        let chosen = TrainingEvaluation.chooseThreshold(Self.head, clips: clips)
        #expect(chosen.threshold == 0.999)
        #expect(chosen.figures.allPositives == TrainingEvaluation.Tally(hits: 1, total: 1))
        #expect(chosen.figures.falseWakes == 0 && TrainingEvaluation.quiet(chosen.figures))
        #expect(TrainingEvaluation.figures(Self.head, threshold: 0.998, clips: clips).falseWakes == 1)
    }
}
