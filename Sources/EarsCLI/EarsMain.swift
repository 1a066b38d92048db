import EarsCore
import EarsDaemon
import Foundation

/// The `ears` program: parses the command line and runs a command.
public enum EarsMain {
    /// Runs `ears` with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        let invocation: Invocation
        do throws(UsageError) {
            invocation = try Arguments.parse(arguments)
        } catch {
            printError(error.description)
            return EarsProgram.ExitCode.usage
        }
        switch invocation {
        case .help:
            say(Arguments.usage)
            return EarsProgram.ExitCode.success
        case .version:
            say("ears \(EarsProgram.version)")
            return EarsProgram.ExitCode.success
        case let .checkConfig(overrides):
            guard let config = loadCheckedConfig(overrides) else { return EarsProgram.ExitCode.config }
            say("configuration OK: engine \(config.engine.rawValue), device \(config.device), phrases \(config.phrases.map { "\"\($0.text)\"" }.joined(separator: ", "))")
            return EarsProgram.ExitCode.success
        case let .tap(overrides):
            guard let config = loadConfig(overrides) else { return EarsProgram.ExitCode.config }
            let socketPath = ConfigLoader.runtimeDirectory(for: config) + "/status.sock"
            do throws(StatusClient.Failure) {
                let answer = try StatusClient.get("/tap", socketPath: socketPath, method: "POST")
                say(answer.status == 202 ? "tap: a capture starts now" : "tap: the daemon answered \(answer.status)")
                return answer.status == 202 ? EarsProgram.ExitCode.success : EarsProgram.ExitCode.failure
            } catch {
                printError("ears tap: \(error.description)")
                return EarsProgram.ExitCode.failure
            }
        case let .follow(overrides, wav):
            guard let config = loadConfig(overrides) else { return EarsProgram.ExitCode.config }
            return FollowCommand.run(config: config, wav: wav, output: say, errors: printError)
        case let .status(overrides):
            guard let config = loadConfig(overrides) else { return EarsProgram.ExitCode.config }
            let socketPath = ConfigLoader.runtimeDirectory(for: config) + "/status.sock"
            do throws(StatusClient.Failure) {
                let answer = try StatusClient.get("/ears", socketPath: socketPath)
                say(answer.body)
                return answer.status == 200 ? EarsProgram.ExitCode.success : EarsProgram.ExitCode.failure
            } catch {
                printError("ears status: \(error.description)")
                return EarsProgram.ExitCode.failure
            }
        case let .modelStatus(overrides, json):
            guard let config = loadConfig(overrides) else { return EarsProgram.ExitCode.config }
            return ModelStatusCommand.run(config: config, json: json, output: say)
        case let .soundAlikes(options):
            guard let config = loadConfig(options.overrides) else { return EarsProgram.ExitCode.config }
            return SoundAlikesCommand.run(options, config: config, output: say)
        case let .train(options):
            guard let config = loadConfig(options.overrides) else { return EarsProgram.ExitCode.config }
            return TrainCommand.run(options, config: config, output: say, errors: printError)
        case let .scan(options):
            guard let config = loadConfig(options.overrides) else { return EarsProgram.ExitCode.config }
            return ScanCommand.run(options, config: config, output: say, errors: printError)
        case let .listen(options):
            if let input = options.inputFile, let refusal = InputKind(path: input).listenRefusal(path: input) {
                printError(refusal)
                return EarsProgram.ExitCode.usage
            }
            guard let config = loadCheckedConfig(options.overrides) else { return EarsProgram.ExitCode.config }
            return ListenDaemon.run(options, config: config)
        }
    }

    private static func loadConfig(_ overrides: ConfigOverrides) -> EarsConfig? {
        do throws(ConfigError) {
            return try ConfigLoader.load(overrides)
        } catch {
            printError(error.description)
            return nil
        }
    }

    /// The configuration, checked against the machine (`ConfigValidation`):
    /// what `check-config` passes is what `listen` starts with.
    private static func loadCheckedConfig(_ overrides: ConfigOverrides) -> EarsConfig? {
        do throws(ConfigValidation.Problems) {
            return try ConfigValidation.load(overrides)
        } catch {
            printError(error.description)
            return nil
        }
    }

    /// Writes one line to stdout at once (unbuffered, so tests see each line as it happens).
    @Sendable static func say(_ message: String) {
        FileHandle.standardOutput.write(Data((message + "\n").utf8))
    }

    @Sendable static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
