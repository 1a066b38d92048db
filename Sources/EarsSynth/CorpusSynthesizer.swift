import Dispatch
import EarsCore
import Synchronization
import EarsTraining

/// Synthesizes and augments a plan's clips with a few concurrent workers
/// (default 2: the machine's cores), returning the audio in plan order
/// whatever order the workers finish in.
///
/// Babble needs other speech before the clips that use it, so a few of the
/// plan's other-speech clips (`babbleSources`, `babbleSourceClips`: one per
/// speaker, none of the held-out split, whose voices the figures are about)
/// are said first, dry, and reused as their own clips' input; then every clip is said and augmented
/// in one pass. Festival clips go in batches of `festivalBatch` (one
/// festival start-up per batch); the others one by one. Per clip the work is
/// pure given the plan (seeded), so the output is the same for any number of
/// workers.
package final class CorpusSynthesizer: Sendable {
    /// Other-speech clips said first to make babble from, each of another speaker.
    package static let babbleSources = 12
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

    /// One clip as synthesized and augmented.
    package struct Clip: Sendable, Equatable {
        /// 16 kHz mono.
        package var samples: [Int16]
        /// Where the clip's own text ends in `samples` (before any
        /// continuation and trail); nil for noise alone.
        package var speechEndSample: Int?
    }

    /// The augmented audio of every clip, in the order of `clips` (16 kHz
    /// mono), each with its continuation (`TrainingClip.continuation`, said
    /// by the same voice) and where its own speech ends. `progress(done, total)` is called after each clip, serialized,
    /// `done` rising by one each time (from worker threads). `isCancelled` is
    /// checked before each clip; when it answers true the run stops and
    /// throws `.cancelled`. The first failure stops the run and is thrown.
    package func synthesize(_ clips: [TrainingClip],
                           progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in },
                           isCancelled: @escaping @Sendable () -> Bool = { false }) throws(SynthError) -> [Clip] {
        let sources = Self.babbleSourceClips(clips)
        let dry = try run(sources, progress: { _, _ in }, isCancelled: isCancelled) { batch throws(SynthError) in
            try self.say(batch).map(\.speech)
        }
        var dryByIndex: [Int: [Int16]] = [:]
        for (clip, samples) in zip(sources, dry) { dryByIndex[clip.index] = samples }
        let babble = dry.filter { !$0.isEmpty }
        let cached = dryByIndex
        return try run(clips, progress: progress, isCancelled: isCancelled) { batch throws(SynthError) in
            let fresh = batch.filter { cached[$0.index] == nil && $0.role != .negative(.noiseOnly) }
            var said: [Int: (speech: [Int16], continuation: [Int16])] = [:]
            for (clip, samples) in zip(fresh, try self.say(fresh)) { said[clip.index] = samples }
            var results: [Clip] = []
            for clip in batch {
                if clip.role == .negative(.noiseOnly) {
                    results.append(Clip(samples: self.augmenter.noiseOnly(seconds: clip.noiseSeconds, augmentation: clip.augmentation,
                                                                          babble: babble), speechEndSample: nil))
                } else {
                    let speech = cached[clip.index] ?? said[clip.index]?.speech ?? []
                    let (samples, end) = try self.augmenter.apply(clip.augmentation, to: speech,
                                                                  then: said[clip.index]?.continuation ?? [], babble: babble)
                    results.append(Clip(samples: samples, speechEndSample: end))
                }
            }
            return results
        }
    }

    /// The clips babble is made from: the first other-speech clips of the
    /// train and validation splits, one per speaker, at most `babbleSources`.
    package static func babbleSourceClips(_ clips: [TrainingClip]) -> [TrainingClip] {
        var speakers: Set<String> = []
        var sources: [TrainingClip] = []
        for clip in clips where clip.role == .negative(.otherSpeech) && clip.split != .heldOut && sources.count < babbleSources {
            guard let voice = clip.voice, speakers.insert(voice.speakerID).inserted else { continue }
            sources.append(clip)
        }
        return sources
    }

    /// The clips' dry speech and continuations, in order (empty for a
    /// clip without voice or text, or without continuation). One batch to
    /// the synthesizer: a festival batch starts festival once.
    private func say(_ clips: [TrainingClip]) throws(SynthError) -> [(speech: [Int16], continuation: [Int16])] {
        var requests: [(text: String, voice: SynthVoice)] = []
        var places: [(speech: Int?, continuation: Int?)] = []
        for clip in clips {
            guard let voice = clip.voice, !clip.text.isEmpty else {
                places.append((nil, nil))
                continue
            }
            var text = clip.text
            if let shift = clip.stressShift {
                var failure: SynthError?
                text = shift.apply(to: text) { word in
                    do throws(SynthError) { return try synthesizer.espeakPhonemes(of: word, voice: voice) } catch {
                        failure = error
                        return nil
                    }
                }
                if let failure { throw failure }
            }
            requests.append((text, voice))
            let speech = requests.count - 1
            var continuation: Int?
            if !clip.continuation.isEmpty {
                requests.append((clip.continuation, voice))
                continuation = requests.count - 1
            }
            places.append((speech, continuation))
        }
        let said = try synthesizer.say(requests)
        return places.map { place in (place.speech.map { said[$0] } ?? [], place.continuation.map { said[$0] } ?? []) }
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
    private struct RunState<Result> {
        /// The next work unit to hand out.
        var next = 0
        /// Clips finished so far.
        var done = 0
        /// Each clip's result once finished, by position.
        var results: [Result?]
        /// The first failure (or cancellation); no unit is handed out after it.
        var failure: SynthError?
    }

    /// `work` over `clips` in `batches(clips)` on `workers` threads, results in clip order.
    private func run<Result: Sendable>(_ clips: [TrainingClip], progress: @escaping @Sendable (Int, Int) -> Void,
                                       isCancelled: @escaping @Sendable () -> Bool,
                                       work: @escaping @Sendable ([TrainingClip]) throws(SynthError) -> [Result]) throws(SynthError) -> [Result] {
        guard !clips.isEmpty else { return [] }
        let units = Self.batches(clips)
        let state = Mutex(RunState<Result>(results: Array(repeating: nil, count: clips.count)))
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
        return final.results.compactMap { $0 }
    }
}
