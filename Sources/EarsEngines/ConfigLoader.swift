import EarsCore
import Foundation
import EarsConfig

/// Reads ears.conf and applies command-line overrides.
package enum ConfigLoader {
    /// The configuration for `overrides`: the file named by `--config` (which
    /// must exist), else /etc/ears/ears.conf if present, else the defaults;
    /// then the flags on top. Throws `ConfigError` with file:line.
    package static func load(_ overrides: ConfigOverrides) throws(ConfigError) -> EarsConfig {
        try loadLocated(overrides).config
    }

    /// `load`, keeping where each key was set (a file line or a flag) for
    /// the checks `ConfigValidation` makes afterwards.
    package static func loadLocated(_ overrides: ConfigOverrides) throws(ConfigError) -> LocatedConfig {
        let (located, errors) = try loadCollecting(overrides)
        if let first = errors.first { throw first }
        return located
    }

    /// `loadLocated`, going on past bad lines (`ConfigParser.parseCollecting`):
    /// the configuration from what was good, and every problem found, in
    /// file order. Throws only when the file cannot be read at all.
    package static func loadCollecting(_ overrides: ConfigOverrides) throws(ConfigError)
        -> (config: LocatedConfig, errors: [ConfigError]) {
        var located = LocatedConfig(config: EarsConfig())
        var errors: [ConfigError] = []
        let path = overrides.configPath ?? EarsConfig.defaultPath
        if overrides.configPath != nil || FileManager.default.fileExists(atPath: path) {
            (located, errors) = try ConfigParser.parseCollecting(bytes: try read(path), file: path)
        }
        overrides.apply(to: &located.config)
        if overrides.model != nil { located.origins["engine.model"] = .init(file: "--model", line: 0) }
        if overrides.device != nil { located.origins["audio.device"] = .init(file: "--device", line: 0) }
        if !overrides.phrases.isEmpty {
            located.origins["wake.phrase"] = .init(file: "--phrase", line: 0)
            if let problem = PhraseLimits.problem(in: located.config.phrases) {
                errors.append(ConfigError(file: "--phrase", line: 0, message: problem))
            }
        }
        return (located, errors)
    }

    /// The file's bytes, refusing one over `ConfigLines.maximumFileBytes`
    /// before reading it whole (a 940 MB file must not be loaded to be refused).
    static func read(_ path: String) throws(ConfigError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConfigError(file: path, line: 0, message: "cannot read the file; check that it exists and is readable, or pass --config PATH")
        }
        defer { try? handle.close() }
        // One byte past the limit tells "too large" apart without trusting
        // the size stat reports (a pipe or /proc file has none).
        let data: Data
        do {
            // nil means end of file at once: an empty file (or /dev/null).
            data = try handle.read(upToCount: ConfigLines.maximumFileBytes + 1) ?? Data()
        } catch {
            throw ConfigError(file: path, line: 0, message: "cannot read the file (is it a directory?); pass --config with the path of ears.conf")
        }
        guard data.count <= ConfigLines.maximumFileBytes else {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            throw ConfigLines.tooLarge(file: path, byteCount: attributes?[.size] as? Int)
        }
        return [UInt8](data)
    }

    /// Where sockets live: `[status] runtime_directory`, else
    /// `$RUNTIME_DIRECTORY` (systemd), else `$XDG_RUNTIME_DIR/ears`, else `/tmp/ears-<uid>`.
    package static func runtimeDirectory(for config: EarsConfig,
                                        environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let configured = config.runtimeDirectory { return configured }
        if let systemd = environment["RUNTIME_DIRECTORY"], !systemd.isEmpty {
            // systemd may list several directories separated by colons; ours is the first.
            return String(systemd.split(separator: ":").first ?? Substring(systemd))
        }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty { return xdg + "/ears" }
        return "/tmp/ears-\(getuid())"
    }
}
