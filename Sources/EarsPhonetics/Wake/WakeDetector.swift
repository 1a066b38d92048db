import EarsCore
/// The wake detector: text matching over the ear's recent pieces.
///
/// A pure value apart from its scorer: it is handed each new piece with the
/// ones before it and answers with at most one wake. Several phrases, each
/// with its own threshold and aliases; the best-scoring phrase above its
/// threshold wins. It fires once per utterance (a phrase found in a volatile
/// piece does not fire again when that utterance turns final) and keeps a
/// refractory time per phrase (default 2 s of audio). Scores just under a
/// threshold count as near misses, once per utterance, content-free.
///
/// The scorer is chosen with `Scoring`, a closed enum of the two scorers,
/// rather than by making the detector generic: `WakeDetector<Scorer>` would
/// ripple into every holder (the listen service swaps detectors on reload,
/// possibly between scorers), and an existential would hide each scorer's
/// typed `Prepared` form. Inside, one generic `ScoredForms<Scorer>` keeps a
/// scorer with its own prepared forms, so the scoring loop is written once.
package struct WakeDetector {
    /// How phrases are scored: by letters or by sound.
    package enum Scoring {
        /// Letter matching (`LetterScorer`): exact spelling tolerances only.
        case letters(LetterScorer)
        /// Sound matching (`PhoneticScorer`): sound-alike words count.
        case phonetic(PhoneticScorer)
    }

    /// Score needed when a phrase does not set its own.
    package static let defaultThreshold = 0.8
    /// Audio seconds after a wake during which the same phrase cannot fire again.
    package static let defaultRefractorySeconds = 2.0
    /// How far under its threshold a score still counts as a near miss.
    package static let nearMissMargin = 0.15
    /// Utterances remembered as "already fired"; older ones cannot recur.
    private static let rememberedUtterances = 32

    /// The phrases listened for.
    package let phrases: [WakePhrase]
    /// Refractory time per phrase, in seconds of audio.
    package let refractorySeconds: Double
    /// Utterances whose best score fell within `nearMissMargin` under a threshold without waking.
    package private(set) var nearMisses = 0

    /// The scorer with every phrase's forms prepared for it.
    private let forms: Forms
    private var firedUtterances: [Int] = []
    private var nearMissUtterances: [Int] = []
    private var lastWakeSeconds: [Double?]

    /// Makes a detector for `phrases` (phrases without letters are ignored),
    /// scoring with `scoring` (letters by default). Each phrase form is
    /// prepared once, here.
    package init(phrases: [WakePhrase], refractorySeconds: Double = WakeDetector.defaultRefractorySeconds,
                scoring: Scoring = .letters(LetterScorer())) {
        let usable = phrases.filter { !LetterMatcher.letters($0.text).isEmpty }
        self.phrases = usable
        self.refractorySeconds = refractorySeconds
        let texts = usable.map { phrase in phrase.forms.filter { !LetterMatcher.letters($0).isEmpty } }
        switch scoring {
        case let .letters(scorer): forms = .letters(ScoredForms(scorer: scorer, texts: texts))
        case let .phonetic(scorer): forms = .phonetic(ScoredForms(scorer: scorer, texts: texts))
        }
        self.lastWakeSeconds = Array(repeating: nil, count: usable.count)
    }

    /// Considers `newest`, the piece that just arrived, in the context of
    /// `recent` (the ear's recent pieces, which may include `newest`). The
    /// final piece just before `newest`'s utterance is prepended so a phrase
    /// split across two utterances is still heard, but a match must end inside
    /// `newest`, and an utterance that already fired lends no words, so old
    /// words never fire twice. Returns a wake or nil.
    package mutating func consider(_ newest: TranscriptPiece, recent: [TranscriptPiece]) -> WakeEvent? {
        guard !firedUtterances.contains(newest.utterance) else { return nil }
        guard !LetterMatcher.letters(newest.text).isEmpty else { return nil }
        // An utterance that already fired lends no words: its phrase was heard.
        let before = recent.last { $0.kind == .final && $0.utterance != newest.utterance }
            .flatMap { firedUtterances.contains($0.utterance) ? nil : $0 }

        var best: (index: Int, score: Double)?
        var nearMiss = false
        for (index, phrase) in phrases.enumerated() {
            let score = forms.best(ofPhrase: index, before: before?.text ?? "", newest: newest.text)
            guard score >= phrase.threshold else {
                if score >= phrase.threshold - WakeDetector.nearMissMargin { nearMiss = true }
                continue
            }
            if let last = lastWakeSeconds[index], newest.endSeconds - last < refractorySeconds { continue }
            if best == nil || score > best!.score { best = (index, score) }
        }
        guard let best else {
            if nearMiss && !nearMissUtterances.contains(newest.utterance) {
                nearMisses += 1
                remember(newest.utterance, in: &nearMissUtterances)
            }
            return nil
        }
        lastWakeSeconds[best.index] = newest.endSeconds
        remember(newest.utterance, in: &firedUtterances)
        if let index = nearMissUtterances.firstIndex(of: newest.utterance) {
            // It woke after all: that utterance was not a miss.
            nearMissUtterances.remove(at: index)
            nearMisses -= 1
        }
        return WakeEvent(phrase: phrases[best.index].text, score: best.score,
                         audioSeconds: newest.endSeconds, utterance: newest.utterance, pieceKind: newest.kind)
    }

    /// Each phrase's best score (0…1, phrase order) for `newest` after the
    /// final piece before its utterance in `recent`, whatever the thresholds,
    /// refractory times and fired utterances say: what `ears tune` plots when
    /// the detector's score decides. Changes nothing.
    package func phraseScores(_ newest: TranscriptPiece, recent: [TranscriptPiece]) -> [Double] {
        guard !LetterMatcher.letters(newest.text).isEmpty else { return Array(repeating: 0, count: phrases.count) }
        let before = recent.last { $0.kind == .final && $0.utterance != newest.utterance }?.text ?? ""
        return phrases.indices.map { forms.best(ofPhrase: $0, before: before, newest: newest.text) }
    }

    /// Gives back the refractory time a wake of `phrase` at `audioSeconds`
    /// took, when it is still the phrase's last: for a candidate refused
    /// after the detector found it (both routes' wait for a head), so a later
    /// detection of the same phrase is not silenced by it.
    package mutating func forgetWake(phrase: String, at audioSeconds: Double) {
        guard let index = phrases.firstIndex(where: { $0.text == phrase }), lastWakeSeconds[index] == audioSeconds else { return }
        lastWakeSeconds[index] = nil
    }

    /// Forgets which utterances fired and the refractory clocks (a new
    /// stream); the near-miss count is a meter and keeps counting.
    package mutating func reset() {
        firedUtterances.removeAll()
        nearMissUtterances.removeAll()
        lastWakeSeconds = Array(repeating: nil, count: phrases.count)
    }

    private func remember(_ utterance: Int, in list: inout [Int]) {
        list.append(utterance)
        if list.count > WakeDetector.rememberedUtterances { list.removeFirst() }
    }

    /// The scorer in use with its prepared forms; one case per `Scoring` case.
    private enum Forms {
        case letters(ScoredForms<LetterScorer>)
        case phonetic(ScoredForms<PhoneticScorer>)

        func best(ofPhrase index: Int, before: String, newest: String) -> Double {
            switch self {
            case let .letters(forms): forms.best(ofPhrase: index, before: before, newest: newest)
            case let .phonetic(forms): forms.best(ofPhrase: index, before: before, newest: newest)
            }
        }
    }
}

/// A scorer and each phrase's forms prepared by it (phrase order, then form order).
private struct ScoredForms<Scorer: PhraseScorer> {
    let scorer: Scorer
    let prepared: [[Scorer.Prepared]]

    init(scorer: Scorer, texts: [[String]]) {
        self.scorer = scorer
        prepared = texts.map { $0.map(scorer.prepare) }
    }

    /// The best score, 0…1, of any form of phrase `index`; 0 if it has none.
    func best(ofPhrase index: Int, before: String, newest: String) -> Double {
        prepared[index].map { scorer.score($0, before: before, newest: newest) }.max() ?? 0
    }
}
