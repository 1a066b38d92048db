/// A phrase the detector listens for, as written text.
public struct WakePhrase: Sendable, Equatable {
    /// The phrase as the user wrote it, e.g. "hey cordelia".
    public var text: String
    /// Lowest score (0…1) that counts as a wake.
    public var threshold: Double

    public init(text: String, threshold: Double = WakeDetector.defaultThreshold) {
        self.text = text
        self.threshold = threshold
    }
}

/// A heard phrase. Carries the phrase and numbers, never the words around it.
public struct WakeEvent: Sendable, Equatable {
    /// The configured phrase text that matched.
    public var phrase: String
    /// Match score, 0…1.
    public var score: Double
    /// Audio time of the decision, seconds since the stream started.
    public var audioSeconds: Double
    /// The utterance the phrase was found in.
    public var utterance: Int
    /// Whether it fired on a volatile guess (before the engine settled) or a final piece.
    public var pieceKind: TranscriptPiece.Kind = .final
}

/// Wake detector v1: text matching over the ear's recent pieces.
///
/// A pure value: it is handed each new piece with the ones before it and
/// answers with at most one wake. It fires once per utterance (a phrase found
/// in a volatile piece does not fire again when that utterance turns final)
/// and keeps a refractory time per phrase (default 2 s of audio).
public struct WakeDetector: Sendable {
    /// Score needed when a phrase does not set its own.
    public static let defaultThreshold = 0.8
    /// Audio seconds after a wake during which the same phrase cannot fire again.
    public static let defaultRefractorySeconds = 2.0
    /// Utterances remembered as "already fired"; older ones cannot recur.
    private static let rememberedUtterances = 32

    /// The phrases listened for.
    public let phrases: [WakePhrase]
    /// Refractory time per phrase, in seconds of audio.
    public let refractorySeconds: Double

    private let phraseLetters: [[Character]]
    private var firedUtterances: [Int] = []
    private var lastWakeSeconds: [Double?]

    /// Makes a detector for `phrases` (empty phrases are ignored).
    public init(phrases: [WakePhrase], refractorySeconds: Double = WakeDetector.defaultRefractorySeconds) {
        let usable = phrases.filter { !PhraseMatcher.letters($0.text).isEmpty }
        self.phrases = usable
        self.refractorySeconds = refractorySeconds
        self.phraseLetters = usable.map { PhraseMatcher.letters($0.text) }
        self.lastWakeSeconds = Array(repeating: nil, count: usable.count)
    }

    /// Considers `newest`, the piece that just arrived, in the context of
    /// `recent` (the ear's recent pieces, which may include `newest`). The
    /// final piece just before `newest`'s utterance is prepended so a phrase
    /// split across two utterances is still heard, but a match must end inside
    /// `newest`, and an utterance that already fired lends no words, so old
    /// words never fire twice. Returns a wake or nil.
    public mutating func consider(_ newest: TranscriptPiece, recent: [TranscriptPiece]) -> WakeEvent? {
        guard !firedUtterances.contains(newest.utterance) else { return nil }
        let newLetters = PhraseMatcher.letters(newest.text)
        guard !newLetters.isEmpty else { return nil }
        // An utterance that already fired lends no words: its phrase was heard.
        let before = recent.last { $0.kind == .final && $0.utterance != newest.utterance }
            .flatMap { firedUtterances.contains($0.utterance) ? nil : $0 }
        let beforeLetters = before.map { PhraseMatcher.letters($0.text) } ?? []
        let text = beforeLetters + newLetters

        var best: (index: Int, score: Double)?
        for (index, phrase) in phrases.enumerated() {
            guard let match = PhraseMatcher.bestMatch(of: phraseLetters[index], in: text,
                                                      earliestEnd: beforeLetters.count + 1),
                  match.score >= phrase.threshold else { continue }
            if let last = lastWakeSeconds[index], newest.endSeconds - last < refractorySeconds { continue }
            if best == nil || match.score > best!.score { best = (index, match.score) }
        }
        guard let best else { return nil }
        lastWakeSeconds[best.index] = newest.endSeconds
        firedUtterances.append(newest.utterance)
        if firedUtterances.count > WakeDetector.rememberedUtterances { firedUtterances.removeFirst() }
        return WakeEvent(phrase: phrases[best.index].text, score: best.score,
                         audioSeconds: newest.endSeconds, utterance: newest.utterance, pieceKind: newest.kind)
    }

    /// Forgets which utterances fired and the refractory clocks (a new stream).
    public mutating func reset() {
        firedUtterances.removeAll()
        lastWakeSeconds = Array(repeating: nil, count: phrases.count)
    }
}
