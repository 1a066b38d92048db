import Foundation

/// What `GET /ears` answers: the phase and content-free meters. By
/// construction it has no field that could carry transcript text or audio;
/// `heard_shown` only says whether the owner switched the ear text on.
package struct StatusReport: Sendable {
    package var phase: ListenPhase = .opening
    /// One sentence while closed, else nil.
    package var closedWhy: String?
    /// Engine name, e.g. `pocketsphinx`.
    package var engine: String
    /// Model name or path.
    package var model: String
    /// The process's own CPU use over the last sampling window, percent of one core.
    package var cpuPercent: Double = 0
    /// The ear's meter.
    package var ear = EarMeter()
    /// Seconds since the last chunk, or nil before the first.
    package var secondsSinceAudio: Double?
    /// Wakes since start.
    package var wakes = 0
    /// Utterances that scored just under a phrase's threshold (content-free).
    package var nearMisses = 0
    /// Wake candidates the verifier refused (content-free).
    package var refusedCandidates = 0
    /// Captures started since start.
    package var captures = 0
    /// Seconds of audio captured in total.
    package var captureSeconds = 0.0
    /// Wakes and taps that arrived during a capture and extended nothing.
    package var triggersDuringCapture = 0
    /// The exec hook's counts (runs, failures, kills, total seconds), or nil without a hook.
    package var hook: (runs: Int, failures: Int, killed: Int, seconds: Double)?
    /// Chunks dropped per consumer that fell behind (e.g. `listen_socket`, `hook`).
    package var droppedChunks: [String: Int] = [:]
    /// Seconds of audio lost to gaps (a stalled or suspended device, a
    /// stopped process): see `AudioGapMeter`.
    package var audioGapSeconds = 0.0
    /// Overruns and suspends the microphone recovered from (`AudioSource.recoveries`).
    package var audioOverruns = 0
    /// Seconds since the daemon started.
    package var uptimeSeconds: Double = 0
    /// Whether the ear text switch is on (never the text itself).
    package var heardShown = false
    /// The Wyoming wake service's meters, or nil when it is off (no `[wyoming] uri`).
    package var remote: RemoteMeter?
    /// Background training's states (`[wake] auto_train`), or nil before the daemon has configured it.
    package var training: TrainingMeter?

    package init(engine: String, model: String) {
        self.engine = engine
        self.model = model
    }

    /// The report as a JSON value: every field, nothing else.
    package var jsonValue: JSONValue {
        [
            "phase": .string(phase.rawValue),
            "closed_why": .optional(closedWhy),
            "engine": .string(engine),
            "model": .string(model),
            "cpu_pct": .decimal(cpuPercent, places: 2),
            "ear": [
                "chunks": .integer(Int64(ear.chunks)),
                "fed": .integer(Int64(ear.fed)),
                "results": .integer(Int64(ear.results)),
                "dropped": .integer(Int64(ear.dropped)),
                "loudest": .decimal(ear.loudest, places: 4),
                "since_audio_s": .decimal(secondsSinceAudio, places: 2),
            ],
            "audio": ["gap_s": .decimal(audioGapSeconds, places: 2), "overruns": .integer(Int64(audioOverruns))],
            "wakes": .integer(Int64(wakes)),
            "near_misses": .integer(Int64(nearMisses)),
            "refused_candidates": .integer(Int64(refusedCandidates)),
            "captures": .integer(Int64(captures)),
            "capture_s": .decimal(captureSeconds, places: 1),
            "triggers_during_capture": .integer(Int64(triggersDuringCapture)),
            "hook": hook.map { hook -> JSONValue in
                ["runs": .integer(Int64(hook.runs)), "failures": .integer(Int64(hook.failures)),
                 "killed": .integer(Int64(hook.killed)), "seconds": .decimal(hook.seconds, places: 2)]
            } ?? .null,
            "dropped_chunks": .object(droppedChunks.mapValues { .integer(Int64($0)) }),
            "uptime_s": .decimal(uptimeSeconds, places: 1),
            "heard_shown": .bool(heardShown),
            "remote": remote?.jsonValue ?? .null,
            "training": training?.jsonValue ?? .null,
        ]
    }

    /// The JSON body for `GET /ears` (`jsonValue`, keys sorted).
    package func json() -> String {
        jsonValue.jsonText
    }
}
