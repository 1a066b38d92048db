/// One HTTP request as the status server's handler sees it.
///
/// Deliberately minimal: the status API is read-only and keyed by method and
/// path, so headers and bodies are never read (nor buffered, nor logged).
public struct HTTPRequest: Sendable, Equatable {
    /// The request method exactly as sent, for example `"GET"` or `"HEAD"`.
    /// libmicrohttpd does not normalise case, so neither does this.
    public var method: String

    /// The request target's path, percent-decoded by libmicrohttpd, with the
    /// query string (everything from `?`) already removed, for example
    /// `"/ears"`.
    public var path: String

    /// Creates a request; used by the server and by route-table tests.
    public init(method: String, path: String) {
        self.method = method
        self.path = path
    }
}

/// The answer a handler gives for one `HTTPRequest`.
///
/// The server copies it into libmicrohttpd (`MHD_RESPMEM_MUST_COPY`), so the
/// value can be built from temporary storage. libmicrohttpd itself adds
/// `Content-Length`, `Date` and `Connection`, and drops the body for `HEAD`.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, 100...999. Anything else makes the server send a
    /// 500 instead, because libmicrohttpd refuses to queue it.
    public var status: Int

    /// The `Content-Type` header value, for example `"application/json"`.
    public var contentType: String

    /// Further response headers by name (sent in name order, after
    /// `Content-Type`). Values must not contain CR or LF; `Content-Length`,
    /// `Connection` and `Transfer-Encoding` are libmicrohttpd's to set.
    public var headers: [String: String]

    /// The body bytes, sent as they are.
    public var body: [UInt8]

    /// Creates a response from raw body bytes.
    public init(status: Int, contentType: String, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body is `body` encoded as UTF-8.
    public init(status: Int, contentType: String, headers: [String: String] = [:], body: String) {
        self.init(status: status, contentType: contentType, headers: headers, body: Array(body.utf8))
    }

    /// The body decoded as UTF-8 (invalid sequences repaired), for tests
    /// and diagnostics.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// A JSON document, `application/json`. `json` is sent verbatim; the
    /// caller is responsible for it being valid JSON.
    public static func json(_ json: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: json)
    }

    /// Plain UTF-8 text, `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: text)
    }

    /// UTF-8 text with an explicit `Content-Type`, for plain-text formats
    /// that name a version, for example
    /// `"text/plain; version=0.0.4; charset=utf-8"` (Prometheus). `text` is
    /// sent verbatim; `contentType` must not contain CR or LF.
    public static func text(_ text: String, contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: text)
    }

    /// 404 with a one-line plain-text body.
    public static var notFound: HTTPResponse {
        .text("not found\n", status: 404)
    }

    /// 405 with the `Allow` header RFC 9110 requires on it.
    ///
    /// - Parameter allow: the methods the resource does support, as the
    ///   header value, for example `"GET, HEAD"`.
    public static func methodNotAllowed(allow: String) -> HTTPResponse {
        HTTPResponse(
            status: 405, contentType: "text/plain; charset=utf-8",
            headers: ["Allow": allow], body: "method not allowed\n")
    }

    /// 500 with a one-line plain-text body. The server falls back to it when
    /// a handler's response cannot be sent as given (bad status code, header
    /// value with a line break).
    public static var internalServerError: HTTPResponse {
        .text("internal server error\n", status: 500)
    }
}
