/// Which of PocketSphinx's keyphrase detections are new: a pure record of
/// what was already reported in the current decoder utterance.
///
/// The keyphrase search keeps every detection until its utterance ends and
/// widens one while the phrase goes on (a later frame that overlaps it and
/// scores better replaces it), and lists them newest first. The spotter no
/// longer ends the utterance at a spotting (that cut short another phrase's
/// sounds under way), so it asks the ledger which detections to report: each
/// once, oldest first, and none that overlaps one of the same phrase already
/// reported (the same sounds) — unless it ends `widenedFrames` or more past
/// it: then the phrase went on after a premature spotting (a permissive
/// threshold spots "okay nabu" on "okay na…"), and the wider detection is
/// reported again, so the verifier can judge the whole phrase.
package struct SpottingLedger: Sendable, Equatable {
    /// One detection as the search lists it, in 10 ms frames of the utterance.
    package struct Detection: Sendable, Equatable {
        /// The keyphrase as the key list holds it.
        package var phrase: String
        /// First frame of the phrase.
        package var startFrame: Int32
        /// Last frame of the phrase.
        package var endFrame: Int32
        /// The search's score for it (log base 1.0001 against the phone loop).
        package var ratio: Int32

        /// A detection of `phrase` over `startFrame...endFrame` scored `ratio`.
        package init(phrase: String, startFrame: Int32, endFrame: Int32, ratio: Int32 = 0) {
            self.phrase = phrase
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.ratio = ratio
        }
    }

    /// Frames (10 ms) past a reported detection's end that an overlapping
    /// detection of the same phrase must reach to be reported again: about
    /// a syllable, so a wider detection of the same sounds is not reported
    /// frame by frame. A choice, not fitted on any benchmark voice.
    package static let widenedFrames: Int32 = 20

    /// Per phrase, the last frame of its latest reported detection.
    private var reportedEndFrames: [String: Int32] = [:]

    /// An empty ledger: nothing reported yet.
    package init() {}

    /// The detections of `listed` not reported before, oldest first, now
    /// recorded as reported. A detection that starts at or before the end of
    /// the latest reported one of its phrase is that one, widened: fresh
    /// only when it ends `widenedFrames` or more past it.
    package mutating func fresh(_ listed: [Detection]) -> [Detection] {
        var fresh: [Detection] = []
        for detection in listed.sorted(by: { ($0.startFrame, $0.endFrame) < ($1.startFrame, $1.endFrame) }) {
            if let reported = reportedEndFrames[detection.phrase], detection.startFrame <= reported,
               detection.endFrame < reported + Self.widenedFrames { continue }
            reportedEndFrames[detection.phrase] = detection.endFrame
            fresh.append(detection)
        }
        return fresh
    }

    /// Forgets what was reported: a new decoder utterance numbers its frames from 0.
    package mutating func reset() {
        reportedEndFrames.removeAll()
    }
}
