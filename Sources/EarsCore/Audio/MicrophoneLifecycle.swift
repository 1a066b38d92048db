/// The listening phase the status socket reports.
package enum ListenPhase: String, Sendable, Equatable {
    /// Trying to open the microphone or the engine.
    case opening
    /// Audio is flowing into the ear.
    case listening
    /// Not listening; `closed_why` says why in a sentence.
    case closed
    /// A sound file given as the input (`listen --input FILE`) was played to
    /// its end: nothing is wrong, and nothing more will be heard until ears
    /// is stopped; `closed_why` says so.
    case ended
}

/// The microphone's open/close/reopen rules as a pure state machine.
///
/// The audio owner reports what happened; the machine answers with what to do
/// next. Failed opens and lost devices back off 1 s, 2 s, 4 s … up to 30 s;
/// a successful open resets the backoff. No I/O here, so the rules are tested
/// without a sound card.
package struct MicrophoneLifecycle: Sendable, Equatable {
    /// First wait after a failure, in seconds.
    package static let firstRetrySeconds = 1.0
    /// Longest wait between attempts, in seconds.
    package static let maxRetrySeconds = 30.0

    /// What the audio owner should do next.
    package enum Action: Sendable, Equatable {
        /// Open the device now.
        case open
        /// Read chunks and feed the taps.
        case listen
        /// Stay closed for `seconds`, then open again; `why` goes to closed_why.
        case waitThenRetry(seconds: Double, why: String)
    }

    /// The phase to report.
    package private(set) var phase: ListenPhase = .opening
    /// The sentence for closed_why while closed, else nil.
    package private(set) var closedWhy: String?
    /// The wait the next failure will use, in seconds.
    package private(set) var nextRetrySeconds = MicrophoneLifecycle.firstRetrySeconds
    /// Times the device was (re)opened successfully.
    package private(set) var opens = 0

    package init() {}

    /// The first step: open.
    package mutating func begin() -> Action {
        phase = .opening
        return .open
    }

    /// The device opened: listen, and forget earlier failures.
    package mutating func opened() -> Action {
        phase = .listening
        closedWhy = nil
        nextRetrySeconds = MicrophoneLifecycle.firstRetrySeconds
        opens += 1
        return .listen
    }

    /// Opening failed, or the device went away while listening, for the reason
    /// `why`: close, wait, and try again with a longer wait next time.
    package mutating func failed(why: String) -> Action {
        phase = .closed
        closedWhy = why
        let wait = nextRetrySeconds
        nextRetrySeconds = min(MicrophoneLifecycle.maxRetrySeconds, nextRetrySeconds * 2)
        return .waitThenRetry(seconds: wait, why: why)
    }

    /// The input was a file and it has ended (`why` says so): the phase is
    /// `ended`; nothing is retried (the audio owner parks until stopped).
    package mutating func ended(why: String) {
        phase = .ended
        closedWhy = why
    }

    /// The wait is over: open again (the phase stays closed until it works,
    /// so the reason stays visible).
    package mutating func retryDue() -> Action {
        .open
    }
}
