import EarsCore
import Foundation

/// `ears status` on a terminal: the `GET /ears` report as a table a person
/// reads, named rows with units ("heard audio  0.03 s ago", "loudest
/// −6 dBFS"), in the order someone checking on the daemon asks: is it
/// listening, why not, what has it heard.
///
/// Pure (JSON text in, lines out). Every field is shown: the known ones under
/// their names (`rows`), and any field the table does not know yet (a field
/// added to the report later) after them under its JSON name, a nested
/// object as a heading with its fields indented. `--json` or a pipe gets the
/// JSON itself (`StatusCommandLine`).
package enum StatusTable {
    /// One known field: where it is in the report, its name in the table, and how its value reads.
    struct Row: Sendable {
        /// The JSON path, e.g. `["ear", "loudest"]`.
        var path: [String]
        var label: String
        var format: @Sendable (JSONValue) -> String
    }

    /// Width of the name column, in characters.
    static let nameWidth = 28

    /// The known fields, in the order they are shown.
    static let rows: [Row] = [
        Row(path: ["phase"], label: "state", format: phase),
        Row(path: ["closed_why"], label: "why", format: plain),
        Row(path: ["engine"], label: "engine", format: plain),
        Row(path: ["model"], label: "model", format: plain),
        Row(path: ["uptime_s"], label: "running for", format: { duration($0) }),
        Row(path: ["cpu_pct"], label: "CPU", format: { value in number(value).map { "\(decimal($0, 1)) % of one core over the last 5 s" } ?? plain(value) }),
        Row(path: ["ear", "since_audio_s"], label: "heard audio", format: { value in number(value).map { "\(decimal($0, 2)) s ago" } ?? "not yet" }),
        Row(path: ["ear", "loudest"], label: "loudest", format: loudness),
        Row(path: ["wakes"], label: "wakes", format: plain),
        Row(path: ["near_misses"], label: "near misses", format: plain),
        Row(path: ["refused_candidates"], label: "refused by the verifier", format: plain),
        Row(path: ["captures"], label: "captures", format: plain),
        Row(path: ["capture_s"], label: "captured audio", format: { seconds($0) }),
        Row(path: ["triggers_during_capture"], label: "wakes during a capture", format: plain),
        Row(path: ["ear", "chunks"], label: "chunks heard (100 ms)", format: plain),
        Row(path: ["ear", "fed"], label: "chunks to the engine", format: plain),
        Row(path: ["ear", "results"], label: "engine results", format: plain),
        Row(path: ["ear", "dropped"], label: "chunks the ear dropped", format: plain),
        Row(path: ["audio", "gap_s"], label: "audio lost to gaps", format: { seconds($0) }),
        Row(path: ["audio", "overruns"], label: "overruns recovered", format: plain),
        Row(path: ["heard_shown"], label: "ear text shown", format: plain),
    ]

    /// The table for the report `body`, headed by where it came from; nil when
    /// `body` is not a JSON object (the caller prints it as it is).
    package static func render(_ body: String, from place: ServiceSearch.Place) -> String? {
        guard let report = try? JSONValue.parse(Array(body.utf8)), var fields = report.objectValue else { return nil }
        var lines = ["ears at \(place.directory) (\(place.origin))"]
        for row in rows {
            guard let value = take(row.path, from: &fields) else { continue }
            // A field that does not apply now (why, while listening) is left out.
            if row.path == ["closed_why"], case .null = value { continue }
            lines.append(row.label + padding(row.label, "") + row.format(value))
        }
        // What the rows did not name, by its JSON name: nothing is hidden.
        append(fields.filter { !($0.value.objectValue?.isEmpty ?? false) }, indent: "", to: &lines)
        return lines.joined(separator: "\n")
    }

    /// Removes and returns the value at `path`, dropping an object left empty.
    private static func take(_ path: [String], from fields: inout [String: JSONValue]) -> JSONValue? {
        guard let first = path.first else { return nil }
        if path.count == 1 { return fields.removeValue(forKey: first) }
        guard var inner = fields[first]?.objectValue else { return nil }
        let value = take(Array(path.dropFirst()), from: &inner)
        fields[first] = .object(inner)
        return value
    }

    private static func append(_ fields: [String: JSONValue], indent: String, to lines: inout [String]) {
        for name in fields.keys.sorted() {
            let value = fields[name]!
            if let members = value.objectValue {
                lines.append(indent + name + (members.isEmpty ? padding(name, indent) + "-" : ""))
                append(members, indent: indent + "  ", to: &lines)
            } else {
                lines.append(indent + name + padding(name, indent) + plain(value))
            }
        }
    }

    private static func padding(_ name: String, _ indent: String) -> String {
        String(repeating: " ", count: max(2, nameWidth - indent.count - name.count))
    }

    /// One value as it is: strings bare, null as "-", yes/no.
    static func plain(_ value: JSONValue) -> String {
        switch value {
        case .null: return "-"
        case let .bool(flag): return flag ? "yes" : "no"
        case let .string(string): return string
        case let .array(elements): return elements.map(plain).joined(separator: ", ")
        default: return value.jsonText
        }
    }

    /// The phase in words.
    static func phase(_ value: JSONValue) -> String {
        switch value.stringValue {
        case "listening": "listening"
        case "opening": "opening the microphone and the engine"
        case "closed": "closed (not listening; see why)"
        case "ended": "ended (the input file was played to its end)"
        default: plain(value)
        }
    }

    /// A peak level, 0…1 of full scale, in dBFS ("−6 dBFS"; 0 is silence).
    static func loudness(_ value: JSONValue) -> String {
        guard let level = number(value) else { return plain(value) }
        guard level > 0 else { return "silence" }
        return "\(decimal(20 * log10(min(level, 1)), 0).replacingOccurrences(of: "-", with: "−")) dBFS (peak since start)"
    }

    /// Seconds as "2.5 s".
    static func seconds(_ value: JSONValue) -> String {
        number(value).map { "\(decimal($0, 1)) s" } ?? plain(value)
    }

    /// Seconds as "45 s", "12 min 05 s", "3 h 02 min".
    static func duration(_ value: JSONValue) -> String {
        guard let total = number(value) else { return plain(value) }
        let whole = Int(total.rounded(.down))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(String(format: "%02d", whole % 60)) s" }
        return "\(whole / 3600) h \(String(format: "%02d", whole % 3600 / 60)) min"
    }

    /// A JSON number as a Double, nil for anything else.
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case let .integer(whole): Double(whole)
        case let .number(real): real
        default: nil
        }
    }

    /// `value` with `places` decimals.
    static func decimal(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }
}
