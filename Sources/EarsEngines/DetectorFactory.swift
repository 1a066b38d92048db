import EarsCore
import EarsPocketSphinx
import EarsPhonetics
import EarsConfig

/// Builds the wake detector for a configuration: the phrases, the refractory
/// time and the scorer. Phonetic matching pronounces English words with the
/// PocketSphinx dictionary (the engine's own for PocketSphinx, Debian's for
/// other engines when present) and falls back to letter-to-sound rules.
package enum DetectorFactory {
    /// The pronouncer for `config`, loaded once per process: the dictionary is
    /// 3.2 MB on disk and about 2.2 MB packed in memory.
    package static func pronouncer(for config: EarsConfig) -> any Pronouncer {
        let dictionaryPath: String?
        if config.engine == .pocketsphinx, let model = try? PocketSphinxModel.locate(in: config.model) {
            dictionaryPath = model.dictionary
        } else {
            dictionaryPath = (try? PocketSphinxModel.locate(in: nil))?.dictionary
        }
        var members: [any Pronouncer] = []
        if let dictionary = dictionaryPath.flatMap({ CMUDictionaryPronouncer(path: $0) }) { members.append(dictionary) }
        members.append(LetterToSoundPronouncer())
        return PronouncerChain(members)
    }

    /// Most sound-alikes per phrase that the verifier weighs each candidate against.
    package static let competitorsPerPhrase = 20
    /// Cheapest sound-alike (in `PhoneticCost` units) that may compete: nearer
    /// ones ("olexa" for "alexa", 0.45; "okay maybe" for "okay nabu", 1.0)
    /// are the phrase itself to the acoustic model and refused real calls
    /// (flite saying "okay nabu": 1 of 4 woke at 1.0, 2 of 4 at 1.2); "hey
    /// cornelia" for "hey cordelia" costs 1.3 and still competes.
    package static let minimumCompetitorCost = 1.2
    /// Neighbours asked of the generator per phrase before they are
    /// filtered: enough that the filter finds `competitorsPerPhrase` when the
    /// dictionary has them. The generator scans the dictionary once whatever
    /// the count; spelling the extra neighbours costs about 0.04 CPU s per
    /// phrase when the engines load (release build, five phrases: `ears
    /// scan` of a second of silence 1.07 → 1.29 CPU s). A phrase's cheapest
    /// neighbours mostly change its short words ("hee cordelia", "okey
    /// nabu"), which `distinct` drops: from the first 60, "okay nabu" kept
    /// none (all cost under 1.2), so its candidates met no competitor; from
    /// 1,000 it keeps 20 ("okay not", "okay knock", "okay neighbor", …).
    package static let neighboursConsidered = 1000

    /// The sound-alikes of each configured phrase (phrase text → alikes),
    /// the verifier's competitors at run time: the generator's neighbours
    /// (`SoundAlikeGenerator`) that change the phrase's distinctive word —
    /// its longest, the last of them on a tie ("hey X", "okay X": the name
    /// comes last) — and cost at least `minimumCompetitorCost`. Neighbours of
    /// the short words ("hee cordelia", "heh cordelia") sound the same as the
    /// phrase to the acoustic model, so letting them compete refused real
    /// calls; the words alone are left out for the same reason. Only when the
    /// verifier is on (the generator scans the dictionary, ~0.1 s).
    package static func soundAlikes(for config: EarsConfig, pronouncer: any Pronouncer) -> [String: [String]] {
        guard config.verifier, config.engine == .pocketsphinx else { return [:] }
        let generator = soundAlikeGenerator(pronouncer: pronouncer)
        var result: [String: [String]] = [:]
        for phrase in config.phrases {
            result[phrase.text] = distinct(generator.soundAlikes(of: phrase.text, count: neighboursConsidered), of: phrase.text)
                .filter { $0.kind == .neighbour }
                .prefix(competitorsPerPhrase).map(\.text)
        }
        return result
    }

    /// A sound-alike generator over `pronouncer`'s words (a pronouncer that
    /// cannot list its words lends none: only the phrase's own words remain).
    package static func soundAlikeGenerator(pronouncer: any Pronouncer) -> SoundAlikeGenerator {
        SoundAlikeGenerator(dictionary: (pronouncer as? any PronouncingDictionary) ?? PronouncerChain([pronouncer]))
    }

    /// The sound-alikes of `phrase` that are really something else: those
    /// (neighbours, and sentences holding one) that change the phrase's
    /// distinctive word — its longest, the last of them on a tie — keep its
    /// other words, and cost at least `minimumCompetitorCost`. The rest
    /// ("hee cordelia" for "hey cordelia") are the phrase as an acoustic
    /// model hears it: as competitors they refused real calls, and as a
    /// trained model's negatives they taught it to miss the phrase.
    package static func distinct(_ alikes: [SoundAlike], of phrase: String) -> [SoundAlike] {
        let words = TextNormalizer.words(phrase)
        let longest = words.map(\.count).max() ?? 0
        guard let distinctive = words.lastIndex(where: { $0.count == longest }) else { return [] }
        return alikes.filter { alike in
            guard alike.cost >= minimumCompetitorCost else { return false }
            let alikeWords = TextNormalizer.words(alike.text)
            switch alike.kind {
            case .neighbour:
                guard alikeWords.count == words.count else { return false }
                return alikeWords[distinctive] != words[distinctive]
                    && alikeWords.indices.allSatisfy { $0 == distinctive || alikeWords[$0] == words[$0] }
            case .sentence:
                // A carrier sentence around a neighbour: the distinctive word must be gone.
                return !alikeWords.contains(words[distinctive])
            case .word:
                return false
            }
        }
    }

    /// The judge `config` decides wakes with: its detector, `verifier` at
    /// `[wake] verifier_threshold`, the trained models' sound-alike
    /// contest as configured, and their fusion with the verifier
    /// (`EngineFactory.fusion(for:)`), and both routes for the phrases with
    /// a model (`EngineFactory.bothRoutes`). `onCandidate` sees every verified candidate.
    package static func judge(for config: EarsConfig, pronouncer: any Pronouncer, verifier: (any WakeVerifier)?,
                              onCandidate: ((WakeJudge.Candidate) -> Void)? = nil) -> WakeJudge {
        WakeJudge(detector: make(for: config, pronouncer: pronouncer), verifier: verifier,
                  threshold: config.verifierThreshold, contestTrained: config.trainedContest,
                  fusion: EngineFactory.fusion(for: config), bothRoutes: EngineFactory.bothRoutes(config),
                  verifyHeaded: config.bothRoutesVerifier, headAloneScore: config.headAloneScore,
                  headAgreement: config.headAgreement, sureVerifierScore: config.sureVerifierScore, onCandidate: onCandidate)
    }

    /// A detector for `config`, sharing `pronouncer` (make it once with
    /// `pronouncer(for:)`; it is immutable).
    package static func make(for config: EarsConfig, pronouncer: any Pronouncer) -> WakeDetector {
        let scoring: WakeDetector.Scoring = switch config.matching {
        case .phonetic: .phonetic(PhoneticScorer(pronouncer: pronouncer))
        case .letters: .letters(LetterScorer())
        }
        return WakeDetector(phrases: config.phrases, refractorySeconds: config.refractorySeconds, scoring: scoring)
    }
}
