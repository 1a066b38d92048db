/// One synthetic speaker: a text-to-speech engine, its voice, and the
/// speaking rate and pitch to ask of it. A pure value; `EarsSynth` runs it.
///
/// The rate is relative (`ratePercent`, 100 = the engine's normal speed) so
/// that one plan can vary it the same way on every engine: espeak-ng gets
/// `-s` words per minute (175 × rate), flite and festival a duration stretch
/// (100 / rate). Pitch is espeak-ng's `-p` (0…99, 50 normal) and applies to
/// espeak-ng only: flite's and festival's pitch knobs are voice-specific Hz
/// targets, so their pitch is varied by the augmentation's pitch shift
/// instead.
package struct SynthVoice: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text-to-speech programs ears knows how to run.
    package enum Engine: String, Sendable, Hashable, CaseIterable, Comparable {
        /// flite (CMU Flite): `flite -voice NAME`. Debian package flite.
        case flite
        /// festival (`festival --pipe`, `(voice_NAME)`). Debian package festival and a festvox-* voice.
        case festival
        /// espeak-ng: `espeak-ng -v NAME+VARIANT`. Debian package espeak-ng.
        case espeak

        /// Orders engines by declaration (flite, festival, espeak).
        package static func < (a: Engine, b: Engine) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }

        /// The Debian package that provides the engine's program.
        package var debianPackage: String {
            switch self {
            case .flite: "flite"
            case .festival: "festival"
            case .espeak: "espeak-ng"
            }
        }
    }

    /// The languages ears hears phrases in; a voice of any other language
    /// only reads other speech.
    package static let phraseLanguages: Set<String> = ["en", "ko"]

    /// espeak-ng's normal speed, in words per minute (`-s` default).
    package static let espeakNormalWordsPerMinute = 175
    /// espeak-ng's normal pitch (`-p` default, 0…99).
    package static let espeakNormalPitch = 50

    /// The engine that speaks.
    package var engine: Engine
    /// The engine's voice name: flite `kal16`, festival `kal_diphone`, espeak-ng `en-us` or `ko`.
    package var name: String
    /// espeak-ng's variant (`m3`, `f2`, `klatt`), appended as `+variant`; nil for the others.
    package var variant: String?
    /// The language spoken: "en" or "ko" (phrases), or another festival
    /// voice's ("cs", "fi", "it", "ca": other speech only).
    package var language: String
    /// Speaking rate in percent of the engine's normal speed (100 = normal).
    package var ratePercent: Int
    /// espeak-ng pitch, 0…99 (nil = the voice's default); ignored by flite and festival.
    package var pitch: Int?

    /// A voice at normal rate and default pitch unless told.
    package init(engine: Engine, name: String, variant: String? = nil, language: String,
                ratePercent: Int = 100, pitch: Int? = nil) {
        self.engine = engine
        self.name = name
        self.variant = variant
        self.language = language
        self.ratePercent = ratePercent
        self.pitch = pitch
    }

    /// The engine's name, for holding out a whole engine ("flite", "festival", "espeak").
    package var engineName: String { engine.rawValue }

    /// The speaker without prosody settings (`espeak:en-us+f2`, `flite:kal16`):
    /// what splits are made by, so that one speaker at two rates never lands
    /// in both train and held-out.
    package var speakerID: String {
        "\(engine.rawValue):\(name)" + (variant.map { "+\($0)" } ?? "")
    }

    /// A stable identifier: the speaker, then `:rNNN` when the rate is not
    /// 100 and `:pNN` when a pitch is set (`espeak:en-us+f2:r110:p60`, `flite:kal16`).
    package var id: String {
        var text = speakerID
        if ratePercent != 100 { text += ":r\(ratePercent)" }
        if let pitch { text += ":p\(pitch)" }
        return text
    }

    /// The same speaker at another rate and pitch.
    package func with(ratePercent: Int, pitch: Int?) -> SynthVoice {
        var copy = self
        copy.ratePercent = ratePercent
        copy.pitch = engine == .espeak ? pitch : nil
        return copy
    }

    /// The espeak-ng `-v` argument (`en-us+f2`).
    package var espeakVoiceArgument: String { name + (variant.map { "+\($0)" } ?? "") }

    /// espeak-ng's `-s` words per minute for `ratePercent`, within its 80…450 limits.
    package var espeakWordsPerMinute: Int {
        min(450, max(80, Self.espeakNormalWordsPerMinute * ratePercent / 100))
    }

    /// flite's and festival's duration stretch for `ratePercent` (> 1 = slower).
    package var durationStretch: Double { 100.0 / Double(max(ratePercent, 1)) }

    /// `id`.
    package var description: String { id }

    /// Orders by `id`, for deterministic listings.
    package static func < (a: SynthVoice, b: SynthVoice) -> Bool { a.id < b.id }
}
