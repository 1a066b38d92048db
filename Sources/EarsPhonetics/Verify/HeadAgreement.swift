import EarsCore

/// A trained engine that says where its heads leaned towards their phrases:
/// each time a phrase's head reached `WakeJudge.headAgreementScore`, far
/// below a model's own threshold (about 0.99). What lets the acoustic
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
    /// Each time since the last call that a phrase's head reached the
    /// agreement score: the phrase and the audio time of its peak, seconds
    /// since the stream began, oldest first.
    func takeAgreements() -> [(phrase: String, audioSeconds: Double)]
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
    package private(set) var waiting: [WakeEvent] = []
    /// The heads' agreements within `beforeSeconds` of the newest audio.
    package private(set) var agreements: [(phrase: String, audioSeconds: Double)] = []

    /// A ledger counting a head's peak from `beforeSeconds` before a candidate's end to `afterSeconds` after it.
    package init(beforeSeconds: Double, afterSeconds: Double) {
        self.beforeSeconds = beforeSeconds
        self.afterSeconds = afterSeconds
    }

    /// Whether a candidate of `phrase` waits.
    package func isWaiting(_ phrase: String) -> Bool {
        waiting.contains { $0.phrase == phrase }
    }

    /// Whether a head's agreement with `phrase` lies around `audioSeconds`.
    package func agrees(_ phrase: String, at audioSeconds: Double) -> Bool {
        agreements.contains { $0.phrase == phrase && $0.audioSeconds >= audioSeconds - beforeSeconds
            && $0.audioSeconds <= audioSeconds + afterSeconds }
    }

    /// Notes new agreements (oldest first).
    package mutating func note(_ new: [(phrase: String, audioSeconds: Double)]) {
        agreements += new
    }

    /// Puts `wake` to wait for its head.
    package mutating func wait(_ wake: WakeEvent) {
        waiting.append(wake)
    }

    /// Settles the waiting candidates once the audio has reached `nowSeconds`:
    /// those a head agreed with wake (returned, oldest first); those whose
    /// wait ran out without it are refused (returned too). Forgets
    /// agreements too old to matter.
    package mutating func settle(nowSeconds: Double) -> (wakes: [WakeEvent], refused: [WakeEvent]) {
        var wakes: [WakeEvent] = []
        var refused: [WakeEvent] = []
        var still: [WakeEvent] = []
        for candidate in waiting {
            if agrees(candidate.phrase, at: candidate.audioSeconds) {
                wakes.append(candidate)
            } else if nowSeconds > candidate.audioSeconds + afterSeconds {
                refused.append(candidate)
            } else {
                still.append(candidate)
            }
        }
        waiting = still
        let oldest = (waiting.map(\.audioSeconds).min() ?? nowSeconds) - beforeSeconds
        agreements.removeAll { $0.audioSeconds < oldest - afterSeconds }
        return (wakes, refused)
    }

    /// Forgets everything (a new stream).
    package mutating func reset() {
        waiting.removeAll()
        agreements.removeAll()
    }
}
