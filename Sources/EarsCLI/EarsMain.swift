import EarsCore
import EarsDaemon
import Foundation
import EarsConfig
import EarsEngines

/// The `ears` program: finds the command named by the first words, parses
/// its flags against its own table (`EarsCommand`), and runs it.
package enum EarsMain {
    /// Every command, in the order `--help` lists them.
    static var commands: [any EarsCommand.Type] { [
        ListenCommandLine.self, ScanCommandLine.self, TuneCommandLine.self, StatusCommandLine.self, TapCommandLine.self,
        FollowCommandLine.self, SoundAlikesCommandLine.self, TrainCommandLine.self,
        CheckConfigCommandLine.self, ModelStatusCommandLine.self,
    ] }

    /// The usage text for `ears --help` (each command's own is `ears <command> --help`).
    static let usage = """
    usage: ears <command> [options]

    commands:
      listen         listen on the microphone (or a file at real time); the daemon
      scan FILE...   run the ear over files as fast as possible (- = stdin)
      tune FILE...   best scores, a threshold sweep and a suggested threshold
      status         the running daemon's meters (a table; JSON with --json or in a pipe)
      tap            start a capture in the running daemon as if called
      follow         print the events on listen.sock (--wav: captures as WAV on stdout)
      soundalikes PHRASE  texts that sound like PHRASE but are not it
      train PHRASE   build PHRASE's neural model from synthesized speech
      check-config   read the configuration and report every problem
      model status   which engines' models are installed, and how to install them
      help COMMAND   one command's options and examples (the same as ears COMMAND --help)
      --version      print the version

    Each command takes only the options it uses; `ears help COMMAND` lists them.
    Most override a key of ears.conf for one run (docs/configuration.md).

    examples:
      ears listen --phrase "hey cordelia"
      ears scan --phrase "hey cordelia" call.wav
      ears help scan
    """

    /// Runs `ears` with `arguments` (without the program name) and returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            say(usage)
            return EarsProgram.ExitCode.success
        }
        switch first {
        case "--help", "-h":
            say(usage)
            return EarsProgram.ExitCode.success
        case "help":
            // `ears help scan` is `ears scan --help`.
            let rest = Array(arguments.dropFirst())
            return rest.isEmpty ? run(["--help"]) : run(rest + ["--help"])
        case "--version", "version":
            say("ears \(EarsProgram.version)")
            return EarsProgram.ExitCode.success
        default:
            break
        }
        if first == "model", arguments.count >= 2, ["--help", "-h"].contains(arguments[1]) {
            // `model` has one subcommand: its help is the group's help.
            say(ModelStatusCommandLine.help)
            return EarsProgram.ExitCode.success
        }
        guard let command = commands.first(where: { arguments.starts(with: $0.words) }) else {
            EarsProgram.printError(unknownCommand(arguments[0]))
            return EarsProgram.ExitCode.usage
        }
        return run(command, Array(arguments.dropFirst(command.words.count)))
    }

    /// Parses `arguments` (after the command's words) for `command` and runs it,
    /// or prints its help.
    static func run<Command: EarsCommand>(_ command: Command.Type, _ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            guard let parsed = try Command.parse(arguments) else {
                say(Command.help)
                return EarsProgram.ExitCode.success
            }
            return parsed.run()
        } catch {
            EarsProgram.printError(error.description)
            return EarsProgram.ExitCode.usage
        }
    }

    /// The sentence for a first word that names no command.
    static func unknownCommand(_ word: String) -> String {
        if word == "model" { return "ears model: the only subcommand is 'status' (ears model status [--json])" }
        let names = commands.map { $0.name } + ["help", "--version", "--help"]
        return "ears: unknown command '\(word)'; allowed: \(names.joined(separator: ", "))"
    }

    /// The configuration for `overrides` (exit 78 and the file:line on stderr when it is bad).
    static func loadConfig(_ overrides: ConfigOverrides) -> EarsConfig? {
        do throws(ConfigError) {
            return try ConfigLoader.load(overrides)
        } catch {
            EarsProgram.printError(error.description)
            return nil
        }
    }

    /// The configuration, checked against the machine (`ConfigValidation`):
    /// what `check-config` passes is what `listen` starts with.
    static func loadCheckedConfig(_ overrides: ConfigOverrides, deviceProblem: ((String) -> String?)? = nil) -> EarsConfig? {
        do throws(ConfigValidation.Problems) {
            return try ConfigValidation.load(overrides, deviceProblem: deviceProblem)
        } catch {
            EarsProgram.printError(error.description)
            return nil
        }
    }

    /// Where a client looks for the daemon (`ServiceSearch.places`).
    ///
    /// The configuration is read only for its `runtime_directory`. A file
    /// named with `--config` must be good (nil after saying why, exit 78);
    /// the default /etc/ears/ears.conf may be unreadable to the user asking
    /// (the service's file) or broken, which must not stop a client from
    /// looking in the usual places, so then it is passed over.
    static func searchPlaces(_ overrides: ConfigOverrides,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> [ServiceSearch.Place]? {
        var configured: String?
        if overrides.runtimeDirectory == nil {
            if overrides.configPath == nil {
                configured = (try? ConfigLoader.load(overrides))?.runtimeDirectory
            } else {
                guard let config = loadConfig(overrides) else { return nil }
                configured = config.runtimeDirectory
            }
        }
        return ServiceSearch.places(environment: environment, userID: getuid(),
                                    runtimeDirectoryFlag: overrides.runtimeDirectory, configuredDirectory: configured)
    }

    /// Writes one line to stdout at once (unbuffered, so tests see each line as it happens).
    @Sendable static func say(_ message: String) {
        FileHandle.standardOutput.write(Data((message + "\n").utf8))
    }
}
