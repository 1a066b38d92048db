import CAvahi

/// The one funnel for libavahi-client calls: every return code or NULL
/// handle becomes a typed `AvahiError` here, and nowhere else.
///
/// avahi reports failure as a negative `int` (an `AVAHI_ERR_*` code) or as a
/// NULL pointer with the code left in `avahi_client_errno` (or an out
/// parameter, for `avahi_client_new`). Avahi calls do not return `EINTR`
/// (the threaded poll retries its own `poll(2)`), so nothing is retried.
enum AvahiCall {
    /// Runs `body`, an avahi call returning 0 or more on success and a
    /// negative `AVAHI_ERR_*` code on failure, and throws the typed error.
    @discardableResult
    static func check(_ function: String, _ body: () -> Int32) throws(AvahiError) -> Int32 {
        let code = body()
        if code < 0 { throw error(function: function, code: code) }
        return code
    }

    /// Runs `body`, an avahi call returning a handle or NULL; on NULL, reads
    /// the error code with `errorCode` and throws the typed error.
    static func make<Handle>(_ function: String, errorCode: () -> Int32, _ body: () -> Handle?) throws(AvahiError) -> Handle {
        if let handle = body() { return handle }
        throw error(function: function, code: errorCode())
    }

    /// The typed error for avahi's code `code` returned by `function`.
    static func error(function: String, code: Int32) -> AvahiError {
        let reason = avahi_strerror(code).map { String(cString: $0) } ?? "unknown error"
        if AvahiError.unavailableCodes.contains(code) {
            return .daemonNotRunning(function: function, code: code, reason: reason)
        }
        return .call(function: function, code: code, reason: reason)
    }
}
