import Foundation

/// JSON text pieces written by hand: string escapes and numbers rounded to
/// a few places, for the lines whose key order is part of their contract
/// (`ears scan --json`) and for log fields. A JSON value built in memory is a
/// `JSONValue`, which uses these for its strings.
package enum JSONText {
    /// A JSON string literal with the required escapes.
    package static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON number with at most `places` decimals; non-finite values become 0.
    package static func number(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "0" }
        let formatted = String(format: "%.\(places)f", value)
        // Trim trailing zeros so 3.50 reads 3.5 and 2.00 reads 2.
        guard formatted.contains(".") else { return formatted }
        var trimmed = Substring(formatted)
        while trimmed.hasSuffix("0") { trimmed.removeLast() }
        if trimmed.hasSuffix(".") { trimmed.removeLast() }
        return trimmed == "-0" ? "0" : String(trimmed)
    }

    /// A JSON object from already-encoded values, in the given order.
    package static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
