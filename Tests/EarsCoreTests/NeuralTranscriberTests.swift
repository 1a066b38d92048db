import Foundation
import Testing
@testable import EarsCore
@testable import EarsPhonetics
@testable import EarsNeural

/// A front end that answers from the audio in a way the test can script:
/// one one-value embedding per 1280 samples, the group's mean sample over
/// 100 (a group of 600s gives 6). Records its resets.
final class ScriptedEmbedder: SpeechEmbedder {
    let dimension = 1
    let samplesPerEmbedding = 1280
    let frontEndVersion: String
    private(set) var resets = 0
    private var pending: [Int16] = []

    init(frontEndVersion: String = "scripted-1") { self.frontEndVersion = frontEndVersion }

    func feed(_ samples: [Int16]) throws(TranscriberError) -> [[Float]] {
        pending += samples
        var embeddings: [[Float]] = []
        while pending.count >= samplesPerEmbedding {
            let group = pending.prefix(samplesPerEmbedding)
            embeddings.append([Float(group.reduce(0) { $0 + Int($1) }) / Float(samplesPerEmbedding) / 100])
            pending.removeFirst(samplesPerEmbedding)
        }
        return embeddings
    }

    func reset() {
        resets += 1
        pending = []
    }

    func embeddings(ofClip samples: [Int16]) throws(TranscriberError) -> [[Float]] {
        reset()
        defer { reset() }
        return try feed(samples)
    }
}

/// A stand-in suppressor that inverts the audio, so a test can tell which
/// lane heard what. Counts the samples it denoised and its resets.
final class InvertingSuppressor: NoiseSuppressor {
    let label = "inverting"
    private(set) var denoisedSamples = 0
    private(set) var resets = 0

    func denoise(_ samples: [Int16]) -> [Int16] {
        denoisedSamples += samples.count
        return samples.map { $0 == .min ? .max : -$0 }
    }

    func reset() { resets += 1 }
}

/// The trained models as an engine, on a scripted front end and a head whose
/// score is the logistic of the newest embedding: loud steps (6) score 0.9975,
/// quiet ones (−6) 0.0025.
@Suite struct NeuralTranscriberTests {
    static let phrase = "hey cordelia"
    static let head = WakeHead(windowEmbeddings: 2, dimension: 1,
                               layers: [.init(inputs: 2, outputs: 1, weights: [0, 1], biases: [0])])

    static func model(frontEndVersion: String = "scripted-1") -> WakeModel {
        WakeModel(phrase: phrase, language: "en", frontEndVersion: frontEndVersion, head: head, threshold: 0.7)
    }

    /// `quiet` quiet steps, `loud` loud ones, then `after` quiet ones.
    static func audio(quiet: Int, loud: Int, after: Int = 0) -> [Int16] {
        [Int16](repeating: -600, count: quiet * 1280) + [Int16](repeating: 600, count: loud * 1280)
            + [Int16](repeating: -600, count: after * 1280)
    }

    @Test("a detection comes back as a final piece with the phrase, the head's score, and times offset by the stream start")
    func aDetectionIsAFinalPieceWithTheTrainedScore() throws {
        let embedder = ScriptedEmbedder()
        let transcriber = try NeuralTranscriber(embedder: embedder, models: [Self.model()], modelName: "test.wakemodel")
        let streamStart: Int64 = 10 * 16_000
        try transcriber.start(atSample: streamStart)
        // Loud at steps 20…22: the smoothed score crosses on step 21 and peaks there; the window ends at 22 × 0.08 s.
        let pieces = try transcriber.feed(Self.audio(quiet: 20, loud: 3, after: 5), atSample: streamStart)
        #expect(pieces.count == 1)
        let piece = try #require(pieces.first)
        #expect(piece.kind == .final)
        #expect(piece.text == Self.phrase)
        #expect(abs((piece.trainedScore ?? 0) - 0.9975) < 1e-3)
        #expect(abs(piece.endSeconds - (10 + 1.76)) < 1e-6)
        #expect(abs(piece.startSeconds - (10 + 1.76 - 1.0)) < 1e-6) // the phrase's expected second before its end
        #expect(piece.utterance > NeuralTranscriber.firstUtterance)
        #expect(transcriber.engineName == "trained")
        #expect(try transcriber.finish().isEmpty)
    }

    @Test("audio fed in pieces that follow each other is one stream")
    func contiguousFeedsAreOneStream() throws {
        let embedder = ScriptedEmbedder()
        let transcriber = try NeuralTranscriber(embedder: embedder, models: [Self.model()], modelName: "test.wakemodel")
        try transcriber.start(atSample: 0)
        let resetsAfterStart = embedder.resets
        let audio = Self.audio(quiet: 10, loud: 3, after: 5)
        var pieces: [TranscriptPiece] = []
        // Chunks of 1000 samples do not line up with the 1280-sample steps: the front end must keep the rest.
        for start in stride(from: 0, to: audio.count, by: 1000) {
            let chunk = Array(audio[start..<min(audio.count, start + 1000)])
            pieces += try transcriber.feed(chunk, atSample: Int64(start))
        }
        #expect(embedder.resets == resetsAfterStart)
        #expect(pieces.map(\.text) == [Self.phrase])
        #expect(abs((pieces.first?.endSeconds ?? 0) - 0.96) < 1e-6)
    }

