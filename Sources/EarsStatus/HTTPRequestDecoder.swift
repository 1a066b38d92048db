/// Why a request head was refused, and what to answer.
package enum HTTPRequestError: Error, Equatable, Sendable {
    /// The request line is not `METHOD SP target SP HTTP/x.y` (one space
    /// each, a token method, a printable target starting with `/`, `*` or
    /// `http(s)://`), or holds a control character. 400.
    case malformedRequestLine
    /// A header line is not `name: value` (a token name right before the
    /// colon, no control characters, no obsolete line folding). 400.
    case malformedHeader
    /// An HTTP/1.1 request without `Host`, or any request with two. 400,
    /// as RFC 9112 §3.2 requires.
    case missingOrRepeatedHost
    /// `HTTP/x.y` with a major version other than 1. 505.
    case unsupportedVersion
    /// The request line alone runs past `HTTPRequestDecoder.maximumHeadBytes`. 414.
    case requestLineTooLong
    /// The request line fits but the head does not end within
    /// `HTTPRequestDecoder.maximumHeadBytes`. 431.
    case headTooLarge

    /// The response status this error is answered with.
    package var status: Int {
        switch self {
        case .malformedRequestLine, .malformedHeader, .missingOrRepeatedHost: 400
        case .unsupportedVersion: 505
        case .requestLineTooLong: 414
        case .headTooLarge: 431
        }
    }

    /// The response sent for this error: the status and a one-line reason.
    package var response: HTTPResponse {
        switch self {
        case .malformedRequestLine: .text("bad request line\n", status: status)
        case .malformedHeader: .text("bad header line\n", status: status)
        case .missingOrRepeatedHost: .text("one Host header is required\n", status: status)
        case .unsupportedVersion: .text("only HTTP/1.0 and HTTP/1.1 are spoken here\n", status: status)
        case .requestLineTooLong: .text("request line too long\n", status: status)
        case .headTooLarge: .text("request head too large\n", status: status)
        }
    }
}

