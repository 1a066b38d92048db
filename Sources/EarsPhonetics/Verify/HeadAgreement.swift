import EarsCore

/// One moment a phrase's head leaned towards its phrase: the phrase, the
/// audio time of the lean's peak (seconds since the stream began) and the
/// watched score it reached (`[wake] head_agreement`, or the faint
/// `WakeJudge.faintHeadAgreementScore` a sure acoustic detection needs).
/// Numbers only.
package struct HeadLean: Sendable, Equatable {
    /// The phrase whose head leaned.
    package var phrase: String
    /// Audio time of the lean, seconds since the stream began.
    package var audioSeconds: Double
    /// The score the head reached, 0…1 (the watched level, not the peak).
    package var score: Double

    /// A lean of `phrase`'s head to `score` at `audioSeconds`.
    package init(phrase: String, audioSeconds: Double, score: Double) {
        self.phrase = phrase
        self.audioSeconds = audioSeconds
        self.score = score
    }
}

/// A trained engine that says where its heads leaned towards their phrases:
/// each time a phrase's head reached a watched score — `[wake]
/// head_agreement` (0.5), far below a model's own threshold (about 0.99),
/// and with `[wake] sure_verifier_score` also the faint
/// `WakeJudge.faintHeadAgreementScore`. What lets the acoustic
/// route's detection of a phrase that has a trained model wake (`[wake]
/// both_routes`): PocketSphinx's acoustic model was trained on people and
/// hears voices the head never heard, and the head's agreement keeps the
/// acoustic route's own false wakes out (issue 20's "two experts").
///
/// Numbers only: phrases and audio times, never audio. The judge finds it
/// as the ear's `rawTranscriber`.
package protocol HeadAgreement: AnyObject {
    /// The phrases that have a head here.
    var agreeingPhrases: Set<String> { get }
    /// Each time since the last call that a phrase's head reached a
    /// watched score, oldest first (a lean to 0.5 is reported at each
    /// watched level it passed).
    func takeAgreements() -> [HeadLean]
}

/// The acoustic route's candidates waiting for a head's agreement, and the
/// agreements heard lately: a pure value the judge keeps (`WakeJudge`).
package struct HeadAgreementLedger: Sendable {
    /// How long before a candidate's end a head's peak still counts, seconds.
    package let beforeSeconds: Double
    /// How long after a candidate's end the judge waits for the head, seconds.
    package let afterSeconds: Double
    /// The candidates not yet decided, oldest first: acoustic wakes (their
    /// `audioSeconds` the candidate's end) of phrases with a head.
    package var waiting: [WakeEvent] { pending.map(\.wake) }
    /// The heads' agreements within `beforeSeconds` of the newest audio.
    package private(set) var agreements: [HeadLean] = []
    /// Each waiting candidate and the head score it needs.
    private var pending: [(wake: WakeEvent, atLeast: Double)] = []

    /// A ledger counting a head's peak from `beforeSeconds` before a candidate's end to `afterSeconds` after it.
    package init(beforeSeconds: Double, afterSeconds: Double) {
        self.beforeSeconds = beforeSeconds
        self.afterSeconds = afterSeconds
    }

    /// Whether a candidate of `phrase` waits.
    package func isWaiting(_ phrase: String) -> Bool {
        pending.contains { $0.wake.phrase == phrase }
    }

    /// Whether a head's lean to `atLeast` or more with `phrase` lies around `audioSeconds`.
    package func agrees(_ phrase: String, at audioSeconds: Double, atLeast score: Double) -> Bool {
        agreements.contains { $0.phrase == phrase && $0.score >= score && $0.audioSeconds >= audioSeconds - beforeSeconds
            && $0.audioSeconds <= audioSeconds + afterSeconds }
    }

    /// Notes new agreements (oldest first).
    package mutating func note(_ new: [HeadLean]) {
        agreements += new
    }

    /// Puts `wake` to wait for its head to lean to `atLeast` or more.
    package mutating func wait(_ wake: WakeEvent, atLeast score: Double) {
        pending.append((wake, score))
    }

    /// Settles the waiting candidates once the audio has reached `nowSeconds`:
    /// those a head agreed with wake (returned, oldest first); those whose
    /// wait ran out without it are refused (returned too). Forgets
    /// agreements too old to matter.
    package mutating func settle(nowSeconds: Double) -> (wakes: [WakeEvent], refused: [WakeEvent]) {
        var wakes: [WakeEvent] = []
        var refused: [WakeEvent] = []
        var still: [(wake: WakeEvent, atLeast: Double)] = []
        for entry in pending {
            let candidate = entry.wake
            if agrees(candidate.phrase, at: candidate.audioSeconds, atLeast: entry.atLeast) {
                wakes.append(candidate)
            } else if nowSeconds > candidate.audioSeconds + afterSeconds {
                refused.append(candidate)
            } else {
                still.append(entry)
            }
        }
        pending = still
        let oldest = (pending.map(\.wake.audioSeconds).min() ?? nowSeconds) - beforeSeconds
        agreements.removeAll { $0.audioSeconds < oldest - afterSeconds }
        return (wakes, refused)
    }

    /// Forgets everything (a new stream).
    package mutating func reset() {
        pending.removeAll()
        agreements.removeAll()
    }
}
