/// A writer for the Prometheus text exposition format, version 0.0.4.
///
/// Each metric family is written as a `# HELP` line, a `# TYPE` line, then
/// its samples, one per line: `name{label="value",…} value`. Names are
/// checked against the format's grammar (a bad name is a programming error
/// and traps); label values are escaped (backslash, double quote, newline);
/// numbers use `formatNumber(_:)`. The text ends with a newline, as the
/// format requires.
///
/// It knows nothing about ears: `StatusReport.prometheusText(version:)` says
/// what goes in.
package struct PrometheusExposition: Sendable {
    /// The `Content-Type` a scraper expects for this format:
    /// `text/plain; version=0.0.4; charset=utf-8`.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A family's `# TYPE`: how a scraper should treat its samples.
    package enum MetricType: String, Sendable {
        /// Only ever goes up (resets to 0 when the process restarts); its
        /// name ends in `_total`.
        case counter
        /// Goes up and down; a reading taken now.
        case gauge
    }

    /// The exposition so far.
    package private(set) var text = ""

    /// An empty exposition.
    package init() {}

    /// Adds a family: its HELP and TYPE lines, then one line per sample in
    /// the given order. `samples` may be empty (a figure not known yet): the
    /// family is then described but has no sample, which the format allows.
    ///
    /// - Parameters:
    ///   - name: the metric name, matching `[a-zA-Z_:][a-zA-Z0-9_:]*`; a
    ///     counter's must end in `_total`. Traps otherwise.
    ///   - type: the family's type.
    ///   - help: one line of help text (backslash and newline are escaped).
    ///   - samples: label pairs (name, unescaped value; names match
    ///     `[a-zA-Z_][a-zA-Z0-9_]*`) and the sample's value.
    package mutating func family(_ name: String, _ type: MetricType, help: String,
                                samples: [(labels: [(String, String)], value: Double)]) {
        precondition(Self.isMetricName(name), "not a Prometheus metric name: \(name)")
        precondition(type != .counter || name.hasSuffix("_total"), "a counter's name must end in _total: \(name)")
        text += "# HELP \(name) \(Self.escapeHelp(help))\n"
        text += "# TYPE \(name) \(type.rawValue)\n"
        for sample in samples {
            text += name
            if !sample.labels.isEmpty {
                text += "{"
                text += sample.labels.map { label, value in
                    precondition(Self.isLabelName(label), "not a Prometheus label name: \(label)")
                    return "\(label)=\"\(Self.escapeLabelValue(value))\""
                }.joined(separator: ",")
                text += "}"
            }
            text += " \(Self.formatNumber(sample.value))\n"
        }
    }

    /// Adds a family with one unlabelled sample, or (when `value` is nil) no
    /// sample at all.
    package mutating func family(_ name: String, _ type: MetricType, help: String, value: Double?) {
        family(name, type, help: help, samples: value.map { [(labels: [], value: $0)] } ?? [])
    }

    /// A label value escaped for the exposition: `\` becomes `\\`, `"`
    /// becomes `\"`, and a line feed becomes `\n`. Everything else, UTF-8
    /// included, passes through.
    package static func escapeLabelValue(_ value: String) -> String {
        escaped(value, replacing: ["\\": "\\\\", "\"": "\\\"", "\n": "\\n"])
    }

    /// HELP text escaped for the exposition: `\` becomes `\\` and a line
    /// feed becomes `\n` (double quotes need no escape there).
    package static func escapeHelp(_ help: String) -> String {
        escaped(help, replacing: ["\\": "\\\\", "\n": "\\n"])
    }

    /// `text` with each scalar in `replacing` swapped for its escape.
    private static func escaped(_ text: String, replacing escapes: [Unicode.Scalar: String]) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let escape = escapes[scalar] { out += escape } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// A sample value as the format spells it: `+Inf`, `-Inf`, `NaN`; a
    /// whole number below 2^53 in magnitude without a decimal point (`42`);
    /// anything else as the shortest decimal that reads back to the same
    /// `Double` (`0.25`, `1e-05`), which Go's `ParseFloat` accepts.
    package static func formatNumber(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    /// Whether `name` is a valid metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    package static func isMetricName(_ name: String) -> Bool {
        isName(name, extra: ":")
    }

    /// Whether `name` is a valid label name: `[a-zA-Z_][a-zA-Z0-9_]*`.
    package static func isLabelName(_ name: String) -> Bool {
        isName(name, extra: nil)
    }

    private static func isName(_ name: String, extra: Unicode.Scalar?) -> Bool {
        guard !name.isEmpty else { return false }
        for (index, scalar) in name.unicodeScalars.enumerated() {
            let letter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == extra
            let digit = ("0"..."9").contains(scalar)
            guard letter || (digit && index > 0) else { return false }
        }
        return true
    }
}

