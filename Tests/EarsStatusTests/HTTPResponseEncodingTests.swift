import Testing
@testable import EarsStatus

/// `HTTPResponse.encoded(headOnly:)`: what goes on the wire.
@Suite struct HTTPResponseEncodingTests {
    private func text(_ bytes: [UInt8]?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("a response is a status line, its headers in name order, the length, Connection: close, and the body")
    func wholeResponse() {
        let response = HTTPResponse(status: 405, contentType: "text/plain",
                                    headers: ["Zeta": "z", "Allow": "GET, HEAD"], body: "no\n")
        #expect(text(response.encoded(headOnly: false)) == """
            HTTP/1.1 405 Method Not Allowed\r
            Content-Type: text/plain\r
            Allow: GET, HEAD\r
            Zeta: z\r
            Content-Length: 3\r
            Connection: close\r
            \r
            no

            """)
    }

    @Test("the answer to HEAD has the same head and no body")
    func headOnly() {
        let response = HTTPResponse.json("{\"a\":1}\n")
        let full = text(response.encoded(headOnly: false)) ?? ""
        let head = text(response.encoded(headOnly: true)) ?? ""
        #expect(head.hasSuffix("Content-Length: 8\r\nConnection: close\r\n\r\n"))
        #expect(full == head + "{\"a\":1}\n")
    }

    @Test("a status the server has no phrase for gets an empty reason")
    func emptyReason() {
        #expect(text(HTTPResponse.text("x", status: 299).encoded(headOnly: true))?.hasPrefix("HTTP/1.1 299 \r\n") == true)
    }

    @Test("a status outside 100...999 cannot be sent")
    func badStatus() {
        #expect(HTTPResponse.text("x", status: 99).encoded(headOnly: false) == nil)
        #expect(HTTPResponse.text("x", status: 1000).encoded(headOnly: false) == nil)
    }

    @Test("a header or content type that would split the head cannot be sent")
    func injectedLineBreaks() {
        #expect(HTTPResponse(status: 200, contentType: "a\r\nX: y", body: "").encoded(headOnly: false) == nil)
        #expect(HTTPResponse(status: 200, contentType: "a", headers: ["X": "1\n2"], body: "").encoded(headOnly: false) == nil)
        #expect(HTTPResponse(status: 200, contentType: "a", headers: ["X": "1\u{0}"], body: "").encoded(headOnly: false) == nil)
        #expect(HTTPResponse(status: 200, contentType: "a", headers: ["Bad Name": "1"], body: "").encoded(headOnly: false) == nil)
    }

    @Test("the server's own headers cannot be set by a handler")
    func reservedHeaders() {
        for name in ["Content-Length", "connection", "Transfer-Encoding"] {
            #expect(HTTPResponse(status: 200, contentType: "a", headers: [name: "1"], body: "").encoded(headOnly: false) == nil,
                    "\(name)")
        }
    }
}
