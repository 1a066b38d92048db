import EarsCore
import EarsPocketSphinx

/// Builds the wake detector for a configuration: the phrases, the refractory
/// time and the scorer. Phonetic matching pronounces English words with the
/// PocketSphinx dictionary (the engine's own for PocketSphinx, Debian's for
/// other engines when present) and falls back to letter-to-sound rules.
public enum DetectorFactory {
    /// The pronouncer for `config`, loaded once per process: the dictionary is
    /// 3.2 MB on disk and about 2.2 MB packed in memory.
    public static func pronouncer(for config: EarsConfig) -> any Pronouncer {
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

    /// Sound-alikes per phrase that the verifier weighs each candidate against.
    public static let competitorsPerPhrase = 20

    /// The sound-alikes of each configured phrase (phrase text → alikes),
    /// the verifier's competitors at run time: its near neighbours and its
    /// words alone (`SoundAlikeGenerator`), not the carrier sentences. Only
    /// when the verifier is on (the generator scans the dictionary, ~0.1 s).
    public static func soundAlikes(for config: EarsConfig, pronouncer: any Pronouncer) -> [String: [String]] {
        guard config.verifier, config.engine == .pocketsphinx else { return [:] }
        let dictionary = (pronouncer as? any PronouncingDictionary) ?? PronouncerChain([pronouncer])
        let generator = SoundAlikeGenerator(dictionary: dictionary)
        var result: [String: [String]] = [:]
        for phrase in config.phrases {
            result[phrase.text] = generator.soundAlikes(of: phrase.text, count: competitorsPerPhrase)
                .filter { $0.kind != .sentence }.map(\.text)
        }
        return result
    }

    /// A detector for `config`, sharing `pronouncer` (make it once with
    /// `pronouncer(for:)`; it is immutable).
    public static func make(for config: EarsConfig, pronouncer: any Pronouncer) -> WakeDetector {
        let scoring: WakeDetector.Scoring = switch config.matching {
        case .phonetic: .phonetic(PhoneticScorer(pronouncer: pronouncer))
        case .letters: .letters(LetterScorer())
        }
        return WakeDetector(phrases: config.phrases, refractorySeconds: config.refractorySeconds, scoring: scoring)
    }
}
