import EarsNeural
import EarsCore
/// Which configured phrases the daemon trains by itself (`[wake]
/// auto_train`), in what order, and what each one's state is: a pure state
/// machine that returns actions (start a training, stop one, load the
/// engines again) for `AutoTrainer` to carry out, tested without processes.
///
/// Rules: one training at a time (`workers` = 1: the listening path keeps a
/// core), phrases in configuration order. A phrase with a usable model is
/// `ready`; one without is `waiting` until its turn. A finished training
/// that wrote a model asks for a reload (the engines pick the file up between
/// chunks); one that failed is not retried until the configuration changes
/// or the daemon restarts, so a missing synthesizer cannot loop. A phrase
/// that leaves the configuration, or `auto_train` turned off, stops its
/// training.
package struct AutoTrainSchedule: Sendable, Equatable {
    /// Where one phrase stands.
    package enum State: Sendable, Equatable {
        /// No model yet; trained when its turn comes.
        case waiting
        /// Being trained: `fraction` 0…1 done, about `secondsLeft` to go (nil: too early to say).
        case training(fraction: Double, secondsLeft: Double?)
        /// A model is there and in use.
        case ready
        /// A model was trained but is not used; the sentence says why.
        case keptAside(String)
        /// Training failed; the sentence says why. Retried after a reload.
        case failed(String)
        /// No model and `auto_train` is off: the acoustic route hears it.
        case off

        /// The state's name in status and metrics: `waiting`, `training`, `ready`, `kept_aside`, `failed`, `off`.
        package var name: String {
            switch self {
            case .waiting: "waiting"
            case .training: "training"
            case .ready: "ready"
            case .keptAside: "kept_aside"
            case .failed: "failed"
            case .off: "off"
            }
        }

        /// The sentence of a state that has one (kept aside, failed).
        package var why: String? {
            switch self {
            case let .keptAside(why), let .failed(why): why
            default: nil
            }
        }
    }

    /// What the configuration says of one phrase.
    package struct Phrase: Sendable, Equatable {
        /// The phrase's text, as configured.
        package var text: String
        /// Whether a usable model file is there now.
        package var hasModel: Bool
        /// Why a model that is there is not used, or nil.
        package var asideWhy: String?

        package init(text: String, hasModel: Bool, asideWhy: String? = nil) {
            self.text = text
            self.hasModel = hasModel
            self.asideWhy = asideWhy
        }
    }

    /// How a training ended.
    package enum Outcome: Sendable, Equatable {
        /// A model file was written and is to be used.
        case written
        /// A model was written aside (not used); the sentence says why.
        case keptAside(String)
        /// It failed; the sentence says why.
        case failed(String)
        /// It was stopped (phrase removed, auto_train off, daemon stopping).
        case stopped
    }

    /// What to do next.
    package enum Action: Sendable, Equatable {
        /// Start training this phrase.
        case start(String)
        /// Stop this phrase's training (nothing is written).
        case stop(String)
        /// Models changed on disk: load the engines again.
        case reload
    }

    /// Each configured phrase and its state, in configuration order.
    package private(set) var phrases: [(text: String, state: State)] = []
    /// Whether the daemon trains by itself.
    package private(set) var enabled = false

    package init() {}

    /// The phrase being trained, if any.
    package var training: String? {
        phrases.first { if case .training = $0.state { true } else { false } }?.text
    }

    /// The state of `text`, nil when it is not configured.
    package func state(of text: String) -> State? {
        phrases.first { $0.text == text }?.state
    }

    /// A new configuration (at start and on every reload): `configured` in
    /// order, `autoTrain` its `[wake] auto_train`. Failures are forgotten (a
    /// reload is how a person says "try again").
    package mutating func configure(_ configured: [Phrase], autoTrain: Bool) -> [Action] {
        var actions: [Action] = []
        let running = training
        let keepsRunning = running.map { text in
            autoTrain && configured.contains { $0.text == text && !$0.hasModel && $0.asideWhy == nil }
        } ?? false
        if let running, !keepsRunning { actions.append(.stop(running)) }
        enabled = autoTrain
        phrases = configured.map { phrase in
            if phrase.hasModel { return (phrase.text, .ready) }
            if let why = phrase.asideWhy { return (phrase.text, .keptAside(why)) }
            if keepsRunning, phrase.text == running, let state = state(of: phrase.text) { return (phrase.text, state) }
            return (phrase.text, autoTrain ? .waiting : .off)
        }
        return actions + next()
    }

    /// Progress of the running training.
    package mutating func progress(_ text: String, fraction: Double, secondsLeft: Double?) {
        guard let index = phrases.firstIndex(where: { $0.text == text }), case .training = phrases[index].state else { return }
        phrases[index].state = .training(fraction: min(1, max(0, fraction)), secondsLeft: secondsLeft)
    }

    /// `text`'s training ended with `outcome`.
    package mutating func finished(_ text: String, _ outcome: Outcome) -> [Action] {
        var actions: [Action] = []
        if let index = phrases.firstIndex(where: { $0.text == text }), case .training = phrases[index].state {
            switch outcome {
            case .written:
                phrases[index].state = .ready
                actions.append(.reload)
            case let .keptAside(why): phrases[index].state = .keptAside(why)
            case let .failed(why): phrases[index].state = .failed(why)
            case .stopped: phrases[index].state = enabled ? .waiting : .off
            }
        }
        return actions + next()
    }

    /// The daemon is stopping: stop whatever runs.
    package mutating func stopAll() -> [Action] {
        guard let running = training, let index = phrases.firstIndex(where: { $0.text == running }) else { return [] }
        phrases[index].state = .waiting
        enabled = false
        return [.stop(running)]
    }

    /// Starts the first waiting phrase when nothing runs.
    private mutating func next() -> [Action] {
        guard enabled, training == nil, let index = phrases.firstIndex(where: { $0.state == .waiting }) else { return [] }
        phrases[index].state = .training(fraction: 0, secondsLeft: nil)
        return [.start(phrases[index].text)]
    }

    package static func == (a: AutoTrainSchedule, b: AutoTrainSchedule) -> Bool {
        a.enabled == b.enabled && a.phrases.map(\.text) == b.phrases.map(\.text) && a.phrases.map(\.state) == b.phrases.map(\.state)
    }
}

extension TrainingMeter {
    /// The meter of `schedule`: each phrase's number, state, progress and
    /// why, the phrase's own words taken out of the why (the status socket
    /// carries no words; the log has the whole sentence).
    package init(_ schedule: AutoTrainSchedule) {
        self.init(enabled: schedule.enabled, entries: schedule.phrases.enumerated().map { index, phrase in
            var fraction: Double?, left: Double?
            if case let .training(done, secondsLeft) = phrase.state { (fraction, left) = (done, secondsLeft) }
            return Entry(number: index + 1, state: phrase.state.name, fraction: fraction, secondsLeft: left,
                         why: phrase.state.why.map { Self.withoutWords(of: phrase.text, in: $0) })
        })
    }

    /// `sentence` with `phrase` and its model file's stem (`hey-cordelia`) replaced by "the phrase".
    static func withoutWords(of phrase: String, in sentence: String) -> String {
        let stem = PhraseModelDirectory.fileName(forPhrase: phrase).split(separator: ".").first.map(String.init) ?? phrase
        return sentence.replacingOccurrences(of: phrase, with: "the phrase").replacingOccurrences(of: stem, with: "the-phrase")
    }
}
