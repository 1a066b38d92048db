/// One flag a command takes, for parsing and for its `--help`.
package struct FlagSpec: Sendable, Equatable {
    /// The heading a flag is listed under in `--help`, in this order.
    package enum Group: String, Sendable, CaseIterable {
        /// The command's own flags.
        case command = "options"
        /// Where the configuration, the microphone and the sockets are.
        case input = "configuration and input"
        /// Which phrases, and how close a match must be.
        case phrases = "phrases"
        /// The acoustic route: engine, spotter, verifier, noise suppression.
        case acoustic = "acoustic route (overrides ears.conf)"
        /// Models from `ears train`.
        case trained = "trained models (overrides ears.conf)"
    }

    /// The flag as typed, with its dashes: `--json`.
    package let name: String
    /// The value's placeholder in help (`N`, `DIR`); nil for a flag that takes no value.
    package let value: String?
    /// One line for `--help`.
    package let help: String
    /// The heading it is listed under.
    package let group: Group

    /// A flag that takes a value, shown in help as `value` (`--count N`).
    package init(_ name: String, _ value: String, _ help: String, group: Group = .command) {
        self.name = name
        self.value = value
        self.help = help
        self.group = group
    }

    /// A flag that takes no value (`--json`).
    package init(_ name: String, _ help: String, group: Group = .command) {
        self.name = name
        self.value = nil
        self.help = help
        self.group = group
    }

    /// `--count N` or `--json`, as help shows it.
    package var usage: String { value.map { "\(name) \($0)" } ?? name }
}

/// A command-line mistake, said in one line with what is allowed.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    /// The line for stderr.
    package var description: String

    /// A mistake said as `description`.
    package init(description: String) {
        self.description = description
    }
}

/// What `OptionParser` found in a command's arguments, in the order given.
package struct ParsedArguments: Equatable {
    /// One flag as given, with its value ("" for a flag that takes none).
    package struct Flag: Equatable {
        /// The flag's name with its dashes.
        package var name: String
        /// Its value; "" for a switch.
        package var value: String
    }

    /// The flags, in order; a repeated flag appears each time.
    package var flags: [Flag] = []
    /// The arguments that are not flags (files, a phrase), in order.
    package var operands: [String] = []
    /// `-h` or `--help` was given: print the command's help and do nothing else.
    package var helpRequested = false

    /// Every value given to `name`, in order (`--phrase A --phrase B`).
    package func values(_ name: String) -> [String] { flags.filter { $0.name == name }.map(\.value) }

    /// The last value given to `name` (a repeated flag takes the last), or nil.
    package func value(_ name: String) -> String? { values(name).last }

    /// Whether `name` was given.
    package func has(_ name: String) -> Bool { flags.contains { $0.name == name } }
}

/// Splits one command's arguments into flags and operands against the table
/// of flags the command takes. Pure: no I/O, no globals.
///
/// - `--opt value` and `--opt=value` both give a value; a flag that takes no
///   value refuses `--json=yes`.
/// - `-h` / `--help` anywhere asks for the command's help.
/// - `--` ends the flags: everything after it is an operand (a phrase or file
///   that starts with a dash).
/// - `-` alone is an operand (standard input).
/// - A flag not in the table is refused with a sentence naming the command.
package struct OptionParser: Sendable {
    /// The command as typed after `ears` (`scan`, `model status`), for messages.
    package let command: String
    /// The flags the command takes.
    package let flags: [FlagSpec]

    /// A parser for `command` taking `flags`.
    package init(command: String, flags: [FlagSpec]) {
        self.command = command
        self.flags = flags
    }

    /// Parses `arguments` (after the command's own words).
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var flagsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if flagsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.operands.append(argument)
                continue
            }
            if argument == "--" { flagsEnded = true; continue }
            if argument == "-h" || argument == "--help" { parsed.helpRequested = true; continue }
            let name: String
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            guard let spec = flags.first(where: { $0.name == name }) else {
                throw UsageError(description: "ears \(command): \(name) is not an option of ears \(command); see ears \(command) --help")
            }
            if spec.value == nil {
                if let inlineValue {
                    throw UsageError(description: "ears \(command): \(name) takes no value (given \(name)=\(inlineValue))")
                }
                parsed.flags.append(.init(name: name, value: ""))
                continue
            }
            if let inlineValue {
                parsed.flags.append(.init(name: name, value: inlineValue))
                continue
            }
            guard index < arguments.count else {
                throw UsageError(description: "ears: \(name) needs a value")
            }
            parsed.flags.append(.init(name: name, value: arguments[index]))
            index += 1
        }
        return parsed
    }

    /// The flags as `--help` lists them: under a heading per group (in
    /// `FlagSpec.Group` order), one line each, aligned across groups.
    package func helpLines() -> [String] {
        let width = flags.map(\.usage.count).max() ?? 0
        var lines: [String] = []
        for group in FlagSpec.Group.allCases {
            let members = flags.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(group.rawValue + ":")
            lines += members.map { spec in
                "  " + spec.usage + String(repeating: " ", count: width - spec.usage.count + 2) + spec.help
            }
        }
        return lines
    }
}
