import Dispatch
import EarsCore
import Synchronization

/// Synthesizes and augments a plan's clips with a few concurrent workers
/// (default 2: the machine's cores), returning the audio in plan order
/// whatever order the workers finish in.
///
/// Babble needs other speech before the clips that use it, so a few of the
/// plan's other-speech clips (`babbleSources`) are said first, dry, and
/// reused as their own clips' input; then every clip is said and augmented
/// in one pass. Festival clips go in batches of `festivalBatch` (one
/// festival start-up per batch); the others one by one. Per clip the work is
/// pure given the plan (seeded), so the output is the same for any number of
/// workers.
package final class CorpusSynthesizer: Sendable {
    /// Other-speech clips said first to make babble from.
    package static let babbleSources = 8
    /// Festival clips said in one festival run (see `SpeechSynthesizer.say(_:)`).
    package static let festivalBatch = 16
    /// Concurrent workers when the caller does not say.
    package static let defaultWorkers = 2

    /// Says the texts.
    package let synthesizer: SpeechSynthesizer
    /// Roughens the audio.
    package let augmenter: AudioAugmenter
    /// How many clips are worked on at once.
    package let workers: Int

    /// A corpus synthesizer over `synthesizer` with `workers` threads (at least 1).
    package init(synthesizer: SpeechSynthesizer, augmenter: AudioAugmenter = AudioAugmenter(), workers: Int = CorpusSynthesizer.defaultWorkers) {
        self.synthesizer = synthesizer
        self.augmenter = augmenter
        self.workers = max(1, workers)
    }

    /// The augmented audio of every clip, in the order of `clips` (16 kHz
    /// mono). `progress(done, total)` is called after each clip, serialized,
    /// `done` rising by one each time (from worker threads). `isCancelled` is
    /// checked before each clip; when it answers true the run stops and
    /// throws `.cancelled`. The first failure stops the run and is thrown.
    package func synthesize(_ clips: [TrainingClip],
                           progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in },
                           isCancelled: @escaping @Sendable () -> Bool = { false }) throws(SynthError) -> [[Int16]] {
        let sources = Array(clips.filter { $0.role == .negative(.otherSpeech) }.prefix(Self.babbleSources))
        let dry = try run(sources, progress: { _, _ in }, isCancelled: isCancelled) { batch throws(SynthError) in
            try self.say(batch)
        }
        var dryByIndex: [Int: [Int16]] = [:]
        for (clip, samples) in zip(sources, dry) { dryByIndex[clip.index] = samples }
        let babble = dry.filter { !$0.isEmpty }
        let cached = dryByIndex
        return try run(clips, progress: progress, isCancelled: isCancelled) { batch throws(SynthError) in
            let fresh = batch.filter { cached[$0.index] == nil && $0.role != .negative(.noiseOnly) }
            var said: [Int: [Int16]] = [:]
            for (clip, samples) in zip(fresh, try self.say(fresh)) { said[clip.index] = samples }
            var results: [[Int16]] = []
            for clip in batch {
                if clip.role == .negative(.noiseOnly) {
                    results.append(self.augmenter.noiseOnly(seconds: clip.noiseSeconds, augmentation: clip.augmentation, babble: babble))
                } else {
                    let speech = cached[clip.index] ?? said[clip.index] ?? []
                    results.append(try self.augmenter.apply(clip.augmentation, to: speech, babble: babble))
                }
            }
            return results
        }
    }

    /// The clips' dry speech, in order (empty for a clip without voice or text).
    private func say(_ clips: [TrainingClip]) throws(SynthError) -> [[Int16]] {
        let speaking = clips.filter { $0.voice != nil && !$0.text.isEmpty }
        var said: [Int: [Int16]] = [:]
        for (clip, samples) in zip(speaking, try synthesizer.say(speaking.map { ($0.text, $0.voice!) })) {
            said[clip.index] = samples
        }
        return clips.map { said[$0.index] ?? [] }
    }

    /// Work units over `clips` (positions in it): festival clips in runs of
    /// up to `festivalBatch`, every other clip alone; in clip order.
    static func batches(_ clips: [TrainingClip]) -> [[Int]] {
        var units: [[Int]] = []
        var festival: [Int] = []
        for position in clips.indices {
            if clips[position].voice?.engine == .festival && !clips[position].text.isEmpty {
                festival.append(position)
                if festival.count == festivalBatch {
                    units.append(festival)
                    festival = []
                }
            } else {
                units.append([position])
            }
        }
        if !festival.isEmpty { units.append(festival) }
        return units
    }

    /// Shared state of one run: the next work unit to take, the results so far, the first error.
    private struct RunState {
        /// The next work unit to hand out.
        var next = 0
        /// Clips finished so far.
        var done = 0
        /// Each clip's audio once finished, by position.
        var results: [[Int16]?]
        /// The first failure (or cancellation); no unit is handed out after it.
        var failure: SynthError?
    }

    /// `work` over `clips` in `batches(clips)` on `workers` threads, results in clip order.
    private func run(_ clips: [TrainingClip], progress: @escaping @Sendable (Int, Int) -> Void,
                     isCancelled: @escaping @Sendable () -> Bool,
                     work: @escaping @Sendable ([TrainingClip]) throws(SynthError) -> [[Int16]]) throws(SynthError) -> [[Int16]] {
        guard !clips.isEmpty else { return [] }
        let units = Self.batches(clips)
        let state = Mutex(RunState(results: Array(repeating: nil, count: clips.count)))
        let group = DispatchGroup()
        for _ in 0..<min(workers, units.count) {
            DispatchQueue.global().async(group: group) {
                while true {
                    let taken: Int? = state.withLock { state in
                        guard state.failure == nil, state.next < units.count else { return nil }
                        if isCancelled() {
                            state.failure = .cancelled
                            return nil
                        }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let unit = taken else { return }
                    do throws(SynthError) {
                        let samples = try work(units[unit].map { clips[$0] })
                        state.withLock { state in
                            for (position, clip) in zip(units[unit], samples) {
                                state.results[position] = clip
                                state.done += 1
                                progress(state.done, clips.count)
                            }
                        }
                    } catch {
                        state.withLock { state in
                            if state.failure == nil { state.failure = error }
                        }
                        return
                    }
                }
            }
        }
        group.wait()
        let final = state.withLock { $0 }
        if let failure = final.failure { throw failure }
        return final.results.map { $0 ?? [] }
    }
}
