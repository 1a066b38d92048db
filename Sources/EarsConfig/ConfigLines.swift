/// The lines of a configuration file, read from its bytes.
///
/// Why bytes and not a `String`: Swift reads "\r\n" as one `Character`, so
/// splitting a CRLF file's text at "\n" finds a single line and the whole file
/// silently became one comment. Here a line ends at LF, CRLF or a lone CR
/// (old Mac editors), and each line is checked on its own, so a byte that is
/// not UTF-8 or a control character is reported with its line number.
package struct ConfigLines: Sendable, Equatable {
    /// The largest configuration file read, in bytes (1 MiB). An annotated
    /// ears.conf is a few kilobytes; a larger file is a mistake (or an
    /// attack) that would otherwise reach the engine as phrases.
    package static let maximumFileBytes = 1 << 20

    /// The longest excerpt of a value quoted in an error, in characters:
    /// enough to recognize the value, short enough for one stderr line.
    package static let maximumQuotedCharacters = 80

    /// The lines, without their line ends; line N is `lines[N - 1]`.
    package let lines: [String]

    /// Splits `bytes` read from `file` (the name is used in errors only).
    ///
    /// - Throws: `ConfigError` for a file over `maximumFileBytes` (line 0),
    ///   a line that is not UTF-8, or a line holding a control character
    ///   other than a tab (file:line and the byte's column).
    package init(bytes: some Collection<UInt8>, file: String) throws(ConfigError) {
        guard bytes.count <= Self.maximumFileBytes else {
            throw Self.tooLarge(file: file, byteCount: bytes.count)
        }
        var body = Array(bytes)
        // A byte-order mark is what Windows editors put before UTF-8 text; it is not content.
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        var lines: [String] = []
        var lineStart = 0
        var index = 0
        while index <= body.count {
            let atEnd = index == body.count
            guard atEnd || body[index] == Self.lineFeed || body[index] == Self.carriageReturn else {
                index += 1
                continue
            }
            lines.append(try Self.line(body[lineStart..<index], number: lines.count + 1, file: file))
            if !atEnd, body[index] == Self.carriageReturn, index + 1 < body.count, body[index + 1] == Self.lineFeed {
                index += 1
            }
            index += 1
            lineStart = index
        }
        self.lines = lines
    }

    /// The error for a file over the limit, of `byteCount` bytes when its
    /// size is known: reading stops before such a file is parsed (or read whole).
    package static func tooLarge(file: String, byteCount: Int?) -> ConfigError {
        let size = byteCount.map { "is \($0) bytes" } ?? "has more bytes than that"
        return ConfigError(file: file, line: 0,
                           message: "a configuration may have at most \(maximumFileBytes) bytes (1 MiB) and the file \(size); "
                               + "check that --config names ears.conf and not another file")
    }

    /// `value` in single quotes for an error message, cut to
    /// `maximumQuotedCharacters` with its full length said, so a huge value
    /// cannot make a huge log line.
    package static func quoted(_ value: some StringProtocol) -> String {
        let scalars = value.unicodeScalars
        guard scalars.count > maximumQuotedCharacters else { return "'\(value)'" }
        // Cut by scalars, not Characters: one Character may hold any number of combining marks.
        var excerpt = String.UnicodeScalarView()
        excerpt.append(contentsOf: scalars.prefix(maximumQuotedCharacters))
        return "'\(String(excerpt))…' (\(scalars.count) characters)"
    }

    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let tab: UInt8 = 0x09
    private static let delete: UInt8 = 0x7F

    /// One line's text, or an error naming the line and the column of its first bad byte.
    private static func line(_ bytes: ArraySlice<UInt8>, number: Int, file: String) throws(ConfigError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let column = firstInvalidUTF8Offset(bytes) + 1
            throw ConfigError(file: file, line: number,
                              message: "the line is not UTF-8 text (byte \(column) is not valid UTF-8); save the file as UTF-8 — "
                                  + "a file that starts with the bytes FF FE or FE FF is UTF-16")
        }
        if let offset = bytes.firstIndex(where: { ($0 < 0x20 && $0 != tab) || $0 == delete }) {
            let byte = bytes[offset]
            let name = byte == 0 ? "a NUL byte" : "the control character 0x" + hex(byte)
            throw ConfigError(file: file, line: number,
                              message: "the line holds \(name) at byte \(offset - bytes.startIndex + 1); a configuration is plain text "
                                  + "(only tabs besides printable characters), so remove it — a binary file may have been named by mistake")
        }
        return text
    }

    /// Offset (from the slice's start) of the first byte where UTF-8 decoding fails.
    private static func firstInvalidUTF8Offset(_ bytes: ArraySlice<UInt8>) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): consumed += UTF8.width(scalar)
            case .emptyInput: return consumed
            case .error: return consumed
            }
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
