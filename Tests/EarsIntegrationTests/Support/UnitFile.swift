import Foundation

/// A systemd unit file read as its `Key=value` lines, for the unit tests
/// (`SystemdUnitTests`, `UserUnitTests`).
struct UnitFile {
    /// The unit's path.
    let path: String

    /// The `Key=value` lines, in order (comments and section headers left
    /// out). Later lines win, as in systemd, except for list keys, which a
    /// caller reads from the whole list.
    func directives() throws -> [(key: String, value: String)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("#"), !text.hasPrefix("["), let equals = text.firstIndex(of: "=") else { return nil }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }

    /// The last value of `key`, or nil if the unit does not set it.
    func value(_ key: String) throws -> String? { try directives().last { $0.key == key }?.value }
}
