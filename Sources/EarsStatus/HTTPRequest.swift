/// One HTTP request as the status server's handler sees it.
///
/// Deliberately minimal: the status API is keyed by method and path, so
/// headers are checked (see `HTTPRequestDecoder`) but not kept, and bodies
/// are never read (nor buffered, nor logged).
package struct HTTPRequest: Sendable, Equatable {
    /// The request method exactly as sent, for example `"GET"` or `"HEAD"`.
    /// Methods are case-sensitive (RFC 9110 §9.1), so it is not normalised.
    package var method: String

    /// The request target's path as sent, with the query string (everything
    /// from `?`) removed, for example `"/ears"`. Not percent-decoded: no
    /// route needs it, so `/%65ars` is simply not `/ears`. An absolute-form
    /// target (`http://host/ears`) is reduced to its path.
    package var path: String

    /// Creates a request; used by the decoder and by route-table tests.
    package init(method: String, path: String) {
        self.method = method
        self.path = path
    }
}
