import EarsCore
import Foundation
import EarsTraining

/// Finds the installed synthesis voices for English and Korean: flite's
/// built-in voices (`flite -lv`), festival's voice directories under
/// /usr/share/festival/voices (with its speakers of other languages, for
/// other speech only), and espeak-ng's languages (`--voices=en`,
/// `--voices=ko`) crossed with its voice variants (`--voices=variant`).
///
/// Left out on purpose: flite's `awb_time` (a limited-domain voice that only
/// says times of day), espeak-ng's MBROLA voices (need the separate mbrola
/// packages) and its novelty variants (robots, whispers, croaks: no person
/// sounds like them, and they would teach the detector the wrong things).
package struct VoiceCatalog: Sendable {
    /// Where Debian installs festival voices: `<root>/<language dir>/<voice>/festvox`.
    package static let festivalVoiceRoot = "/usr/share/festival/voices"
    /// Festival language directories and the language their voices speak:
    /// English ones say the phrase; the others (real recorded speakers of
    /// Czech, Finnish, Italian, Catalan: Debian's festvox-* packages)
    /// only say other speech and make babble (`TrainingPlan.otherLanguageSpeechShare`).
    /// Hindi, Marathi and Telugu voices are left out: they need their own
    /// scripts and say nothing for Latin text; so is Russian, whose
    /// letter-to-sound rules have none for Latin letters.
    package static let festivalLanguageDirectories: [String: String] = [
        "english": "en", "us": "en", "british": "en",
        "czech": "cs", "finnish": "fi", "italian": "it", "catalan": "ca",
    ]
    /// flite voices that cannot say arbitrary text.
    package static let fliteExcluded: Set<String> = ["awb_time"]
    /// espeak-ng variant files (lowercased, prefixes) that do not sound like a person.
    package static let espeakExcludedVariantPrefixes = [
        "demonic", "announcer", "half-life", "robosoft", "unirobot", "universalrobot", "anikarobot", "storm", "tweaky",
        "whisper", "croak", "fast", "kaukovalta", "mr serious", "mr_serious", "anxiousandy", "ricishaymax",
    ]

    /// Every voice found, sorted by `id`, at normal rate and default pitch.
    package let voices: [SynthVoice]

    /// Looks for voices now; an engine that is not installed contributes none.
    package init() {
        var found: [SynthVoice] = []
        found += Self.fliteVoices()
        found += Self.festivalVoices(root: Self.festivalVoiceRoot)
        found += Self.espeakVoices()
        voices = Array(Set(found)).sorted()
    }

    /// The voices that speak `language` ("en" or "ko").
    package func voices(for language: String) -> [SynthVoice] {
        voices.filter { $0.language == language }
    }

    /// Voices of languages ears has no phrases in (festival's Czech,
    /// Finnish, Italian and Catalan speakers), sorted: other speech
    /// and babble from vocal tracts the English and Korean voices lack.
    package var otherLanguageVoices: [SynthVoice] {
        voices.filter { !SynthVoice.phraseLanguages.contains($0.language) }
    }

    /// The engines that have at least one voice, in `Engine` order.
    package var engines: [SynthVoice.Engine] {
        Set(voices.map(\.engine)).sorted()
    }

    /// flite's compiled-in voices: "Voices available: kal awb_time kal16 awb rms slt".
    static func fliteVoices() -> [SynthVoice] {
        guard let output = try? Subprocess.run(.flite, ["-lv"]) else { return [] }
        return Self.parseFliteList(String(decoding: output, as: UTF8.self))
    }

    /// The names after "Voices available:", without the excluded ones.
    static func parseFliteList(_ text: String) -> [SynthVoice] {
        guard let colon = text.firstIndex(of: ":") else { return [] }
        return text[text.index(after: colon)...].split(whereSeparator: { $0.isWhitespace }).map(String.init)
            .filter { !fliteExcluded.contains($0) }
            .map { SynthVoice(engine: .flite, name: $0, language: "en") }
    }

    /// Festival voices: directories under a language directory of
    /// `festivalLanguageDirectories` that hold a `festvox` directory; the
    /// voice is said with `(voice_<dir>)`.
    static func festivalVoices(root: String) -> [SynthVoice] {
        guard Tool.festival.path != nil else { return [] }
        let manager = FileManager.default
        var voices: [SynthVoice] = []
        for directory in (try? manager.contentsOfDirectory(atPath: root)) ?? [] {
            guard let language = festivalLanguageDirectories[directory] else { continue }
            for name in (try? manager.contentsOfDirectory(atPath: root + "/" + directory)) ?? [] {
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: "\(root)/\(directory)/\(name)/festvox", isDirectory: &isDirectory), isDirectory.boolValue {
                    voices.append(SynthVoice(engine: .festival, name: name, language: language))
                }
            }
        }
        return voices
    }

    /// espeak-ng's English and Korean languages (eSpeak's own voices only,
    /// not MBROLA) crossed with the person-like variants.
    static func espeakVoices() -> [SynthVoice] {
        // Listing voices opens a PulseAudio client too: give it a private
        // directory, removed when `scratch` is released.
        let scratch = try? SpeechSynthesizer()
        func list(_ query: String) -> String {
            (try? Subprocess.run(.espeak, ["--voices=" + query], environment: scratch?.scratchEnvironment ?? [:]))
                .map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let variants = parseEspeakVariants(list("variant"))
        guard !variants.isEmpty else { return [] }
        var voices: [SynthVoice] = []
        for (query, language) in [("en", "en"), ("ko", "ko")] {
            for name in parseEspeakLanguages(list(query), language: language) {
                voices += variants.map { SynthVoice(engine: .espeak, name: name, variant: $0, language: language) }
            }
        }
        return voices
    }

    /// Language codes from `espeak-ng --voices=LANG` rows ("Pty Language
    /// Age/Gender VoiceName File …") whose file is not an MBROLA voice (`mb/`)
    /// and whose language starts with `language`.
    static func parseEspeakLanguages(_ table: String, language: String) -> [String] {
        var codes: [String] = []
        for row in table.split(separator: "\n").dropFirst() {
            let fields = row.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            guard fields.count >= 5, !fields[4].hasPrefix("mb/"), fields[1] != "variant",
                  fields[1] == language || fields[1].hasPrefix(language + "-") else { continue }
            if !codes.contains(fields[1]) { codes.append(fields[1]) }
        }
        return codes
    }

    /// Variant names (the file name after `!v/`) from `espeak-ng --voices=variant`, without novelty ones.
    static func parseEspeakVariants(_ table: String) -> [String] {
        var names: [String] = []
        for row in table.split(separator: "\n").dropFirst() {
            guard let range = row.range(of: "!v/") else { continue }
            // The File column ends at the next run of two spaces (or the row);
            // a name with a space in it cannot be passed as `lang+variant`.
            let rest = row[range.upperBound...]
            let name = String(rest.range(of: "  ").map { rest[..<$0.lowerBound] } ?? rest).trimmingCharacters(in: .whitespaces)
            let lowered = name.lowercased()
            guard !name.isEmpty, !name.contains(" "),
                  !espeakExcludedVariantPrefixes.contains(where: { lowered.hasPrefix($0) }) else { continue }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
