import Foundation // log2 and exp2 only
import EarsCore
/// A random tone colour put on a clip: a low shelf, a high shelf and one
/// peak or notch, as a different microphone, a different room's absorption
/// or a different speaker's voice quality would give. The synthesizers each
/// have one spectral balance; a head that learns it as part of the phrase
/// loses calls in a voice with another (issue 20: the held-out engine). A
/// pure value: `soxEffectArguments` are run in `EarsSynth.AudioAugmenter`'s
/// one sox pass, before the reverb (the colour is the voice's and the
/// microphone's, the reverb the room's).
package struct ChannelColour: Sendable, Hashable {
    /// Gain range of each shelf and of the peak, in dB either way.
    package static let gainRangeDecibels: ClosedRange<Double> = -8...8
    /// Corner of the low shelf, in Hz: below the first formant, where
    /// the chest and a microphone's proximity effect sit.
    package static let bassCornerHertz = 250
    /// Corner of the high shelf, in Hz: the consonants and the brightness.
    package static let trebleCornerHertz = 2_500
    /// Range of the peak's centre, in Hz, drawn evenly in log frequency.
    package static let peakRangeHertz: ClosedRange<Double> = 300...4_000
    /// The peak's width as a quality factor.
    package static let peakQuality = 1.0

    /// Gain of the low shelf, in dB.
    package var bassDecibels: Double
    /// Gain of the high shelf, in dB.
    package var trebleDecibels: Double
    /// Centre of the peak (notch when its gain is negative), in Hz.
    package var peakHertz: Int
    /// Gain of the peak, in dB.
    package var peakDecibels: Double

    /// A colour as given.
    package init(bassDecibels: Double, trebleDecibels: Double, peakHertz: Int, peakDecibels: Double) {
        self.bassDecibels = bassDecibels
        self.trebleDecibels = trebleDecibels
        self.peakHertz = peakHertz
        self.peakDecibels = peakDecibels
    }

    /// A colour drawn within the ranges above, gains rounded to 0.1 dB.
    package static func random(using generator: inout SeededGenerator) -> ChannelColour {
        func gain() -> Double { (generator.double(in: gainRangeDecibels) * 10).rounded() / 10 }
        let bass = gain(), treble = gain()
        let logPeak = generator.double(in: log2(peakRangeHertz.lowerBound)...log2(peakRangeHertz.upperBound))
        return ChannelColour(bassDecibels: bass, trebleDecibels: treble, peakHertz: Int(exp2(logPeak).rounded()), peakDecibels: gain())
    }

    /// The headroom taken before the filters, in dB: the sum of the
    /// boosts, so no boosted band can clip (cuts need none). The clip's own
    /// level is set later by `Augmentation.gainDecibels`.
    package var headroomDecibels: Double {
        max(0, bassDecibels) + max(0, trebleDecibels) + max(0, peakDecibels)
    }

    /// The sox effects: gain for headroom (when anything is boosted), then
    /// `bass`, `treble` and `equalizer`.
    package var soxEffectArguments: [String] {
        var arguments: [String] = []
        if headroomDecibels > 0 { arguments += ["gain", Augmentation.decimal(-headroomDecibels, places: 1)] }
        arguments += ["bass", Augmentation.decimal(bassDecibels, places: 1), String(Self.bassCornerHertz)]
        arguments += ["treble", Augmentation.decimal(trebleDecibels, places: 1), String(Self.trebleCornerHertz)]
        arguments += ["equalizer", String(peakHertz), Augmentation.decimal(Self.peakQuality, places: 1) + "q",
                      Augmentation.decimal(peakDecibels, places: 1)]
        return arguments
    }
}
