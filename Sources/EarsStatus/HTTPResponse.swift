/// The answer a handler gives for one `HTTPRequest`.
///
/// The server adds `Content-Length` and `Connection: close` itself and drops
/// the body for `HEAD` (see `encoded(headOnly:)`).
package struct HTTPResponse: Sendable, Equatable {
    /// The status code, 100...999. Anything else makes the server send a
    /// 500 instead (see `encoded(headOnly:)`).
    package var status: Int

    /// The `Content-Type` header value, for example `"application/json"`.
    package var contentType: String

    /// Further response headers by name (sent in name order, after
    /// `Content-Type`). Names must be HTTP tokens and values must not
    /// contain CR, LF or NUL; `Content-Length`, `Connection` and
    /// `Transfer-Encoding` are the server's to set. A response breaking
    /// these rules is replaced by a 500.
    package var headers: [String: String]

    /// The body bytes, sent as they are.
    package var body: [UInt8]

    /// Creates a response from raw body bytes.
    package init(status: Int, contentType: String, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body is `body` encoded as UTF-8.
    package init(status: Int, contentType: String, headers: [String: String] = [:], body: String) {
        self.init(status: status, contentType: contentType, headers: headers, body: Array(body.utf8))
    }

    /// The body decoded as UTF-8 (invalid sequences repaired), for tests
    /// and diagnostics.
    package var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// A JSON document, `application/json`. `json` is sent verbatim; the
    /// caller is responsible for it being valid JSON.
    package static func json(_ json: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: json)
    }

    /// Plain UTF-8 text, `text/plain; charset=utf-8`.
    package static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: text)
    }

    /// UTF-8 text with an explicit `Content-Type`, for plain-text formats
    /// that name a version, for example
    /// `"text/plain; version=0.0.4; charset=utf-8"` (Prometheus). `text` is
    /// sent verbatim; `contentType` must not contain CR or LF.
    package static func text(_ text: String, contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: text)
    }

    /// 404 with a one-line plain-text body.
    package static var notFound: HTTPResponse {
        .text("not found\n", status: 404)
    }

    /// 405 with the `Allow` header RFC 9110 requires on it.
    ///
    /// - Parameter allow: the methods the resource does support, as the
    ///   header value, for example `"GET, HEAD"`.
    package static func methodNotAllowed(allow: String) -> HTTPResponse {
        HTTPResponse(
            status: 405, contentType: "text/plain; charset=utf-8",
            headers: ["Allow": allow], body: "method not allowed\n")
    }

    /// 500 with a one-line plain-text body. The server falls back to it when
    /// a handler's response cannot be sent as given (bad status code, header
    /// value with a line break).
    package static var internalServerError: HTTPResponse {
        .text("internal server error\n", status: 500)
    }
}

extension HTTPResponse {
    /// Headers the server writes itself; a handler setting one is a bug.
    private static let reservedHeaderNames: Set<String> = ["content-length", "connection", "transfer-encoding"]

    /// The whole response as HTTP/1.1 bytes: status line, `Content-Type`,
    /// the handler's headers in name order, `Content-Length` (the body's
    /// length even when `headOnly`), `Connection: close`, a blank line and
    /// the body (omitted when `headOnly`, the answer to `HEAD`).
    ///
    /// - Returns: nil if the response cannot be sent as given: a status
    ///   outside 100...999, a header name that is not a token or is one of
    ///   the server's own, or a value (content type included) containing CR,
    ///   LF or NUL. The server then sends `internalServerError` instead.
    package func encoded(headOnly: Bool) -> [UInt8]? {
        guard (100...999).contains(status), Self.isValidValue(contentType) else { return nil }
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\nContent-Type: \(contentType)\r\n"
        for name in headers.keys.sorted() {
            let value = headers[name] ?? ""
            guard HTTPSyntax.isToken(name.utf8), !Self.reservedHeaderNames.contains(name.lowercased()),
                  Self.isValidValue(value)
            else { return nil }
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return headOnly ? Array(head.utf8) : Array(head.utf8) + body
    }

    /// A header value the wire can carry: no CR, LF or NUL (which would end
    /// or split the header).
    private static func isValidValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// The reason phrase for the codes this server sends; empty for others
    /// (RFC 9112 allows an empty reason; clients must ignore it anyway).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
