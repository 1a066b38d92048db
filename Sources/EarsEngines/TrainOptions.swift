import EarsCore
import EarsConfig

/// `ears train` options.
package struct TrainOptions: Equatable {
    package var overrides = ConfigOverrides()
    /// The phrase (several operands are joined with spaces).
    package var phrase = ""
    /// `--minutes N`: the wall-time budget the training plan is sized for.
    package var minutes = TrainOptions.defaultMinutes
    /// `--voices LIST`: comma-separated voice ids or engine names to use
    /// (e.g. `flite,espeak`); empty means every installed voice.
    package var voices: [String] = []
    /// `--seed N`: the random seed (plans, augmentation, initial weights).
    package var seed: UInt64 = 1
    /// `--language en|ko`; nil means guessed from the phrase's script.
    package var language: String?

    /// The default budget in minutes, sized to finish one phrase on 2 cores.
    package static let defaultMinutes = EarsConfig.defaultTrainingMinutes
    /// `--use-anyway`: write the model in use even when the acoustic route
    /// hears more of the held-out calls (the comparison is still shown).
    package var useAnyway = false
    /// `--idle`: run at idle priority (SCHED_IDLE, nice 19), as background training does.
    package var idle = false
    /// `--progress lines`: progress as `progress FRACTION SECONDS_LEFT` lines
    /// on stderr (for the daemon), instead of a bar or plain lines.
    package var progressLines = false
    package init() {}
}
