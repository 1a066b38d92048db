import Foundation

/// What `GET /ears` answers: the phase and content-free meters. By
/// construction it has no field that could carry transcript text or audio;
/// `heard_shown` only says whether the owner switched the ear text on.
public struct StatusReport: Sendable {
    public var phase: ListenPhase = .opening
    /// One sentence while closed, else nil.
    public var closedWhy: String?
    /// Engine name, e.g. `pocketsphinx`.
    public var engine: String
    /// Model name or path.
    public var model: String
    /// The process's own CPU use over the last sampling window, percent of one core.
    public var cpuPercent: Double = 0
    /// The ear's meter.
    public var ear = EarMeter()
    /// Seconds since the last chunk, or nil before the first.
    public var secondsSinceAudio: Double?
    /// Wakes since start.
    public var wakes = 0
    /// Utterances that scored just under a phrase's threshold (content-free).
    public var nearMisses = 0
    /// Wake candidates the verifier refused (content-free).
    public var refusedCandidates = 0
    /// Captures started since start.
    public var captures = 0
    /// Seconds of audio captured in total.
    public var captureSeconds = 0.0
    /// Wakes and taps that arrived during a capture and extended nothing.
    public var triggersDuringCapture = 0
    /// The exec hook's counts (runs, failures, kills, total seconds), or nil without a hook.
    public var hook: (runs: Int, failures: Int, killed: Int, seconds: Double)?
    /// Chunks dropped per consumer that fell behind (e.g. `listen_socket`, `hook`).
    public var droppedChunks: [String: Int] = [:]
    /// Seconds of audio lost to gaps (a stalled or suspended device, a
    /// stopped process): see `AudioGapMeter`.
    public var audioGapSeconds = 0.0
    /// Overruns and suspends the microphone recovered from (`AudioSource.recoveries`).
    public var audioOverruns = 0
    /// Seconds since the daemon started.
    public var uptimeSeconds: Double = 0
    /// Whether the ear text switch is on (never the text itself).
    public var heardShown = false
    /// The Wyoming wake service's meters, or nil when it is off (no `[wyoming] uri`).
    public var remote: RemoteMeter?

    public init(engine: String, model: String) {
        self.engine = engine
        self.model = model
    }

    /// The JSON body for `GET /ears`, keys in a stable order.
    public func json() -> String {
        var fields: [(String, String)] = [
            ("phase", JSONText.string(phase.rawValue)),
            ("closed_why", closedWhy.map(JSONText.string) ?? "null"),
            ("engine", JSONText.string(engine)),
            ("model", JSONText.string(model)),
            ("cpu_pct", JSONText.number(cpuPercent, places: 2)),
        ]
        let earFields: [(String, String)] = [
            ("chunks", String(ear.chunks)),
            ("fed", String(ear.fed)),
            ("results", String(ear.results)),
            ("dropped", String(ear.dropped)),
            ("loudest", JSONText.number(ear.loudest, places: 4)),
            ("since_audio_s", secondsSinceAudio.map { JSONText.number($0, places: 2) } ?? "null"),
        ]
        fields.append(("ear", JSONText.object(earFields)))
        fields.append(("audio", JSONText.object([("gap_s", JSONText.number(audioGapSeconds, places: 2)),
                                                 ("overruns", String(audioOverruns))])))
        fields.append(("wakes", String(wakes)))
        fields.append(("near_misses", String(nearMisses)))
        fields.append(("refused_candidates", String(refusedCandidates)))
        fields.append(("captures", String(captures)))
        fields.append(("capture_s", JSONText.number(captureSeconds, places: 1)))
        fields.append(("triggers_during_capture", String(triggersDuringCapture)))
        fields.append(("hook", hook.map { hook in
            JSONText.object([("runs", String(hook.runs)), ("failures", String(hook.failures)),
                             ("killed", String(hook.killed)), ("seconds", JSONText.number(hook.seconds, places: 2))])
        } ?? "null"))
        fields.append(("dropped_chunks", JSONText.object(droppedChunks.sorted { $0.key < $1.key }.map { ($0.key, String($0.value)) })))
        fields.append(("uptime_s", JSONText.number(uptimeSeconds, places: 1)))
        fields.append(("heard_shown", heardShown ? "true" : "false"))
        fields.append(("remote", remote?.json() ?? "null"))
        return JSONText.object(fields)
    }
}

/// Minimal JSON writing with stable key order (JSONEncoder reorders keys and
/// cannot write an explicit null for an absent optional without ceremony).
public enum JSONText {
    /// A JSON string literal with the required escapes.
    public static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON number with at most `places` decimals; non-finite values become 0.
    public static func number(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "0" }
        let formatted = String(format: "%.\(places)f", value)
        // Trim trailing zeros so 3.50 reads 3.5 and 2.00 reads 2.
        guard formatted.contains(".") else { return formatted }
        var trimmed = Substring(formatted)
        while trimmed.hasSuffix("0") { trimmed.removeLast() }
        if trimmed.hasSuffix(".") { trimmed.removeLast() }
        return trimmed == "-0" ? "0" : String(trimmed)
    }

    /// A JSON object from already-encoded values, in the given order.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
