import EarsCore
import EarsConfig

/// Reads one flag's value into a type, or says in one line what is allowed.
package enum FlagValue {
    /// A decimal number inside `range` (said as "0.01 to 0.99").
    package static func number(_ flag: String, _ text: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let value = Double(text), range.contains(value) else {
            throw UsageError(description: "ears: \(flag) \(text) is not a number from \(ConfigParser.words(range))")
        }
        return value
    }

    /// A whole number inside `range`.
    package static func whole(_ flag: String, _ text: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "ears: \(flag) \(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// on/off (also yes/no, true/false, 1/0, as in ears.conf).
    package static func onOff(_ flag: String, _ text: String) throws(UsageError) -> Bool {
        guard let on = ConfigParser.parseSwitch(text) else {
            throw UsageError(description: "ears: \(flag) \(text) is not on or off")
        }
        return on
    }

    /// auto/on/off (the switches as in `onOff`): nil for auto.
    package static func autoOnOff(_ flag: String, _ text: String) throws(UsageError) -> Bool? {
        guard let setting = ConfigParser.parseAutoSwitch(text) else {
            throw UsageError(description: "ears: \(flag) \(text) is not auto, on or off")
        }
        return setting
    }

    /// One of an enumeration's raw values.
    package static func choice<Choice: RawRepresentable & CaseIterable>(_ flag: String, _ text: String, _: Choice.Type) throws(UsageError) -> Choice
    where Choice.RawValue == String {
        guard let choice = Choice(rawValue: text) else {
            throw UsageError(description: "ears: \(flag) \(text) is not known; allowed: \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }
}
