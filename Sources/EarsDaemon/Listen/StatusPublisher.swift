import EarsCore

/// Publishes what the listen threads count onto the `StatusBoard`, each
/// thread its own fields, so no thread overwrites another's figures: the
/// audio owner the phase, captures, gaps and overruns; the ear its meter,
/// wakes, near misses and refusals; the loader the engine and model names;
/// the Wyoming wake service its `remote` meters.
///
/// Content-free by construction: every method takes counts, levels or
/// fixed names, never audio or words.
struct StatusPublisher: Sendable {
    let board: StatusBoard

    /// The phase and, while closed, its sentence (the audio owner).
    func phase(_ lifecycle: MicrophoneLifecycle) {
        let phase = lifecycle.phase, why = lifecycle.closedWhy
        board.update {
            $0.phase = phase
            $0.closedWhy = why
        }
    }

    /// The audio owner's counts after a chunk: captures, gaps, overruns.
    func audio(capture: CaptureTap, gaps: AudioGapMeter, overruns: Int) {
        let captures = capture.captures, captured = capture.capturedSeconds, dropped = capture.droppedChunks
        let ignored = capture.ignoredTriggers, lost = gaps.lostSeconds
        board.update {
            $0.triggersDuringCapture = ignored
            $0.captures = captures
            $0.captureSeconds = captured
            $0.droppedChunks = dropped
            $0.audioGapSeconds = lost
            $0.audioOverruns = overruns
        }
    }

    /// The ear's meter (the ear's thread, after each chunk it decodes).
    func ear(_ meter: EarMeter) {
        board.update { $0.ear = meter }
    }

    /// The judges' counts, and one more wake if `woke`.
    func judged(nearMisses: Int, refused: Int, woke: Bool) {
        board.update {
            $0.nearMisses = nearMisses
            $0.refusedCandidates = refused
            if woke { $0.wakes += 1 }
        }
    }

    /// A newly loaded engine's names (the loader).
    func engine(name: String, model: String) {
        board.update {
            $0.engine = name
            $0.model = model
        }
    }

    /// The Wyoming wake service's meters (its threads, after each change).
    func remote(_ meter: RemoteMeter) {
        board.update { $0.remote = meter }
    }

    /// Whether the ear text switch is on (a reload).
    func heardShown(_ on: Bool) {
        board.update { $0.heardShown = on }
    }
}