    @Test("a gap in the samples starts a new stream, whose times count from where the new audio starts")
    func aGapRestartsTheStream() throws {
        let embedder = ScriptedEmbedder()
        let transcriber = try NeuralTranscriber(embedder: embedder, models: [Self.model()], modelName: "test.wakemodel")
        try transcriber.start(atSample: 0)
        let resetsAfterStart = embedder.resets
        // The phrase's first loud step, and half a step more, then the audio jumps ahead by 5 s.
        var first = Self.audio(quiet: 10, loud: 1)
        first += [Int16](repeating: 600, count: 640)
        #expect(try transcriber.feed(first, atSample: 0).isEmpty)
        let gapStart = Int64(first.count) + 5 * 16_000
        let pieces = try transcriber.feed(Self.audio(quiet: 4, loud: 3, after: 4), atSample: gapStart)
        #expect(embedder.resets == resetsAfterStart + 1)
        // The new stream alone: loud at its steps 4…6, peak on step 5, window ending 6 × 0.08 s after gapStart.
        // Carried on, the old stream would have put it at step 16 of the first.
        #expect(pieces.count == 1)
        let expectedEnd = AudioFormat.seconds(ofSamples: gapStart) + 0.48
        #expect(abs((pieces.first?.endSeconds ?? 0) - expectedEnd) < 1e-6)
    }