extension ListenPhase {
    /// Every phase, in declaration order: the `phase` label values of
    /// `ears_phase`. The switch in `exposedIndex` makes a new case a compile
    /// error here until it is added.
    package static let exposed: [ListenPhase] = [.opening, .listening, .closed, .ended]

    /// The position in `exposed`; exhaustive on purpose (see `exposed`).
    var exposedIndex: Int {
        switch self {
        case .opening: 0
        case .listening: 1
        case .closed: 2
        case .ended: 3
        }
    }
}

extension StatusReport {
    /// The body for `GET /metrics`: the same content-free figures as
    /// `json()`, in the Prometheus text exposition format 0.0.4 (serve it as
    /// `PrometheusExposition.contentType`). Every name starts with `ears_`.
    ///
    /// The only label values are fixed or configured strings: the phase
    /// names, the engine and model names, `version`, and the consumer names
    /// of `droppedChunks`. `closedWhy` is not exported (it is a sentence);
    /// `ears_phase` says closed or not. Families, in order:
    ///
    /// - `ears_info{engine,model[,version]}` gauge, always 1.
    /// - `ears_phase{phase}` gauge, one series per `ListenPhase`, 1 for the
    ///   current phase and 0 for the others.
    /// - `ears_cpu_ratio` gauge: `cpuPercent / 100`, the fraction of one core.
    /// - `ears_ear_chunks_total`, `ears_ear_fed_chunks_total`,
    ///   `ears_ear_results_total` counters: the ear's meter.
    /// - `ears_ear_dropped_chunks_total` counter: chunks the ear dropped undecoded.
    /// - `ears_audio_gap_seconds_total` counter, seconds: audio lost to gaps;
    ///   `ears_audio_overruns_total` counter: overruns and suspends recovered.
    /// - `ears_ear_loudest_level` gauge: loudest chunk peak, 0…1 of full scale.
    /// - `ears_seconds_since_audio` gauge, seconds; no sample before the
    ///   first chunk.
    /// - `ears_wakes_total`, `ears_near_misses_total`, `ears_captures_total`
    ///   counters; `ears_capture_seconds_total` counter, seconds;
    ///   `ears_triggers_during_capture_total` counter.
    /// - `ears_hook_runs_total`, `ears_hook_failures_total`,
    ///   `ears_hook_killed_total` counters and `ears_hook_seconds_total`
    ///   counter (seconds): only when a hook is configured.
    /// - `ears_dropped_chunks_total{consumer}` counter, one series per
    ///   consumer in name order (none while no consumer is registered).
    /// - `ears_uptime_seconds` gauge, seconds since start.
    /// - `ears_ear_text_shown` gauge: 1 when the ear text switch is on, else 0.
    /// - `ears_remote_*`: the Wyoming wake service's meters (`RemoteMeter`),
    ///   only while it is on.
    ///
    /// - Parameter version: the ears version for `ears_info`, or nil to
    ///   leave that label out.
    package func prometheusText(version: String? = nil) -> String {
        var out = PrometheusExposition()
        var info = [("engine", engine), ("model", model)]
        if let version { info.append(("version", version)) }
        out.family("ears_info", .gauge, help: "The transcriber engine and model (and ears version); always 1.",
                   samples: [(labels: info, value: 1)])
        out.family("ears_phase", .gauge, help: "1 for the current phase (opening, listening or closed), 0 for the others.",
                   samples: ListenPhase.exposed.map { (labels: [("phase", $0.rawValue)], value: $0 == phase ? 1 : 0) })
        out.family("ears_cpu_ratio", .gauge,
                   help: "The process's own CPU use over the last sampling window, as a fraction of one core.",
                   value: cpuPercent / 100)
        out.family("ears_ear_chunks_total", .counter, help: "Audio chunks the ear decoded (dropped ones are counted apart).",
                   value: Double(ear.chunks))
        out.family("ears_ear_fed_chunks_total", .counter, help: "Audio buffers handed to the transcriber.",
                   value: Double(ear.fed))
        out.family("ears_ear_results_total", .counter,
                   help: "Pieces (volatile or final) the transcriber returned (a count, never the words).",
                   value: Double(ear.results))
        out.family("ears_ear_dropped_chunks_total", .counter,
                   help: "Chunks the ear fell behind on and dropped undecoded (the microphone and captures lost nothing).",
                   value: Double(ear.dropped))
        out.family("ears_audio_gap_seconds_total", .counter,
                   help: "Seconds of audio lost between the device and ears (stalls, suspends, overruns).",
                   value: audioGapSeconds)
        out.family("ears_audio_overruns_total", .counter,
                   help: "Overruns and suspends the microphone recovered from.", value: Double(audioOverruns))
        out.family("ears_ear_loudest_level", .gauge, help: "Loudest chunk peak since start, 0 to 1 of full scale.",
                   value: ear.loudest)
        out.family("ears_seconds_since_audio", .gauge,
                   help: "Seconds since the last audio chunk; no sample before the first.", value: secondsSinceAudio)
        out.family("ears_wakes_total", .counter, help: "Wakes since start.", value: Double(wakes))
        out.family("ears_near_misses_total", .counter,
                   help: "Utterances that scored just under a phrase's threshold without waking (a count, never the words).",
                   value: Double(nearMisses))
        out.family("ears_refused_candidates_total", .counter,
                   help: "Wake candidates the verifier refused (a count, never the words).",
                   value: Double(refusedCandidates))
        out.family("ears_captures_total", .counter, help: "Captures started since start.", value: Double(captures))
        out.family("ears_capture_seconds_total", .counter, help: "Seconds of audio captured since start.",
                   value: captureSeconds)
        out.family("ears_triggers_during_capture_total", .counter,
                   help: "Wakes and taps that arrived while a capture ran and extended nothing.",
                   value: Double(triggersDuringCapture))
        if let hook {
            out.family("ears_hook_runs_total", .counter, help: "Runs of the exec hook.", value: Double(hook.runs))
            out.family("ears_hook_failures_total", .counter, help: "Exec hook runs that failed.",
                       value: Double(hook.failures))
            out.family("ears_hook_killed_total", .counter, help: "Exec hook runs killed at the timeout.",
                       value: Double(hook.killed))
            out.family("ears_hook_seconds_total", .counter, help: "Seconds the exec hook ran in total.",
                       value: hook.seconds)
        }
        out.family("ears_dropped_chunks_total", .counter, help: "Events dropped per consumer that fell behind.",
                   samples: droppedChunks.sorted { $0.key < $1.key }.map {
                       (labels: [("consumer", $0.key)], value: Double($0.value))
                   })
        out.family("ears_uptime_seconds", .gauge, help: "Seconds since the daemon started.", value: uptimeSeconds)
        out.family("ears_ear_text_shown", .gauge,
                   help: "1 when the owner switched the ear text on (never the text itself), else 0.",
                   value: heardShown ? 1 : 0)
        remote?.expose(into: &out)
        training?.expose(into: &out)
        return out.text
    }
}
