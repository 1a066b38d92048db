/// What starts a capture.
package enum CaptureSource: String, Sendable, Equatable {
    /// The wake phrase was heard.
    case wake
    /// `ears tap`: as if called, with a short pre-roll.
    case tap
}

/// The capture's limits. The cap is hard: a configured maximum can lower it,
/// never raise it past `absoluteMaximumSeconds`.
package struct CaptureLimits: Sendable, Equatable {
    /// Default total length cap, in seconds (pre-roll included).
    package static let defaultMaximumSeconds = 20.0
    /// No configuration can raise the cap past this, in seconds.
    package static let absoluteMaximumSeconds = 60.0
    /// Default silence that ends a capture, in seconds.
    package static let defaultSilenceSeconds = 0.8
    /// Ring audio a wake capture starts with, in seconds (so the phrase is included).
    package static let wakePreRollSeconds = 3.0
    /// Ring audio a tap capture starts with, in seconds.
    package static let tapPreRollSeconds = 0.3

    /// Total length cap in seconds, clamped to 0.5…60.
    package let maximumSeconds: Double
    /// Seconds of continuous silence after speech that end the capture.
    package let silenceSeconds: Double

    package init(maximumSeconds: Double = CaptureLimits.defaultMaximumSeconds,
                silenceSeconds: Double = CaptureLimits.defaultSilenceSeconds) {
        self.maximumSeconds = min(CaptureLimits.absoluteMaximumSeconds, max(0.5, maximumSeconds))
        self.silenceSeconds = max(0.1, silenceSeconds)
    }

    /// The cap in samples at 16 kHz.
    package var maximumSamples: Int { AudioFormat.samples(inSeconds: maximumSeconds) }
    /// The silence that ends a capture, in samples.
    package var silenceSamples: Int { AudioFormat.samples(inSeconds: silenceSeconds) }
}

/// One capture at a time, as a pure state machine returning actions.
///
/// A wake or tap while idle starts a capture with the ring's pre-roll (3 s
/// after a wake, 0.3 s after a tap); each following chunk is appended until
/// `silenceSeconds` of silence follow speech, or the total reaches the cap.
/// A wake during a capture extends nothing and is only counted.
package struct CaptureStateMachine: Sendable, Equatable {
    /// Why a capture ended.
    package enum StopReason: String, Sendable, Equatable {
        /// The speaker stopped: `silenceSeconds` of silence.
        case silence
        /// The capture reached its cap.
        case cap
        /// The audio stopped (device gone, input ended, shutdown).
        case abandoned

        /// Why, in plain words for the log ("capture ended: …").
        package var words: String {
            switch self {
            case .silence: "the speaker stopped (silence followed the speech)"
            case .cap: "it reached the capture cap ([capture] max_seconds)"
            case .abandoned: "the audio stopped (the device went away, the input ended or ears is stopping); what was captured is handed over"
            }
        }
    }

    /// What the caller does next.
    package enum Action: Sendable, Equatable {
        /// Start a capture: take the newest `preRollSamples` from the ring first.
        case start(source: CaptureSource, preRollSamples: Int)
        /// Append these samples (a chunk, possibly cut short by the cap).
        case append([Int16])
        /// End the capture.
        case stop(StopReason)
    }

    /// The limits in force.
    package private(set) var limits: CaptureLimits
    /// Captures started.
    package private(set) var captures = 0
    /// Samples captured in total (pre-roll included), for `capture_s`.
    package private(set) var capturedSamplesTotal = 0
    /// Wakes and taps that arrived during a capture (extended nothing).
    package private(set) var ignoredTriggers = 0

    private var active = false
    /// The limits the running capture started with.
    private var running = CaptureLimits()
    private var capturedSamples = 0
    private var silentSamples = 0

    package init(limits: CaptureLimits = CaptureLimits()) {
        self.limits = limits
    }

    /// Whether a capture is running.
    package var isCapturing: Bool { active }

    /// New limits take effect from the next capture on (a reload never
    /// stretches a capture that is running).
    package mutating func setLimits(_ limits: CaptureLimits) {
        self.limits = limits
    }

    /// A wake or tap: start a capture, or count it if one is running.
    /// `availableSamples` is how much audio the ring holds now.
    /// `lateSamples` is audio that arrived after the trigger's moment and
    /// before it was known (a wake decoded behind the microphone): it joins
    /// the pre-roll, so the capture holds the same audio as a timely one.
    package mutating func trigger(_ source: CaptureSource, availableSamples: Int, lateSamples: Int = 0) -> [Action] {
        guard !active else {
            ignoredTriggers += 1
            return []
        }
        let wanted = AudioFormat.samples(inSeconds: source == .wake ? CaptureLimits.wakePreRollSeconds
                                                                    : CaptureLimits.tapPreRollSeconds)
        running = limits
        let preRoll = min(wanted + max(0, lateSamples), availableSamples, running.maximumSamples)
        active = true
        captures += 1
        capturedSamples = preRoll
        capturedSamplesTotal += preRoll
        silentSamples = 0
        var actions: [Action] = [.start(source: source, preRollSamples: preRoll)]
        if capturedSamples >= running.maximumSamples {
            actions.append(stop(.cap))
        }
        return actions
    }

    /// A chunk from the audio owner; `hadSpeech` says whether it held speech.
    package mutating func chunk(_ samples: [Int16], hadSpeech: Bool) -> [Action] {
        guard active else { return [] }
        let room = running.maximumSamples - capturedSamples
        let taken = samples.count <= room ? samples : Array(samples.prefix(room))
        capturedSamples += taken.count
        capturedSamplesTotal += taken.count
        var actions: [Action] = taken.isEmpty ? [] : [.append(taken)]
        if capturedSamples >= running.maximumSamples {
            actions.append(stop(.cap))
            return actions
        }
        silentSamples = hadSpeech ? 0 : silentSamples + samples.count
        if silentSamples >= running.silenceSamples {
            actions.append(stop(.silence))
        }
        return actions
    }

    /// The audio went away or the daemon is stopping: end a running capture.
    package mutating func abandon() -> [Action] {
        guard active else { return [] }
        return [stop(.abandoned)]
    }

    private mutating func stop(_ reason: StopReason) -> Action {
        active = false
        capturedSamples = 0
        silentSamples = 0
        return .stop(reason)
    }
}
