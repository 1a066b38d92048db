import EarsCore
import EarsPhonetics
import EarsConfig
import EarsEngines
import EarsPocketSphinx

/// `ears soundalikes "PHRASE" [--json] [--count N]`: prints texts that sound
/// like a phrase without being it (`SoundAlikeGenerator`), one a line, to
/// synthesize and scan as negatives.
///
/// It pronounces with the daemon's own pronouncer (`DetectorFactory.pronouncer(for:)`:
/// the PocketSphinx dictionary, then letter-to-sound rules), so the phones it
/// prints are the ones the phonetic matcher compares. Without a dictionary
/// there are no neighbours and no sentences, only the words alone.
package enum SoundAlikesCommand {
    /// Runs the command; returns the exit status (always 0: an empty list is an answer).
    package static func run(_ options: SoundAlikesOptions, config: EarsConfig, output: (String) -> Void) -> Int32 {
        let pronouncer = DetectorFactory.pronouncer(for: config)
        let generator = DetectorFactory.soundAlikeGenerator(pronouncer: pronouncer)
        for alike in ranked(generator, phrase: options.phrase, count: options.count, config: config) {
            output(options.json ? json(alike) : alike.text)
        }
        return EarsProgram.ExitCode.success
    }

    /// Neighbours asked of the generator per neighbour printed, to rank from.
    static let poolPerNeighbour = 10

    /// The neighbours ranked by how likely a person is to say them
    /// (`SoundAlikeRanking`, with PocketSphinx's language model for how often
    /// each word is said), then the words alone, then carrier sentences
    /// around the first neighbours. Without the language model (Vosk only)
    /// the generator's own order, by sound alone.
    static func ranked(_ generator: SoundAlikeGenerator, phrase: String, count: Int, config: EarsConfig) -> [SoundAlike] {
        let modelDirectory = config.engine == .pocketsphinx ? config.model : nil
        guard count > 0, let model = try? PocketSphinxModel.locate(in: modelDirectory),
              let language = try? PocketSphinxLanguageModel(model: model) else {
            return generator.soundAlikes(of: phrase, count: count)
        }
        let pool = generator.soundAlikes(of: phrase, count: max(count * poolPerNeighbour, 100))
        let folded = TextNormalizer.words(phrase).joined(separator: " ")
        let neighbours = SoundAlikeRanking.rank(pool, of: folded, count: count, log10Frequency: language.log10Frequency(of:))
        // A sentence carries its neighbour's sounds and cost, as the generator's do.
        let sentences = zip(SoundAlikeRanking.sentences(neighbours), neighbours).map { text, neighbour in
            SoundAlike(text: text, sounds: neighbour.alike.sounds, cost: neighbour.alike.cost, kind: .sentence)
        }
        return neighbours.map(\.alike) + pool.filter { $0.kind == .word } + sentences
    }

    /// `{"text":…,"phones":…,"cost":…,"kind":…}`; phones as "HH EY | K AO R N IY L Y AH".
    package static func json(_ alike: SoundAlike) -> String {
        JSONText.object([("text", JSONText.string(alike.text)), ("phones", JSONText.string(alike.sounds.description)),
                         ("cost", JSONText.number(alike.cost, places: 3)), ("kind", JSONText.string(alike.kind.rawValue))])
    }
}
