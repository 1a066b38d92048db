import EarsCore
/// The speakers of one language divided into train, validation and held-out
/// pools, and the draw of a voice (speaker, rate, pitch) from a pool. Part of
/// `TrainingPlan`; see its documentation for the rules.
struct VoicePools: Sendable {
    /// The order in which engines are chosen to be held out whole.
    static let heldOutPreference: [SynthVoice.Engine] = [.festival, .flite, .espeak]
    /// Share of speakers held out when the language has only one engine.
    static let singleEngineHeldOutFraction = 0.2
    /// Share of the remaining speakers kept for validation.
    static let validationFraction = 1.0 / 6

    /// Per split, per engine (sorted), its speakers (voices at normal prosody, sorted).
    private let pools: [TrainingClip.Split: [(engine: SynthVoice.Engine, voices: [SynthVoice])]]
    /// Engines held out whole.
    let heldOutEngines: [SynthVoice.Engine]
    /// Speaker IDs per split.
    let speakers: [TrainingClip.Split: [String]]

    /// Divides `voices` (one language, non-empty, sorted) by speaker.
    init(_ voices: [SynthVoice], using generator: inout SeededGenerator) {
        var bySpeaker: [String: SynthVoice] = [:]
        for voice in voices where bySpeaker[voice.speakerID] == nil {
            bySpeaker[voice.speakerID] = voice.with(ratePercent: 100, pitch: nil)
        }
        let all = bySpeaker.values.sorted()
        let engines = Set(all.map(\.engine))
        var assignment: [String: TrainingClip.Split] = [:]
        var rest: [SynthVoice]
        if engines.count > 1, let held = Self.heldOutPreference.first(where: engines.contains) {
            heldOutEngines = [held]
            for voice in all where voice.engine == held { assignment[voice.speakerID] = .heldOut }
            rest = all.filter { $0.engine != held }
        } else {
            heldOutEngines = []
            var shuffled = all
            Self.shuffle(&shuffled, using: &generator)
            let count = all.count > 1 ? max(1, Int((Double(all.count) * Self.singleEngineHeldOutFraction).rounded())) : 0
            for voice in shuffled.prefix(count) { assignment[voice.speakerID] = .heldOut }
            rest = Array(shuffled.dropFirst(count)).sorted()
        }
        // Validation: a share of each remaining engine's speakers, leaving at
        // least one of each engine to train on.
        for engine in Set(rest.map(\.engine)).sorted() {
            var ofEngine = rest.filter { $0.engine == engine }
            Self.shuffle(&ofEngine, using: &generator)
            let count = ofEngine.count > 1 ? max(1, min(ofEngine.count - 1, Int((Double(ofEngine.count) * Self.validationFraction).rounded()))) : 0
            for voice in ofEngine.prefix(count) { assignment[voice.speakerID] = .validation }
        }
        rest = []
        var pools: [TrainingClip.Split: [(engine: SynthVoice.Engine, voices: [SynthVoice])]] = [:]
        var speakers: [TrainingClip.Split: [String]] = [:]
        for split in TrainingClip.Split.allCases {
            let members = all.filter { (assignment[$0.speakerID] ?? .train) == split }
            speakers[split] = members.map(\.speakerID)
            pools[split] = Set(members.map(\.engine)).sorted().map { engine in
                (engine, members.filter { $0.engine == engine })
            }
        }
        self.pools = pools
        self.speakers = speakers
    }

    /// A voice for a clip of `split`: an engine of the pool, one of its
    /// speakers, a rate and (espeak-ng) a pitch. An empty pool (too few
    /// speakers to divide) borrows from train, then validation, then held out.
    func voice(in split: TrainingClip.Split, using generator: inout SeededGenerator) -> SynthVoice {
        let order: [TrainingClip.Split] = [split, .train, .validation, .heldOut]
        let pool = order.lazy.compactMap { self.pools[$0] }.first { !$0.isEmpty }!
        let engine = generator.pick(pool)
        let speaker = generator.pick(engine.voices)
        let rate = generator.pick(TrainingPlan.ratePercents)
        let pitch = generator.pick(TrainingPlan.espeakPitches)
        return speaker.with(ratePercent: rate, pitch: speaker.engine == .espeak ? pitch : nil)
    }

    /// Seeded Fisher–Yates, stable across Swift versions.
    static func shuffle<Element>(_ elements: inout [Element], using generator: inout SeededGenerator) {
        for index in stride(from: elements.count - 1, to: 0, by: -1) {
            elements.swapAt(index, generator.index(below: index + 1))
        }
    }
}

/// Why a training plan could not be made.
package enum TrainingPlanError: Error, Equatable, Sendable {
    /// The phrase has no words.
    case emptyPhrase
    /// No installed voice speaks the language.
    case noVoices(language: String)

    /// One sentence saying what to do.
    package var sentence: String {
        switch self {
        case .emptyPhrase:
            "The phrase to train is empty; give it in quotes, e.g. ears train \"hey cordelia\"."
        case let .noVoices(language):
            language == "ko"
                ? "No Korean voice is installed for synthesis; run sudo apt-get install espeak-ng."
                : "No voice for language \(language) is installed for synthesis; run sudo apt-get install flite espeak-ng festival festvox-kallpc16k."
        }
    }
}
