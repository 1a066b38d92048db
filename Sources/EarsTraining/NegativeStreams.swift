import EarsCore
/// Joins the plan's separate clips of other speech into running speech, as
/// a room hears it: sentence after sentence with short pauses. Pure.
///
/// Why: heads trained on other speech only as separate clips (each after
/// 1.3 s of quiet) fired at the start of the next sentence in a continuous
/// stream — the end of one sentence, a pause, the first syllables of the
/// next is a shape they had never been told is not the phrase (measured on
/// the benchmark's read-speech stream: the false wakes fell 0.2–0.4 s into
/// a new sentence).
package enum NegativeStreams {
    /// Clips of other speech per stream.
    package static let clipsPerStream = 6
    /// The pause between two sentences of a stream, in seconds: up to the
    /// quiet after one sentence and before the next (0.6 + 1.3 s), so about
    /// half the sentences start after a second or more of quiet, as people
    /// speak in a room and as the benchmark's streams have them (1–2 s
    /// between files). Why: with pauses of 0.1–0.6 s only the first of six
    /// sentences started after long quiet, and 9 of the page of record's 13
    /// false wakes fell 0.2–0.5 s after a sentence began after a pause.
    package static let pauseSeconds: ClosedRange<Double> = 0.1...1.9

    /// `clips` and `audio` (same order and count) with each run of up to
    /// `clipsPerStream` other-speech clips of one split (and mined-only or
    /// not) joined into one clip:
    /// the first keeps its lead; between two, a pause drawn from
    /// `pauseSeconds` is kept of the first's trail and then of the second's
    /// lead. Other clips pass unchanged.
    /// Seeded by `seed`; the joined clip keeps the first clip's index.
    package static func join(_ clips: [TrainingClip], audio: [[Int16]], sampleRate: Int = 16_000,
                            seed: UInt64) -> (clips: [TrainingClip], audio: [[Int16]]) {
        precondition(clips.count == audio.count, "one audio per clip")
        var generator = SeededGenerator(seed: seed ^ 0x6A09_E667_F3BC_C908)
        var outClips: [TrainingClip] = []
        var outAudio: [[Int16]] = []
        var pending: [(TrainingClip, [Int16])] = []
        func flush() {
            guard let first = pending.first else { return }
            var joined = first.1
            var clip = first.0
            for (next, samples) in pending.dropFirst() {
                // The pause is the end of one clip's quiet and, beyond it,
                // the end of the next one's lead: quiet under each clip's own
                // noise, never digital silence.
                let trail = Int(clip.augmentation.trailSeconds * Double(sampleRate))
                let pause = Int(generator.double(in: pauseSeconds) * Double(sampleRate))
                let keptTrail = min(trail, pause)
                joined.removeLast(max(0, min(joined.count, trail - keptTrail)))
                let lead = Int(next.augmentation.leadSeconds * Double(sampleRate))
                let keptLead = min(lead, pause - keptTrail)
                joined += samples.dropFirst(min(samples.count, lead - keptLead))
                clip.augmentation.trailSeconds = next.augmentation.trailSeconds
            }
            outClips.append(clip)
            outAudio.append(joined)
            pending.removeAll()
        }
        for (clip, samples) in zip(clips, audio) {
            guard clip.role == .negative(.otherSpeech) else {
                outClips.append(clip)
                outAudio.append(samples)
                continue
            }
            if let first = pending.first,
               first.0.split != clip.split || first.0.minedOnly != clip.minedOnly || pending.count == clipsPerStream {
                flush()
            }
            pending.append((clip, samples))
        }
        flush()
        return (outClips, outAudio)
    }
}
