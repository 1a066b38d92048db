import Testing
@testable import EarsStatus

/// `HTTPRequestDecoder`: every way a head is read, and every way it is refused.
@Suite struct HTTPRequestDecoderTests {
    /// Feeds `text` in one call.
    private func decode(_ text: String) throws(HTTPRequestError) -> HTTPRequestDecoder.Outcome {
        var decoder = HTTPRequestDecoder()
        return try decoder.feed(Array(text.utf8))
    }

    /// The error `text` is refused with, or nil if it is not.
    private func refusal(_ text: String) -> HTTPRequestError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Accepted heads

    @Test("a GET with CRLF line ends gives its method and path")
    func crlf() throws {
        #expect(try decode("GET /ears HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n")
            == .request(HTTPRequest(method: "GET", path: "/ears")))
    }

    @Test("bare LF line ends are read like CRLF")
    func bareLineFeeds() throws {
        #expect(try decode("POST /tap HTTP/1.1\nHost: x\n\n") == .request(HTTPRequest(method: "POST", path: "/tap")))
    }

    @Test("an HTTP/1.0 request needs no Host")
    func http10WithoutHost() throws {
        #expect(try decode("HEAD /metrics HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "HEAD", path: "/metrics")))
    }

    @Test("the answer is needMore until the blank line ends the head")
    func needMoreUntilBlankLine() throws {
        var decoder = HTTPRequestDecoder()
        #expect(try decoder.feed(Array("GET /ears HTTP/1.1\r\n".utf8)) == .needMore)
        #expect(try decoder.feed(Array("Host: a\r\n".utf8)) == .needMore)
        #expect(try decoder.feed(Array("\r".utf8)) == .needMore)
        #expect(try decoder.feed(Array("\n".utf8)) == .request(HTTPRequest(method: "GET", path: "/ears")))
    }

    @Test("bytes fed one at a time give the same request as all at once")
    func byteByByte() throws {
        var decoder = HTTPRequestDecoder()
        var outcome = HTTPRequestDecoder.Outcome.needMore
        for byte in "GET /ears?pretty HTTP/1.1\r\nHost: a\r\n\r\n".utf8 {
            #expect(outcome == .needMore)
            outcome = try decoder.feed([byte])
        }
        #expect(outcome == .request(HTTPRequest(method: "GET", path: "/ears")))
    }

    @Test("the query string is removed from the path and nothing is percent-decoded")
    func queryAndPercent() throws {
        #expect(try decode("GET /ears?x=1&y HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "GET", path: "/ears")))
        #expect(try decode("GET /%65ars HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "GET", path: "/%65ars")))
    }

    @Test("an absolute-form target is reduced to its path, or / when it has none")
    func absoluteForm() throws {
        #expect(try decode("GET http://localhost/ears?q HTTP/1.1\r\nHost: localhost\r\n\r\n")
            == .request(HTTPRequest(method: "GET", path: "/ears")))
        #expect(try decode("GET HTTPS://localhost HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "GET", path: "/")))
        #expect(try decode("GET http://localhost?q HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "GET", path: "/")))
    }

    @Test("the asterisk form passes through as the path *")
    func asteriskForm() throws {
        #expect(try decode("OPTIONS * HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "OPTIONS", path: "*")))
    }

    @Test("blank lines before the request line are skipped")
    func leadingBlankLines() throws {
        #expect(try decode("\r\n\n\r\nGET /ears HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "GET", path: "/ears")))
    }

    @Test("the method keeps its case and any token is let through for the routes to judge")
    func methodCase() throws {
        #expect(try decode("get /ears HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "get", path: "/ears")))
        #expect(try decode("BREW /pot HTTP/1.0\r\n\r\n") == .request(HTTPRequest(method: "BREW", path: "/pot")))
    }

    @Test("header values may carry tabs, spaces and bytes above 0x7F")
    func headerValueCharacters() throws {
        #expect(try decode("GET / HTTP/1.0\r\nUser-Agent:\t caf\u{e9} x \r\nX-Empty:\r\n\r\n")
            == .request(HTTPRequest(method: "GET", path: "/")))
    }

    @Test("bytes after the head (a body, a second request) are ignored")
    func trailingBytes() throws {
        #expect(try decode("POST /tap HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello GET /x HTTP/1.0\r\n\r\n")
            == .request(HTTPRequest(method: "POST", path: "/tap")))
    }

    @Test("once it has answered, more bytes get the same answer")
    func stickyAnswers() throws {
        var decoder = HTTPRequestDecoder()
        let first = try decoder.feed(Array("GET /a HTTP/1.0\r\n\r\n".utf8))
        #expect(try decoder.feed(Array("garbage\r\n\r\n".utf8)) == first)

        var refused = HTTPRequestDecoder()
        #expect(throws: HTTPRequestError.malformedRequestLine) { try refused.feed(Array("nonsense\r\n".utf8)) }
        #expect(throws: HTTPRequestError.malformedRequestLine) { try refused.feed(Array("GET / HTTP/1.0\r\n\r\n".utf8)) }
    }

    @Test("a head of exactly the maximum size is accepted")
    func headAtTheCap() throws {
        let start = "GET / HTTP/1.0\r\nX: "
        let filler = String(repeating: "a", count: HTTPRequestDecoder.maximumHeadBytes - start.utf8.count - 4)
        let head = start + filler + "\r\n\r\n"
        #expect(head.utf8.count == HTTPRequestDecoder.maximumHeadBytes)
        #expect(try decode(head) == .request(HTTPRequest(method: "GET", path: "/")))
    }

    // MARK: Refused heads

    @Test("a request line without exactly three space-separated parts is 400")
    func requestLineShape() {
        for line in ["GET /ears", "GET  /ears HTTP/1.1", "GET /ears HTTP/1.1 extra", "GET /ears HTTP/1.1 ", " GET / HTTP/1.0",
                     "GET\t/ears\tHTTP/1.0", "/ears HTTP/1.0"] {
            #expect(refusal(line + "\r\n\r\n") == .malformedRequestLine, "\(line)")
        }
    }

    @Test("a method that is not a token is 400")
    func badMethod() {
        #expect(refusal("GE(T / HTTP/1.0\r\n\r\n") == .malformedRequestLine)
        #expect(refusal("G\u{e9}T / HTTP/1.0\r\n\r\n") == .malformedRequestLine)
    }

    @Test("a target with control or non-ASCII bytes, or in no known form, is 400")
    func badTarget() {
        #expect(refusal("GET /e\u{1}ars HTTP/1.0\r\n\r\n") == .malformedRequestLine)
        #expect(refusal("GET /\u{e9} HTTP/1.0\r\n\r\n") == .malformedRequestLine)
        #expect(refusal("GET ears HTTP/1.0\r\n\r\n") == .malformedRequestLine)
        #expect(refusal("CONNECT localhost:80 HTTP/1.1\r\nHost: x\r\n\r\n") == .malformedRequestLine)
    }

    @Test("a bare CR inside a line is 400, not a line end")
    func bareCarriageReturn() {
        #expect(refusal("GET /ears\rHTTP/1.0\r\n\r\n") == .malformedRequestLine)
        #expect(refusal("GET / HTTP/1.0\r\nX: a\rb\r\n\r\n") == .malformedHeader)
    }

    @Test("another major version is 505; a version of the wrong shape is 400")
    func versions() {
        #expect(refusal("GET / HTTP/2.0\r\n\r\n") == .unsupportedVersion)
        #expect(refusal("GET / HTTP/0.9\r\n\r\n") == .unsupportedVersion)
        for version in ["http/1.1", "HTTP/1.11", "HTTP/1", "HTTP/a.b", "HTTPS/1.1"] {
            #expect(refusal("GET / \(version)\r\n\r\n") == .malformedRequestLine, "\(version)")
        }
    }

    @Test("a header line without a colon, with space before it, folded, or with control bytes is 400")
    func badHeaders() {
        for header in ["NoColon", "Name : value", ": value", "Bad(Name): v", " folded: x", "\tfolded", "X: a\u{1}b", "X: a\u{7f}"] {
            #expect(refusal("GET / HTTP/1.0\r\n\(header)\r\n\r\n") == .malformedHeader, "\(header)")
        }
    }

    @Test("an HTTP/1.1 request without Host, or any request with two, is 400")
    func hostRules() {
        #expect(refusal("GET / HTTP/1.1\r\n\r\n") == .missingOrRepeatedHost)
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n") == .missingOrRepeatedHost)
        #expect(refusal("GET / HTTP/1.0\r\nHOST: a\r\nHost: a\r\n\r\n") == .missingOrRepeatedHost)
    }

    @Test("a request line running past the cap is 414, even before its line end")
    func requestLineTooLong() {
        let long = "GET /" + String(repeating: "a", count: HTTPRequestDecoder.maximumHeadBytes)
        #expect(refusal(long) == .requestLineTooLong)
        #expect(refusal(long + " HTTP/1.0\r\n\r\n") == .requestLineTooLong)
    }

    @Test("headers running past the cap are 431, one byte over is enough")
    func headTooLarge() {
        let start = "GET / HTTP/1.0\r\nX: "
        let filler = String(repeating: "a", count: HTTPRequestDecoder.maximumHeadBytes - start.utf8.count - 3)
        #expect(refusal(start + filler + "\r\n\r\n") == .headTooLarge)
        #expect(refusal("GET / HTTP/1.0\r\n" + String(repeating: "X: y\r\n", count: 2000)) == .headTooLarge)
    }

    @Test("endless blank lines before a request count against the cap")
    func endlessBlankLines() {
        #expect(refusal(String(repeating: "\r\n", count: HTTPRequestDecoder.maximumHeadBytes)) == .requestLineTooLong)
    }

    @Test("each refusal maps to its status and a one-line plain-text answer")
    func statuses() {
        let expected: [(HTTPRequestError, Int)] = [
            (.malformedRequestLine, 400), (.malformedHeader, 400), (.missingOrRepeatedHost, 400),
            (.unsupportedVersion, 505), (.requestLineTooLong, 414), (.headTooLarge, 431),
        ]
        for (error, status) in expected {
            #expect(error.status == status)
            #expect(error.response.status == status)
            #expect(error.response.contentType == "text/plain; charset=utf-8")
            #expect(error.response.bodyText.hasSuffix("\n") && error.response.bodyText.filter { $0 == "\n" }.count == 1)
        }
    }
}