    @Test("a model trained on another front end is refused with a sentence naming the phrase and ears train")
    func aModelFromAnotherFrontEndIsRefused() {
        #expect {
            _ = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [Self.model(frontEndVersion: "openwakeword-old")],
                                      modelName: "test.wakemodel")
        } throws: { error in
            guard let error = error as? TranscriberError, case let .engineFailed(engine, detail) = error else { return false }
            return engine == "trained" && detail.contains("\"hey cordelia\"") && detail.contains("ears train")
                && detail.contains("openwakeword-old") && detail.contains("scripted-1")
        }
    }

    @Test("a model trained on denoised audio is accepted on its front end and says it wants denoised audio")
    func aDenoisedModelWantsDenoisedAudio() throws {
        let denoised = Self.model(frontEndVersion: "scripted-1" + WakeModel.denoisedSuffix)
        #expect(denoised.heardDenoised && denoised.embedderVersion == "scripted-1")
        let transcriber = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [denoised], modelName: "test.wakemodel")
        #expect(transcriber.hearsDenoised)
        let plain = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [Self.model()], modelName: "test.wakemodel")
        #expect(!plain.hearsDenoised)
    }

    @Test("a model trained on audio as captured beside denoised ones, with no denoised lane, is refused naming both and ears train")
    func aMixWithoutADenoisedLaneIsRefused() {
        var older = Self.model()
        older.phrase = "hey jarvis"
        let denoised = Self.model(frontEndVersion: "scripted-1" + WakeModel.denoisedSuffix)
        #expect {
            _ = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [denoised, older], modelName: "test.wakemodel")
        } throws: { error in
            guard let error = error as? TranscriberError, case let .engineFailed(engine, detail) = error else { return false }
            return engine == "trained" && detail.contains("\"hey jarvis\"") && detail.contains("\"hey cordelia\"")
                && detail.contains("ears train") && detail.contains("as captured") && detail.contains("trained_denoise")
        }
    }

    @Test("a mix fed the same audio on purpose (trained_denoise set) is heard on one lane")
    func aMixFedTheSameAudioIsOneLane() throws {
        var older = Self.model()
        older.phrase = "hey jarvis"
        let denoised = Self.model(frontEndVersion: "scripted-1" + WakeModel.denoisedSuffix)
        let transcriber = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [denoised, older], modelName: "test.wakemodel",
                                                sameAudio: true)
        #expect(transcriber.laneCount == 1)
    }

    @Test("in a mix each model hears the audio it was trained on: as captured, or through the denoised lane's suppressor")
    func aMixIsHeardOnTwoLanes() throws {
        var captured = Self.model()
        captured.phrase = "hey jarvis"
        let denoised = Self.model(frontEndVersion: "scripted-1" + WakeModel.denoisedSuffix)
        let laneEmbedder = ScriptedEmbedder()
        let suppressor = InvertingSuppressor()
        let transcriber = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [denoised, captured], modelName: "test.wakemodel",
                                                denoisedLane: .init(embedder: laneEmbedder, suppressor: suppressor))
        #expect(transcriber.laneCount == 2 && !transcriber.hearsDenoised)
        try transcriber.start(atSample: 0)
        // Silence scores 0.5 on both lanes; +600 is loud as captured and quiet once "denoised" (inverted), −600 the other way.
        func burst(_ level: Int16) -> [Int16] {
            [Int16](repeating: 0, count: 10 * 1280) + [Int16](repeating: level, count: 3 * 1280) + [Int16](repeating: 0, count: 5 * 1280)
        }
        let first = try transcriber.feed(burst(600), atSample: 0)
        #expect(first.map(\.text) == ["hey jarvis"])
        let scores = transcriber.takeMaxScores() // in models order: the denoised "hey cordelia" first
        #expect(scores.count == 2 && scores[0] < 0.6 && scores[1] > 0.99)
        let second = try transcriber.feed(burst(-600), atSample: Int64(burst(600).count))
        #expect(second.map(\.text) == ["hey cordelia"])
        #expect(suppressor.denoisedSamples == 2 * burst(600).count)
        #expect(Set((first + second).map(\.utterance)).count == 2)
        transcriber.reset()
        #expect(suppressor.resets >= 1 && laneEmbedder.resets >= 2)
    }

    @Test("each watched threshold gives the pieces an engine overridden to that threshold gives, beside the engine's own")
    func watchedThresholdsDecideLikeOverrides() throws {
        // Steps scoring 0.9975 (loud), 0.5 (zero) and 0.0025 (quiet): a medium run (after the
        // 1.5 s refractory time) is heard at 0.3 and 0.45, not at 0.7 or 0.999.
        let audio = Self.audio(quiet: 10, loud: 3, after: 25) + [Int16](repeating: 0, count: 4 * 1280) + Self.audio(quiet: 10, loud: 0)
        let thresholds = [0.3, 0.45, 0.7, 0.999]
        let watching = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [Self.model()], modelName: "test.wakemodel")
        watching.watch(thresholds: thresholds)
        try watching.start(atSample: 0)
        var own: [TranscriptPiece] = []
        var watched = Array(repeating: [TranscriptPiece](), count: thresholds.count)
        for start in stride(from: 0, to: audio.count, by: 1600) {
            own += try watching.feed(Array(audio[start..<min(audio.count, start + 1600)]), atSample: Int64(start))
            for (index, pieces) in watching.takeWatchedPieces().enumerated() { watched[index] += pieces }
        }
        func strip(_ pieces: [TranscriptPiece]) -> [Double] { pieces.map(\.endSeconds) }
        for (index, threshold) in thresholds.enumerated() {
            let alone = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [Self.model()], thresholdOverride: threshold,
                                              modelName: "test.wakemodel")
            try alone.start(atSample: 0)
            var expected: [TranscriptPiece] = []
            for start in stride(from: 0, to: audio.count, by: 1600) {
                expected += try alone.feed(Array(audio[start..<min(audio.count, start + 1600)]), atSample: Int64(start))
            }
            #expect(strip(watched[index]) == strip(expected), "at \(threshold)")
            #expect(watched[index].map(\.trainedScore) == expected.map(\.trainedScore), "at \(threshold)")
        }
        #expect(watched.map(\.count) == [2, 2, 1, 0], "\(watched.map(\.count))")
        #expect(strip(own) == strip(watched[2]), "the engine's own decision at the model's 0.7 is unchanged")
        #expect(watching.takeWatchedPieces().allSatisfy { $0.isEmpty }, "taken pieces are gone")
    }

    @Test("a threshold override replaces the model's own threshold")
    func aThresholdOverrideApplies() throws {
        // A run scoring 0.9975 wakes at the model's 0.7 but not at 0.999.
        let strict = try NeuralTranscriber(embedder: ScriptedEmbedder(), models: [Self.model()], thresholdOverride: 0.999,
                                           modelName: "test.wakemodel")
        try strict.start(atSample: 0)
        #expect(try strict.feed(Self.audio(quiet: 10, loud: 3, after: 5), atSample: 0).isEmpty)
    }
}

/// The judge with a trained model's piece: the model's score is the decision.
@Suite struct TrainedWakeJudgeTests {
    @Test("a piece with a trained score wakes with that score and the verifier is never asked")
    func aTrainedScoreWakesWithoutTheVerifier() throws {
        let verifier = ScriptedVerifier(answer: WakeJudgeTests.weak) // would refuse, if it were asked
        let judge = WakeJudge(detector: WakeDetector(phrases: [WakePhrase(text: "hey cordelia")]), verifier: verifier,
                              threshold: 0.5, calibration: VerifierCalibration(bias: 0, weights: [0, 1, 0, 0, 0, 0]))
        let ear = Ear(transcriber: ScriptedTranscriber(), monotonicSeconds: { 0 })
        try ear.start()
        for start in stride(from: Int64(0), to: 48_000, by: 1600) {
            _ = try ear.take(AudioChunk(samples: [Int16](repeating: 100, count: 1600), startSample: start))
        }
        let piece = TranscriptPiece(kind: .final, text: "hey cordelia", utterance: NeuralTranscriber.firstUtterance + 1,
                                    startSeconds: 1.0, endSeconds: 2.0, trainedScore: 0.93)
        let wake = try #require(judge.consider(piece, ear: ear))
        #expect(wake.phrase == "hey cordelia")
        #expect(wake.score == 0.93)
        #expect(verifier.windows.isEmpty)
        #expect(judge.refused == 0)
    }
}
