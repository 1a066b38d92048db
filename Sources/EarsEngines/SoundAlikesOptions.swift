import EarsCore
import EarsPhonetics

/// `ears soundalikes` options.
package struct SoundAlikesOptions: Equatable {
    package var overrides = ConfigOverrides()
    /// The phrase (several operands are joined with spaces).
    package var phrase = ""
    /// `--json`: one object per line instead of one text per line.
    package var json = false
    /// `--count N`: at most N neighbours (the words alone and sentences come on top).
    package var count = SoundAlikeGenerator.defaultCount
    package init() {}
}
