/// What `/ears`, `ears status` and `/metrics` show of background training
/// (`[wake] auto_train`): each configured phrase's state, how far a running
/// training is and about how long it has left. Content-free: a phrase is
/// named by its number in the configuration (1 = the first), never by its
/// words, so the status socket and `/metrics` carry no word at all.
package struct TrainingMeter: Sendable, Equatable {
    /// One phrase's line.
    package struct Entry: Sendable, Equatable {
        /// The phrase's number in the configuration, 1 for the first.
        package var number: Int
        /// Its state's name (`AutoTrainSchedule.State.name`: `waiting`,
        /// `training`, `ready`, `kept_aside`, `failed`, `off`).
        package var state: String
        /// While training: the fraction done, 0…1.
        package var fraction: Double?
        /// While training: about how many seconds are left, when known.
        package var secondsLeft: Double?
        /// Kept aside or failed: why.
        package var why: String?

        package init(number: Int, state: String, fraction: Double? = nil, secondsLeft: Double? = nil, why: String? = nil) {
            self.number = number
            self.state = state
            self.fraction = fraction
            self.secondsLeft = secondsLeft
            self.why = why
        }
    }

    /// Whether the daemon trains by itself.
    package var enabled: Bool
    /// The phrases in configuration order.
    package var entries: [Entry]

    package init(enabled: Bool, entries: [Entry]) {
        self.enabled = enabled
        self.entries = entries
    }


    /// The `training` object of `/ears`: `auto_train` and, per phrase (keyed
    /// by its number in the configuration),
    /// `state`, `percent` and `seconds_left` (while training, else null) and
    /// `why` (kept aside or failed, else null).
    package var jsonValue: JSONValue {
        var phrases: [String: JSONValue] = [:]
        for entry in entries {
            let percent: JSONValue = entry.fraction.map { .integer(Int64(($0 * 100).rounded(.down))) } ?? .null
            phrases[String(entry.number)] = ["state": .string(entry.state), "percent": percent,
                                     "seconds_left": entry.fraction == nil ? .null : .decimal(entry.secondsLeft, places: 0),
                                     "why": .optional(entry.why)]
        }
        return ["auto_train": .bool(enabled), "phrases": .object(phrases)]
    }

    /// Every state a phrase can be in, in the order metrics list them.
    static let stateNames = ["waiting", "training", "ready", "kept_aside", "failed", "off"]

    /// Appends the training families to `exposition`.
    package func expose(into exposition: inout PrometheusExposition) {
        exposition.family("ears_training_auto_train", .gauge,
                          help: "1 when the daemon trains phrases without a model by itself ([wake] auto_train), else 0.",
                          value: enabled ? 1 : 0)
        exposition.family("ears_training_state", .gauge,
                          help: "1 for each configured phrase's background-training state, 0 for the others.",
                          samples: entries.flatMap { entry in
                              Self.stateNames.map { (labels: [("phrase", String(entry.number)), ("state", $0)], value: $0 == entry.state ? 1.0 : 0) }
                          })
        let running = entries.compactMap { entry -> (String, Double, Double?)? in
            guard let fraction = entry.fraction else { return nil }
            return (String(entry.number), fraction, entry.secondsLeft)
        }
        exposition.family("ears_training_progress_ratio", .gauge, help: "How far the phrase being trained is, 0 to 1.",
                          samples: running.map { (labels: [("phrase", $0.0)], value: $0.1) })
        exposition.family("ears_training_seconds_left", .gauge,
                          help: "About how many seconds the running training has left; no sample while too early to say.",
                          samples: running.compactMap { run in run.2.map { (labels: [("phrase", run.0)], value: $0) } })
    }
}
