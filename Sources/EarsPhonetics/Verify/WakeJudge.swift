import EarsCore
/// The wake decision: the detector finds a candidate in what the engine
/// produced, and the verifier (when there is one) rescores the candidate on
/// the audio the engine heard, which may refuse it.
///
/// Both `ears listen` and `ears scan` decide through this type, so the two
/// cannot drift apart. Used from the audio thread only.
package final class WakeJudge {
    /// Seconds of audio before a candidate's start that the verifier sees.
    package static let leadSeconds = 0.25
    /// Seconds after a candidate's end that the verifier sees.
    package static let trailSeconds = 0.1
    /// Longest window the verifier is given (a transcript candidate spans a
    /// whole utterance; its phrase is at the end).
    package static let longestWindowSeconds = 3.0
    /// The score a phrase's head must reach near an acoustic detection of
    /// the phrase for it to wake (`[wake] both_routes`): the head's even
    /// odds, far below a model's own threshold (about 0.99), so the head
    /// need only lean towards the phrase. Not fitted on any benchmark voice.
    package static let headAgreementScore = 0.5
    /// The faint lean of a phrase's head (`[wake] sure_verifier_score`): an
    /// acoustic detection the verifier is sure of wakes when its head
    /// reached this much near it, not `head_agreement`. Why: on voices the
    /// heads never heard they can be all but deaf (peaks of 0.1–0.4 on a
    /// call PocketSphinx's model, trained on people, hears clearly), while
    /// on read speech they reach even this only now and then (the acoustic
    /// route then hears about 5% of clean read speech and 20% of read speech
    /// in pink noise at 10 dB, against 0–6% at 0.5: docs/training.md). A
    /// choice made before measuring, not fitted on a benchmark voice.
    package static let faintHeadAgreementScore = 0.05
    /// How long before an acoustic detection's end the head's peak still counts, seconds.
    package static let headAgreementBeforeSeconds = 2.0
    /// How long after an acoustic detection's end the judge waits for the
    /// head's peak, seconds (the head reports a peak a step after it).
    package static let headAgreementAfterSeconds = 0.5

    /// What a verifier said about one candidate: numbers, never audio or words.
    package struct Candidate: Sendable, Equatable {
        /// The configured phrase the candidate is for.
        package var phrase: String
        /// Audio time of the candidate's end, seconds since the stream began.
        package var audioSeconds: Double
        /// `VerifierCalibration.featureNames` values, or for a trained
        /// model's candidate `FusionCalibration.featureNames` values.
        package var features: [Double]
        /// Calibrated score, 0…1.
        package var score: Double
        /// Whether a sound-alike explained the window better.
        package var competitorWins: Bool
        /// Whether it woke.
        package var accepted: Bool
        /// The measurements the features were computed from.
        package var evidence: VerifierEvidence
        /// Whether a trained model's head proposed it (its features are the fusion's).
        package var trained = false
    }

    /// The detector (text matching over the engine's pieces).
    package private(set) var detector: WakeDetector
    /// Candidates refused: by the verifier, for want of a head's agreement, or a
    /// head's detection under `headAloneScore` (it counts as agreement only).
    package private(set) var refused = 0
    private let verifier: (any WakeVerifier)?
    private let calibration: VerifierCalibration
    private let threshold: Double
    private let onCandidate: ((Candidate) -> Void)?
    private let contestTrained: Bool
    private let fusion: FusionCalibration?
    private let bothRoutes: Bool
    private let verifyHeaded: Bool
    private let headAloneScore: Double?
    private let headAgreement: Double
    private let sureVerifierScore: Double?
    private var ledger = HeadAgreementLedger(beforeSeconds: WakeJudge.headAgreementBeforeSeconds,
                                             afterSeconds: WakeJudge.headAgreementAfterSeconds)

    /// A judge over `detector`, with `verifier` (nil: every candidate wakes)
    /// at `threshold` on `calibration`'s score. `onCandidate` sees every
    /// verified candidate (the `ears scan --candidates` output).
    /// `contestTrained`: whether a trained model's detection is refused when
    /// the verifier's sound-alike contest picks a neighbour of the phrase
    /// (`[wake] trained_contest`). `fusion`, with a verifier: a trained
    /// model's candidate wakes on the fused score of its head and the
    /// verifier (`FusionCalibration`); nil: the head's score decides.
    /// `bothRoutes` (`[wake] both_routes`): an acoustic candidate of a
    /// phrase the ear's trained engine has a head for (`HeadAgreement`)
    /// wakes only when that head agrees (`headAgreementScore`), which may be
    /// decided a little later, by `takeAgreedWakes`. `verifyHeaded`
    /// (`[wake] both_routes_verifier`): whether such a candidate is put to
    /// the verifier before the head's agreement; false: the agreement alone
    /// decides it (the verifier still judges the phrases without a head).
    /// `headAloneScore` (`[wake] head_alone_score`), with `bothRoutes`: a
    /// head's detection under this score does not wake by itself — it is
    /// only the head's agreement, and the phrase wakes if the acoustic
    /// route detects it too; nil: every head detection wakes.
    /// `headAgreement` (`[wake] head_agreement`): the lean an acoustic
    /// detection of a phrase with a head needs. `sureVerifierScore` (`[wake]
    /// sure_verifier_score`), with `bothRoutes` and `verifyHeaded`: an
    /// acoustic detection whose verifier score reaches it needs only the
    /// faint lean `faintHeadAgreementScore` (which the heads must then be
    /// watched at too); nil: every one needs `headAgreement`.
    package init(detector: WakeDetector, verifier: (any WakeVerifier)?, threshold: Double,
                calibration: VerifierCalibration = .fitted, contestTrained: Bool = false,
                fusion: FusionCalibration? = nil, bothRoutes: Bool = false, verifyHeaded: Bool = true,
                headAloneScore: Double? = nil, headAgreement: Double = WakeJudge.headAgreementScore,
                sureVerifierScore: Double? = nil, onCandidate: ((Candidate) -> Void)? = nil) {
        self.headAgreement = headAgreement
        self.sureVerifierScore = sureVerifierScore
        self.contestTrained = contestTrained
        self.bothRoutes = bothRoutes
        self.verifyHeaded = verifyHeaded
        self.headAloneScore = headAloneScore
        self.fusion = fusion
        self.detector = detector
        self.verifier = verifier
        self.threshold = threshold
        self.calibration = calibration
        self.onCandidate = onCandidate
    }

    /// Near misses counted by the detector.
    package var nearMisses: Int { detector.nearMisses }

    /// Considers `piece`, which `ear` just produced; returns a wake or nil.
    package func consider(_ piece: TranscriptPiece, ear: Ear) -> WakeEvent? {
        // A refused candidate must not use up the phrase's refractory time
        // or its utterance: the detector's state before it is put back.
        let before = detector
        if bothRoutes, let trainedScore = piece.trainedScore, ledger.isWaiting(piece.text) {
            // The head's own detection is its strongest agreement, even when
            // the waiting candidate's refractory time silences it below.
            ledger.note([HeadLean(phrase: piece.text, audioSeconds: piece.endSeconds, score: trainedScore)])
        }
        guard var wake = detector.consider(piece, recent: ear.recentPieces) else { return nil }
        if let trainedScore = piece.trainedScore {
            if let headAloneScore, trainedScore < headAloneScore, heads(deciding: wake.phrase, on: ear) != nil {
                // Not sure enough to wake alone: the detection is the head's
                // agreement (its lean was noted by the watch), which an
                // acoustic detection of the phrase nearby needs and now has.
                detector = before
                refused += 1
                return nil
            }
            // The phrase's own trained model found it: its score decides
            // (fused with the verifier's measurements when fitted), unless
            // the sound-alike contest says a neighbour was said.
            wake.score = trainedScore
            wake.route = .trained
            guard let verifier, contestTrained || fusion != nil || onCandidate != nil else { return wake }
            // The fusion does not use the transcript: the costliest measurement is skipped.
            guard let evidence = verifier.measure(phrase: wake.phrase, audio: window(of: piece, ear: ear), decided: { _ in true }) else {
                return wake
            }
            let features = FusionCalibration.features(evidence, headScore: trainedScore)
            let score = fusion?.score(features) ?? trainedScore
            let accepted = !(contestTrained && evidence.competitorWins) && score >= (fusion?.threshold ?? 0)
            return settle(Candidate(phrase: wake.phrase, audioSeconds: piece.endSeconds, features: features, score: score,
                                    competitorWins: evidence.competitorWins, accepted: accepted, evidence: evidence, trained: true),
                          wake: wake, detectorBefore: before)
        }
        let headed = heads(deciding: wake.phrase, on: ear) != nil
        guard let verifier, verifyHeaded || !headed else {
            return awaitingHead(wake, ear: ear, verified: false)
        }
        let calibration = self.calibration, threshold = self.threshold, spotScore = piece.spotScore
        // Everything is measured when someone records the candidates (the
        // fitting script needs every feature); otherwise a candidate that no
        // measurement could lift to the threshold is refused unmeasured
        // (the verifier's four searches are most of the acoustic route's CPU),
        // and the verifier may stop once the decision cannot change: after
        // its first search (`hopeless`) or before the transcript (`decided`).
        if onCandidate == nil, calibration.highestScore(spotScore: spotScore) < threshold {
            detector = before
            refused += 1
            return nil
        }
        let audio = window(of: piece, ear: ear)
        // With a head, whether the score reaches the sure score matters too.
        let sure = headed ? sureVerifierScore : nil
        let decided: ((VerifierEvidence) -> Bool)? = onCandidate != nil ? nil : { partial in
            calibration.decides(partial, spotScore: spotScore, threshold: threshold)
                && sure.map { calibration.decides(partial, spotScore: spotScore, threshold: $0) } ?? true
        }
        // After the phone loop: no later measurement can lift the score to
        // the threshold (the sure score only matters above it).
        let hopeless: ((Double) -> Bool)? = onCandidate != nil ? nil : { phoneMatch in
            calibration.highestScore(spotScore: spotScore, phoneMatch: phoneMatch) < threshold
        }
        guard let evidence = verifier.measure(phrase: wake.phrase, audio: audio, hopeless: hopeless, decided: decided) else {
            return wake
        }
        let features = VerifierCalibration.features(evidence, spotScore: piece.spotScore)
        let score = calibration.score(features)
        let accepted = score >= threshold && !evidence.competitorWins
        return settle(Candidate(phrase: wake.phrase, audioSeconds: piece.endSeconds, features: features, score: score,
                                competitorWins: evidence.competitorWins, accepted: accepted, evidence: evidence),
                      wake: wake, detectorBefore: before).flatMap { awaitingHead($0, ear: ear, verified: true) }
    }

    /// `wake`, an acoustic detection, as it stands with both routes: as it
    /// is when its phrase has no head (or `bothRoutes` is off); else it
    /// wakes only if the head already agreed, and otherwise waits for it
    /// (`takeAgreedWakes`). Its refractory time stays used while it waits.
    /// `verified`: whether `wake.score` is the verifier's calibrated score.
    private func awaitingHead(_ wake: WakeEvent, ear: Ear, verified: Bool) -> WakeEvent? {
        guard let heads = heads(deciding: wake.phrase, on: ear) else { return wake }
        ledger.note(heads.takeAgreements())
        let needed = neededLean(wake, verified: verified)
        if ledger.agrees(wake.phrase, at: wake.audioSeconds, atLeast: needed) { return wake }
        ledger.wait(wake, atLeast: needed)
        return nil
    }

    /// The head score an acoustic detection needs nearby: the faint lean
    /// when the verifier is sure of it (`sureVerifierScore`), else `headAgreement`.
    private func neededLean(_ wake: WakeEvent, verified: Bool) -> Double {
        guard verified, let sureVerifierScore, wake.score >= sureVerifierScore else { return headAgreement }
        return min(headAgreement, Self.faintHeadAgreementScore)
    }

    /// `ear`'s trained engine when it has a head for `phrase` whose
    /// agreement decides the phrase's acoustic detections (`bothRoutes`); nil otherwise.
    private func heads(deciding phrase: String, on ear: Ear) -> (any HeadAgreement)? {
        guard bothRoutes, let heads = ear.rawTranscriber as? any HeadAgreement,
              heads.agreeingPhrases.contains(phrase) else { return nil }
        return heads
    }

    /// The waiting acoustic detections (`bothRoutes`) whose head has agreed
    /// since; those whose wait ran out are refused (counted in `refused`).
    /// Call it after each chunk's pieces (`consider`), and at a stream's end.
    package func takeAgreedWakes(ear: Ear) -> [WakeEvent] {
        guard bothRoutes else { return [] }
        return settled(ear: ear, nowSeconds: AudioFormat.seconds(ofSamples: ear.endSample))
    }

    /// Notes the heads' new agreements, settles the waiting candidates at
    /// `nowSeconds`, counts the refused ones and gives back their refractory time.
    private func settled(ear: Ear, nowSeconds: Double) -> [WakeEvent] {
        if let heads = ear.rawTranscriber as? any HeadAgreement { ledger.note(heads.takeAgreements()) }
        let result = ledger.settle(nowSeconds: nowSeconds)
        refused += result.refused.count
        for wake in result.refused { detector.forgetWake(phrase: wake.phrase, at: wake.audioSeconds) }
        return result.wakes
    }

    /// Settles every waiting acoustic detection at a stream's end: those the
    /// head agreed with wake, the rest are refused.
    package func finishAgreedWakes(ear: Ear) -> [WakeEvent] {
        settled(ear: ear, nowSeconds: .infinity)
    }

    /// Reports `candidate` to `onCandidate`, then wakes with its score, or
    /// refuses it: counted, and the detector put back to `detectorBefore`.
    private func settle(_ candidate: Candidate, wake: WakeEvent, detectorBefore: WakeDetector) -> WakeEvent? {
        onCandidate?(candidate)
        guard candidate.accepted else {
            detector = detectorBefore
            refused += 1
            return nil
        }
        var woken = wake
        woken.score = candidate.score
        return woken
    }

    /// What the engine heard around `piece`: from `leadSeconds` before its
    /// start to `trailSeconds` after its end, at most `longestWindowSeconds`.
    private func window(of piece: TranscriptPiece, ear: Ear) -> [Int16] {
        let end = piece.endSeconds + Self.trailSeconds
        let start = max(piece.startSeconds - Self.leadSeconds, end - Self.longestWindowSeconds)
        return ear.heardAudio(fromSample: Int64(AudioFormat.samples(inSeconds: start)),
                              toSample: Int64(AudioFormat.samples(inSeconds: end)))
    }

    /// Forgets the detector's per-stream state (a new stream).
    package func reset() {
        detector.reset()
        ledger.reset()
    }
}
