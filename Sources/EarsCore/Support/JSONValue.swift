import Foundation

/// The one JSON value type of ears: Wyoming event headers and data, the
/// status report, and the answers Vosk returns.
///
/// Why a value type of our own rather than `[String: Any]`: values cross
/// threads (the audio thread builds events, a server's poll thread writes
/// them), so they must be `Sendable`; and Wyoming peers care whether a number
/// is an integer (`"rate": 16000`, `"timestamp": 1234` in milliseconds), so
/// integers and fractions are kept apart.
package enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Keys are written sorted, so equal values encode to equal bytes.
    case object([String: JSONValue])

    // MARK: Reading values

    /// The member `key` of an object; nil for a missing key or a non-object.
    package subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members[key]
    }

    /// The string, or nil if this is not a string.
    package var stringValue: String? {
        guard case let .string(value) = self else { return nil }
        return value
    }

    /// The integer, or nil if this is not a number with an exact integer
    /// value (`16000.0` counts: some writers never emit integers).
    package var integerValue: Int64? {
        switch self {
        case let .integer(value): return value
        case let .number(value):
            guard value.isFinite, value.rounded() == value,
                  value >= -9.2e18, value <= 9.2e18 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// The array's elements, or nil if this is not an array.
    package var arrayValue: [JSONValue]? {
        guard case let .array(elements) = self else { return nil }
        return elements
    }

    /// The object's members, or nil if this is not an object.
    package var objectValue: [String: JSONValue]? {
        guard case let .object(members) = self else { return nil }
        return members
    }

    // MARK: Writing

    /// Compact JSON text (no insignificant whitespace, non-ASCII characters
    /// written as UTF-8 like Python's `ensure_ascii=False`).
    package var jsonText: String {
        var out = ""
        serialize(into: &out)
        return out
    }

    private func serialize(into out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .integer(value): out += String(value)
        case let .number(value):
            // JSON has no NaN or infinity; null is what Python's json module
            // would refuse to read least badly.
            out += value.isFinite ? "\(value)" : "null"
        case let .string(value): out += JSONText.string(value)
        case let .array(elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.serialize(into: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                out += JSONText.string(key)
                out += ":"
                members[key]!.serialize(into: &out)
            }
            out += "}"
        }
    }

    // MARK: Parsing

    /// Parses one JSON text (UTF-8 bytes).
    ///
    /// - Throws: `JSONValue.ParseError` when the bytes are not valid JSON.
    package static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ParseError()
        }
    }

    /// The bytes given to `parse` are not one valid JSON text.
    package struct ParseError: Error, Sendable, Equatable {
        /// Makes the error.
        package init() {}
    }
}

/// Parsing goes through Foundation's decoder so that string escapes and
/// surrogate pairs are handled by a well-tested parser; only the mapping to
/// cases is ours. The order of attempts matters: `Bool` before numbers (so
/// `true` does not become 1) and `Int64` before `Double`.
extension JSONValue: Decodable {
    /// Decodes any JSON value.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

/// Literals make event data read like the JSON it becomes.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral {
    /// A string literal.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    package init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal.
    package init(floatLiteral value: Double) { self = .number(value) }
    /// `true` or `false`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array literal.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal; a repeated key keeps its last value.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    /// `nil` becomes `null`.
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// `.integer(value)`, or `.null` when `value` is nil.
    package static func optional(_ value: Int?) -> JSONValue {
        value.map { .integer(Int64($0)) } ?? .null
    }

    /// `value` rounded to `places` decimals: an `.integer` when that is
    /// whole (so 2.0 is written `2`, as meters always were), else a
    /// `.number`; a non-finite value becomes 0.
    package static func decimal(_ value: Double, places: Int) -> JSONValue {
        guard value.isFinite else { return .integer(0) }
        let scale = (0..<places).reduce(1.0) { product, _ in product * 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 9e15 { return .integer(Int64(rounded)) }
        return .number(rounded)
    }

    /// `.decimal(value, places:)`, or `.null` when `value` is nil.
    package static func decimal(_ value: Double?, places: Int) -> JSONValue {
        value.map { decimal($0, places: places) } ?? .null
    }

    /// `.string(value)`, or `.null` when `value` is nil.
    package static func optional(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }
}
