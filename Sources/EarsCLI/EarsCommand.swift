import EarsDaemon

/// One `ears` command: the words that name it, the flags it takes, its
/// `--help`, and how it runs. Adding a command is one type conforming to this
/// and one line in `EarsMain.commands`; adding a flag is one `FlagSpec` in
/// its table and reading it in `init(_:)`.
package protocol EarsCommand {
    /// The words after `ears` that name the command (`["model", "status"]`).
    static var words: [String] { get }
    /// The operands in the usage line (`FILE...`, `PHRASE`), "" for none.
    static var operands: String { get }
    /// What the command does, a few lines for `--help`.
    static var summary: String { get }
    /// The command's own flags, then the configuration overrides it takes
    /// (only those it uses: a flag that would change nothing is refused).
    static var flags: [FlagSpec] { get }
    /// One or two command lines a person would type, for `--help`.
    static var examples: [String] { get }

    /// The command with its flags and operands read; throws a one-line
    /// `UsageError` for a bad value or a missing operand.
    init(_ parsed: ParsedArguments) throws(UsageError)

    /// Runs it and returns the exit status (`EarsProgram.ExitCode`).
    func run() -> Int32
}

extension EarsCommand {
    /// `scan`, `model status`: the command as typed, for messages.
    package static var name: String { words.joined(separator: " ") }

    /// The parser for this command's flags.
    package static var parser: OptionParser { OptionParser(command: name, flags: flags) }

    /// `ears scan --help`: usage line, summary, the flags by group, then examples.
    package static var help: String {
        let usage = "usage: ears \(name)" + (flags.isEmpty ? "" : " [options]") + (operands.isEmpty ? "" : " \(operands)")
        var lines = [usage, "", summary]
        if !flags.isEmpty { lines += [""] + parser.helpLines() }
        if !examples.isEmpty { lines += ["", "examples:"] + examples.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }

    /// Parses `arguments` (after the command's words) into the command, or
    /// nil when `--help` was asked for.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Self? {
        let parsed = try parser.parse(arguments)
        if parsed.helpRequested { return nil }
        return try Self(parsed)
    }
}

/// Refuses operands for a command that takes none.
func rejectOperands(_ parsed: ParsedArguments, command: String) throws(UsageError) {
    if let first = parsed.operands.first {
        throw UsageError(description: "ears \(command): unexpected argument '\(first)'; see ears \(command) --help")
    }
}
