/// Rescores a wake candidate on its own audio. A spotter (or the transcript
/// matcher) proposes; the verifier measures how well the phrase explains the
/// candidate's window against free phones and against the phrase's
/// sound-alikes. Implementations are engine modules (`PocketSphinxVerifier`);
/// the core combines the measurements (`VerifierCalibration`).
///
/// Used from the audio thread only.
package protocol WakeVerifier: AnyObject {
    /// Measures `audio` (16 kHz mono, what the engine heard: the candidate's
    /// window with a little margin) against `phrase` (as configured). Nil when
    /// the phrase cannot be measured (a word without a pronunciation): the
    /// candidate is then judged without this evidence. A window too short to
    /// measure gives the worst evidence. `decided`, when given, is asked
    /// before the costliest measurement (the transcript): if it answers true
    /// for the evidence so far, that evidence is returned with `textMatch` nil.
    /// `hopeless`, when given, is asked right after the first search (the
    /// free phone loop) with its phone match (0…1): if it answers true, the
    /// other searches are skipped and the evidence returned is the worst for
    /// everything unmeasured (`VerifierEvidence.unmeasured`), so whatever
    /// judged it hopeless refuses it.
    func measure(phrase: String, audio: [Int16], hopeless: ((Double) -> Bool)?,
                 decided: ((VerifierEvidence) -> Bool)?) -> VerifierEvidence?
    /// Frees what the verifier loads on demand and has not used for a
    /// while (PocketSphinx's transcript search); returns whether it freed
    /// anything. Called from time to time by the daemon, never while
    /// `measure` runs; the next `measure` loads it again. Default: nothing.
    func releaseIdleMemory() -> Bool
}

extension WakeVerifier {
    package func releaseIdleMemory() -> Bool { false }

    /// `measure(phrase:audio:hopeless:decided:)` with every search run
    /// (up to the transcript, which `decided` may still skip).
    package func measure(phrase: String, audio: [Int16], decided: ((VerifierEvidence) -> Bool)?) -> VerifierEvidence? {
        measure(phrase: phrase, audio: audio, hopeless: nil, decided: decided)
    }
}

/// What a verifier measured on one candidate window. Numbers only: no audio,
/// no words heard (the competitor is one of the configured phrase's own
/// generated sound-alikes, never a transcript).
package struct VerifierEvidence: Sendable, Equatable {
    /// Frames (10 ms) in the window.
    package var frames: Int
    /// Natural-log score of the best path through the phrase alone (with
    /// optional silence around it).
    package var phraseScore: Double
    /// Natural-log score of the best path through a free phone loop.
    package var loopScore: Double
    /// Natural-log score of the best path through the phrase's sound-alikes,
    /// or nil when it has none.
    package var competitorScore: Double?
    /// How alike the free phone loop's phones are to the phrase's, 0…1 (1 − edits / phrase phones).
    package var phoneMatch: Double
    /// How well the phrase matches a plain (unboosted) transcript of the
    /// window, 0…1 (the phonetic matcher's score; the words are not kept);
    /// nil when it was not measured because the rest already decided.
    package var textMatch: Double?
    /// Seconds the phrase path spends in the phrase's words (silence excluded).
    package var phraseSeconds: Double
    /// Seconds the phrase would take at an ordinary rate (phones × 80 ms).
    package var expectedSeconds: Double

    package init(frames: Int, phraseScore: Double, loopScore: Double, competitorScore: Double?,
                phoneMatch: Double, textMatch: Double? = 0, phraseSeconds: Double, expectedSeconds: Double,
                competitorWins: Bool? = nil) {
        self.competitorWinsContest = competitorWins
        self.frames = frames
        self.phraseScore = phraseScore
        self.loopScore = loopScore
        self.competitorScore = competitorScore
        self.phoneMatch = phoneMatch
        self.textMatch = textMatch
        self.phraseSeconds = phraseSeconds
        self.expectedSeconds = expectedSeconds
    }

    /// Evidence of a window whose phrase path was not searched, because the
    /// phone loop alone already ruled it out (`WakeVerifier.measure`'s
    /// `hopeless`): the phrase scores −∞, no sound-alike and no transcript
    /// were measured, and the phrase spent no time in its words. Whatever
    /// the weights' signs, each feature's term in the score is at most its
    /// term in `VerifierCalibration.highestScore` with the same phone match,
    /// so it scores no higher than that bound.
    package static func unmeasured(frames: Int, loopScore: Double, phoneMatch: Double,
                                   expectedSeconds: Double) -> VerifierEvidence {
        VerifierEvidence(frames: frames, phraseScore: -.infinity, loopScore: loopScore, competitorScore: nil,
                         phoneMatch: phoneMatch, textMatch: nil, phraseSeconds: 0, expectedSeconds: expectedSeconds)
    }

    /// The verifier's own answer to "did a sound-alike explain the window
    /// better?" (one search over the phrase and its sound-alikes), when it has one.
    package var competitorWinsContest: Bool?

    /// Whether a sound-alike explains the window better than the phrase:
    /// the verifier's contest when it ran one, else the two scores compared.
    package var competitorWins: Bool {
        if let competitorWinsContest { return competitorWinsContest }
        guard let competitorScore else { return false }
        return competitorScore > phraseScore
    }
}

/// Edit distance between phone strings, for `VerifierEvidence.phoneMatch`.
package enum PhoneAlignment {
    /// 1 − (fewest insertions, deletions and substitutions turning `heard`
    /// into `expected`) / `expected.count`, clamped to 0…1; 0 for an empty `expected`.
    package static func match(expected: [String], heard: [String]) -> Double {
        guard !expected.isEmpty else { return 0 }
        var previous = Array(0...heard.count)
        var current = [Int](repeating: 0, count: heard.count + 1)
        for i in 1...expected.count {
            current[0] = i
            for j in stride(from: 1, through: heard.count, by: 1) {
                let substitution = previous[j - 1] + (expected[i - 1] == heard[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return max(0, 1 - Double(previous[heard.count]) / Double(expected.count))
    }
}
