import EarsCore

/// `ears status` on a terminal: the `GET /ears` report as a two-column table.
///
/// Pure (JSON text in, lines out). Every field of the report is shown, so a
/// field added to the report appears without a change here: the phase and
/// what runs first, then the other fields in name order, a nested object as
/// a heading with its fields indented under it.
package enum StatusTable {
    /// The fields shown first, in this order; the rest follow by name.
    static let leading = ["phase", "closed_why", "engine", "model", "uptime_s", "cpu_pct"]

    /// Width of the name column, in characters.
    static let nameWidth = 26

    /// The table for the report `body`, headed by where it came from; nil when
    /// `body` is not a JSON object (the caller prints it as it is).
    package static func render(_ body: String, from place: ServiceSearch.Place) -> String? {
        guard let report = try? JSONValue.parse(Array(body.utf8)), let fields = report.objectValue else { return nil }
        var lines = ["ears at \(place.directory) (\(place.origin))"]
        append(fields, indent: "", to: &lines)
        return lines.joined(separator: "\n")
    }

    private static func append(_ fields: [String: JSONValue], indent: String, to lines: inout [String]) {
        let names = leading.filter { fields[$0] != nil } + fields.keys.filter { !leading.contains($0) }.sorted()
        for name in names {
            let value = fields[name]!
            if let members = value.objectValue {
                lines.append(indent + name + (members.isEmpty ? padding(name, indent) + "-" : ""))
                append(members, indent: indent + "  ", to: &lines)
            } else {
                lines.append(indent + name + padding(name, indent) + text(value))
            }
        }
    }

    private static func padding(_ name: String, _ indent: String) -> String {
        String(repeating: " ", count: max(2, nameWidth - indent.count - name.count))
    }

    /// One value as a person reads it: strings bare, null as "-", yes/no.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return "-"
        case let .bool(flag): return flag ? "yes" : "no"
        case let .string(string): return string
        case let .array(elements): return elements.map(text).joined(separator: ", ")
        default: return value.jsonText
        }
    }
}
