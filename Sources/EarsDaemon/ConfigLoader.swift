import EarsCore
import Foundation

/// Reads ears.conf and applies command-line overrides.
public enum ConfigLoader {
    /// The configuration for `overrides`: the file named by `--config` (which
    /// must exist), else /etc/ears/ears.conf if present, else the defaults;
    /// then the flags on top. Throws `ConfigError` with file:line.
    public static func load(_ overrides: ConfigOverrides) throws(ConfigError) -> EarsConfig {
        var config = EarsConfig()
        let path = overrides.configPath ?? EarsConfig.defaultPath
        if overrides.configPath != nil || FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError(file: path, line: 0, message: "cannot read the file; check that it exists and is readable, or pass --config PATH")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ConfigError(file: path, line: 0, message: "the file is not UTF-8 text")
            }
            config = try ConfigParser.parse(text, file: path)
        }
        overrides.apply(to: &config)
        return config
    }

    /// Where sockets live: `[status] runtime_directory`, else
    /// `$RUNTIME_DIRECTORY` (systemd), else `$XDG_RUNTIME_DIR/ears`, else `/tmp/ears-<uid>`.
    public static func runtimeDirectory(for config: EarsConfig,
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
