import EarsCore
import EarsPhonetics
import EarsConfig
import EarsEngines

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
        for alike in generator.soundAlikes(of: options.phrase, count: options.count) {
            output(options.json ? json(alike) : alike.text)
        }
        return EarsProgram.ExitCode.success
    }

    /// `{"text":…,"phones":…,"cost":…,"kind":…}`; phones as "HH EY | K AO R N IY L Y AH".
    package static func json(_ alike: SoundAlike) -> String {
        JSONText.object([("text", JSONText.string(alike.text)), ("phones", JSONText.string(alike.sounds.description)),
                         ("cost", JSONText.number(alike.cost, places: 3)), ("kind", JSONText.string(alike.kind.rawValue))])
    }
}
