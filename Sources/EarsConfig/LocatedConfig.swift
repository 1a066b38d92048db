/// A configuration together with where each of its keys was set, so a
/// check made after parsing (does the group exist, is the hook executable)
/// can still name `file:line`, or the flag that set the value.
package struct LocatedConfig: Sendable, Equatable {
    /// Where one key's value came from.
    package struct Origin: Sendable, Equatable {
        /// The file (or `--flag` for a command-line value).
        package var file: String
        /// 1-based line; 0 for a flag.
        package var line: Int

        /// An origin in `file` at `line` (0 for a flag).
        package init(file: String, line: Int) {
            self.file = file
            self.line = line
        }
    }

    /// The configuration.
    package var config: EarsConfig
    /// `section.key` (as in `ConfigParser.documentedKeys`) → where its value
    /// was last set. A key at its default has no entry.
    package var origins: [String: Origin]

    /// A configuration with `origins` (none: every key at its default or set in code).
    package init(config: EarsConfig, origins: [String: Origin] = [:]) {
        self.config = config
        self.origins = origins
    }

    /// A `ConfigError` saying `message` about `key` (`section.key`), at the
    /// key's origin, or at `fallbackFile` when the key was not set anywhere.
    package func error(at key: String, _ message: String, fallbackFile: String) -> ConfigError {
        guard let origin = origins[key] else { return ConfigError(file: fallbackFile, line: 0, message: message) }
        return ConfigError(file: origin.file, line: origin.line, message: message)
    }
}
