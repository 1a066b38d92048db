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

    /// The configuration for `overrides` (`ConfigLoader.loadCollecting`), checked.
    ///
    /// Every problem is found in one run: each bad line of the file, then
    /// each check of what parsed (the model directory, hooks, sound, group)
    /// and, when `deviceProblem` is given and a device was named (`--device`
    /// or `[audio] device`, other than `default`), whether it opens. `deviceProblem` answers a
    /// sentence when the device would not open, nil when it would (or is in
    /// use). `listen` passes none: a device that is missing at start is
    /// `closed` with a sentence and retried, not a configuration error.
    ///
    /// - Throws: `Problems` with every problem, in file order then check order.
    package static func load(_ overrides: ConfigOverrides,
                             deviceProblem: ((String) -> String?)? = nil) throws(Problems) -> EarsConfig {
        let located: LocatedConfig
        var errors: [ConfigError]
        do throws(ConfigError) {
            (located, errors) = try ConfigLoader.loadCollecting(overrides)
        } catch {
            throw Problems(errors: [error])
        }
        let fallbackFile = overrides.configPath ?? EarsConfig.defaultPath
        errors += problems(in: located, fallbackFile: fallbackFile)
        // `default` follows the user's ALSA setup and is what a machine without a named card runs
        // on: only a device someone named is opened to check.
        if let deviceProblem, located.origins["audio.device"] != nil, located.config.device != EarsConfig().device,
           let problem = deviceProblem(located.config.device) {
            errors.append(located.error(at: "audio.device", "device \(ConfigLines.quoted(located.config.device)) does not open here: \(problem)",
                                        fallbackFile: fallbackFile))
        }
        guard errors.isEmpty else { throw Problems(errors: errors) }
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