/// Reads one HTTP/1.x request head from bytes as they arrive.
///
/// Feed it whatever a socket read returned; it answers `.needMore` until the
/// head (request line, header lines, blank line) is complete, then the
/// request. Lines end in CRLF or a bare LF; blank lines before the request
/// line are skipped (RFC 9112 §2.2). Headers are checked but not kept; a
/// body is never read: the server answers and closes the connection, so
/// whatever follows the head is ignored.
///
/// The outcome depends only on the bytes, never on how they were split into
/// calls: lines are judged once complete, and the size cap is positional
/// (no byte of an unfinished head may sit at offset `maximumHeadBytes` or
/// beyond). Once it has answered with a request or an error, every later
/// call answers the same.
package struct HTTPRequestDecoder: Sendable {
    /// What a call to `feed` found.
    package enum Outcome: Equatable, Sendable {
        /// The head is not complete yet.
        case needMore
        /// The head is complete; this is the request.
        case request(HTTPRequest)
    }

    /// The longest request head accepted, in bytes, line ends and leading
    /// blank lines included. Routes are short paths; 8 KiB is generous for
    /// any client's headers, and bounds the memory a connection can hold.
    package static let maximumHeadBytes = 8 * 1024

    /// Bytes of the head in lines already judged.
    private var consumed = 0
    /// The line being received, without its LF.
    private var line: [UInt8] = []
    /// Set once the request line has been judged.
    private var requestLine: (method: String, path: String, isHTTP11: Bool)?
    /// `Host` header lines seen.
    private var hostCount = 0
    /// The answer once there is one; repeated by every later call.
    private var finished: Result<HTTPRequest, HTTPRequestError>?

    /// A decoder that has seen nothing.
    package init() {}

    /// Takes the next bytes from the connection.
    ///
    /// - Returns: `.needMore` while the head is incomplete, then
    ///   `.request` (bytes after the head are ignored).
    /// - Throws: `HTTPRequestError` as soon as a complete line is wrong or
    ///   the head outgrows `maximumHeadBytes`; its `status` is the 4xx/5xx
    ///   to answer with.
    package mutating func feed(_ bytes: some Sequence<UInt8>) throws(HTTPRequestError) -> Outcome {
        if let finished { return .request(try finished.get()) }
        for byte in bytes {
            if consumed + line.count >= Self.maximumHeadBytes {
                return try finish(.failure(requestLine == nil ? .requestLineTooLong : .headTooLarge))
            }
            guard byte == Self.lineFeed else {
                line.append(byte)
                continue
            }
            consumed += line.count + 1
            var content = line[...]
            if content.last == Self.carriageReturn { content = content.dropLast() }
            defer { line.removeAll(keepingCapacity: true) }
            do throws(HTTPRequestError) {
                if let request = try judge(content) { return try finish(.success(request)) }
            } catch {
                return try finish(.failure(error))
            }
        }
        return .needMore
    }

    /// Records the answer and gives it.
    private mutating func finish(_ result: Result<HTTPRequest, HTTPRequestError>) throws(HTTPRequestError) -> Outcome {
        finished = result
        line = []
        return .request(try result.get())
    }

    /// Judges one complete line (without its line end); returns the request
    /// when it was the blank line that ends the head.
    private mutating func judge(_ content: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPRequest? {
        guard let requestLine else {
            if !content.isEmpty { self.requestLine = try Self.parseRequestLine(content) }
            return nil
        }
        guard !content.isEmpty else {
            if requestLine.isHTTP11 && hostCount != 1 { throw .missingOrRepeatedHost }
            return HTTPRequest(method: requestLine.method, path: requestLine.path)
        }
        if try Self.headerIsHost(content) {
            hostCount += 1
            if hostCount > 1 { throw .missingOrRepeatedHost }
        }
        return nil
    }

    // MARK: Lines

    /// `METHOD SP request-target SP HTTP-version` → method, path, 1.1 or not.
    private static func parseRequestLine(
        _ content: ArraySlice<UInt8>
    ) throws(HTTPRequestError) -> (method: String, path: String, isHTTP11: Bool) {
        let parts = content.split(separator: space, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, HTTPSyntax.isToken(parts[0]),
              !parts[1].isEmpty, parts[1].allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw .malformedRequestLine }
        let version = Array(parts[2])
        let isHTTP11: Bool
        switch version {
        case Array("HTTP/1.1".utf8): isHTTP11 = true
        case Array("HTTP/1.0".utf8): isHTTP11 = false
        default:
            let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
            let shaped = version.count == 8 && version.starts(with: "HTTP/".utf8)
                && digits.contains(version[5]) && version[6] == UInt8(ascii: ".") && digits.contains(version[7])
            throw shaped ? .unsupportedVersion : .malformedRequestLine
        }
        // Only ASCII was allowed through, so this decoding is exact.
        let method = String(decoding: parts[0], as: UTF8.self)
        return (method, try path(of: String(decoding: parts[1], as: UTF8.self)), isHTTP11)
    }

    /// The path of a request target: origin form (`/ears?x` → `/ears`),
    /// absolute form (`http://host/ears` → `/ears`, `http://host` → `/`) or
    /// asterisk form (`*`, which no route matches).
    private static func path(of target: String) throws(HTTPRequestError) -> String {
        if target == "*" { return target }
        var rest = Substring(target)
        if !rest.hasPrefix("/") {
            let lowered = target.lowercased()
            guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else {
                throw .malformedRequestLine
            }
            rest = rest.dropFirst(scheme.count)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            rest = rest[authorityEnd...]
            if !rest.hasPrefix("/") { rest = "/" + rest }
        }
        return String(rest.prefix { $0 != "?" })
    }

    /// Checks one `name: value` line and says whether it is `Host`.
    private static func headerIsHost(_ content: ArraySlice<UInt8>) throws(HTTPRequestError) -> Bool {
        // A leading space or tab is obsolete line folding (RFC 9112 §5.2),
        // which a server may refuse; the token check below refuses it.
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { throw .malformedHeader }
        let name = content[..<colon]
        guard HTTPSyntax.isToken(name) else { throw .malformedHeader }
        // Field values: visible ASCII, obs-text (0x80...0xFF), space, tab.
        let valueIsClean = content[(colon + 1)...].allSatisfy {
            $0 == space || $0 == tab || (0x21...0x7E).contains($0) || $0 >= 0x80
        }
        guard valueIsClean else { throw .malformedHeader }
        return name.count == 4 && String(decoding: name, as: UTF8.self).lowercased() == "host"
    }

    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
}
