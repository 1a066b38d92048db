#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import Foundation
import EarsConfig

/// The checks a configuration must pass before `ears listen` runs with it —
/// the ones that ask the machine (does the group exist, is the hook an
/// executable file, is the model directory there) rather than the text.
///
/// `ears check-config`, `ears listen` at start and a SIGHUP reload all go
/// through `load(_:)`, so what `check-config` passes, `listen` accepts, and
/// a reload is refused for the same sentence. Each problem names the
/// `file:line` (or `--flag`) the value came from.
package enum ConfigValidation {
    /// Every problem found, each a located `ConfigError`.
    package struct Problems: Error, Sendable, CustomStringConvertible {
        /// The problems, in key order; never empty.
        package var errors: [ConfigError]

        /// One line per problem.
        package var description: String { errors.map(\.description).joined(separator: "\n") }
    }

    /// The configuration for `overrides` (`ConfigLoader.loadLocated`), checked.
    ///
    /// - Throws: `Problems` with the parse error alone when the file does not
    ///   parse, else with every check that failed.
    package static func load(_ overrides: ConfigOverrides) throws(Problems) -> EarsConfig {
        let located: LocatedConfig
        do throws(ConfigError) {
            located = try ConfigLoader.loadLocated(overrides)
        } catch {
            throw Problems(errors: [error])
        }
        let problems = problems(in: located, fallbackFile: overrides.configPath ?? EarsConfig.defaultPath)
        guard problems.isEmpty else { throw Problems(errors: problems) }
        return located.config
    }

    /// What is wrong with `located` on this machine; empty when nothing is.
    /// `fallbackFile` names a key that has no recorded origin.
    package static func problems(in located: LocatedConfig, fallbackFile: String) -> [ConfigError] {
        let config = located.config
        var errors: [ConfigError] = []
        if let model = config.model, let problem = directoryProblem(model) {
            errors.append(located.error(at: "engine.model",
                                        "[engine] model \(ConfigLines.quoted(model)) \(problem); point it at the engine's model directory, "
                                            + "or leave it empty for the installed default (ears model status lists what is installed)",
                                        fallbackFile: fallbackFile))
        }
        if let hook = config.onWake, let problem = executableProblem(hook) {
            errors.append(located.error(at: "capture.on_wake",
                                        "[capture] on_wake \(ConfigLines.quoted(hook)) \(problem); the hook must be an executable file "
                                            + "(chmod +x it), or leave the key empty for no hook",
                                        fallbackFile: fallbackFile))
        }
        if let hook = config.onDetect, let problem = executableProblem(hook) {
            errors.append(located.error(at: "capture.on_detect",
                                        "[capture] on_detect \(ConfigLines.quoted(hook)) \(problem); the hook must be an executable file "
                                            + "(chmod +x it), or leave the key empty for no hook",
                                        fallbackFile: fallbackFile))
        }
        if let sound = config.awakeSound {
            do throws(AwakeSound.Problem) {
                _ = try readAwakeSound(sound)
            } catch {
                errors.append(located.error(at: "capture.awake_sound",
                                            "[capture] awake_sound \(ConfigLines.quoted(sound)) \(error.description), "
                                                + "or leave the key empty for no sound",
                                            fallbackFile: fallbackFile))
            }
        }
        if let group = config.listenSocketGroup, groupID(named: group) == nil {
            errors.append(located.error(at: "listen.socket_group",
                                        "[listen] socket_group \(ConfigLines.quoted(group)) is not a group on this machine; "
                                            + "create it (groupadd) or leave the key empty",
                                        fallbackFile: fallbackFile))
        }
        return errors
    }

    /// The `[capture] awake_sound` at `path`, read whole and decoded:
    /// `check-config`, `listen` at start and a reload read it the same way.
    ///
    /// - Throws: `AwakeSound.Problem` when nothing readable is there, the
    ///   file is larger than `AwakeSound.maximumFileBytes`, or it is not a
    ///   WAV ears can play (`AwakeSound.decode`).
    package static func readAwakeSound(_ path: String) throws(AwakeSound.Problem) -> AwakeSound {
        guard let mode = fileMode(path) else { throw AwakeSound.Problem(description: "does not exist; point it at a 16-bit PCM WAV file") }
        guard mode & S_IFMT == S_IFREG else { throw AwakeSound.Problem(description: "is not a regular file; point it at a 16-bit PCM WAV file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AwakeSound.Problem(description: "cannot be read by this user (uid \(getuid())); make it readable (chmod a+r)")
        }
        defer { try? handle.close() }
        // One byte past the limit tells a file that is too large from one that is just at it.
        let data = (try? handle.read(upToCount: AwakeSound.maximumFileBytes + 1)) ?? nil
        guard let data else { throw AwakeSound.Problem(description: "cannot be read (an I/O error); check the file") }
        guard data.count <= AwakeSound.maximumFileBytes else {
            throw AwakeSound.Problem(description: "is larger than \(AwakeSound.maximumFileBytes / (1024 * 1024)) MiB; a cue is a short sound")
        }
        return try AwakeSound.decode(Array(data))
    }

    /// The ID of the group `name`, or nil when the machine has no such group
    /// (or the group database cannot be read).
    package static func groupID(named name: String) -> gid_t? {
        // getgrnam_r, not getgrnam: a reload runs beside other threads, and
        // getgrnam's static buffer is shared. ERANGE asks for a larger buffer.
        var bufferBytes = max(Int(sysconf(Int32(_SC_GETGR_R_SIZE_MAX))), 1024)
        while bufferBytes <= maximumGroupBufferBytes {
            var entry = group()
            var result: UnsafeMutablePointer<group>?
            var buffer = [CChar](repeating: 0, count: bufferBytes)
            let status = getgrnam_r(name, &entry, &buffer, bufferBytes, &result)
            switch status {
            case 0: return result == nil ? nil : entry.gr_gid
            case EINTR: continue
            case ERANGE: bufferBytes *= 2
            default: return nil
            }
        }
        return nil
    }

    /// A group entry with thousands of members needs a large buffer; past
    /// this the database is taken as unreadable.
    private static let maximumGroupBufferBytes = 1 << 22

    /// Why `path` is not an existing directory, or nil when it is one.
    private static func directoryProblem(_ path: String) -> String? {
        guard let mode = fileMode(path) else { return "does not exist" }
        return mode & S_IFMT == S_IFDIR ? nil : "is not a directory"
    }

    /// Why `path` is not a regular file this user may execute, or nil.
    private static func executableProblem(_ path: String) -> String? {
        guard let mode = fileMode(path) else { return "does not exist" }
        guard mode & S_IFMT == S_IFREG else { return mode & S_IFMT == S_IFDIR ? "is a directory" : "is not a regular file" }
        guard access(path, X_OK) == 0 else { return "is not executable by this user (uid \(getuid()))" }
        return nil
    }

    /// The mode of what `path` names (symbolic links followed), or nil when
    /// nothing is there or it cannot be reached.
    private static func fileMode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode : nil
    }
}
