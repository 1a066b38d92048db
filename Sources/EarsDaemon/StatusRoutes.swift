import EarsCore
import EarsStatus
import EarsEngines

/// The status socket's routes: `GET /ears` (JSON meters), `GET /metrics`
/// (the same meters in the Prometheus text format 0.0.4) and `POST /tap`
/// (start a capture as if called; answers 202). Unknown paths are
/// 404, other methods on a known path 405 with `Allow`. Nothing here can
/// carry transcript text: the only bodies are `StatusReport.json()` and
/// `StatusReport.prometheusText(version:)`.
package enum StatusRoutes {
    /// Answers one request from the board's current snapshot.
    package static func answer(_ request: HTTPRequest, board: StatusBoard, taps: TapRequests? = nil) -> HTTPResponse {
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
        switch path {
        case "/ears":
            guard request.method == "GET" || request.method == "HEAD" else { return .methodNotAllowed(allow: "GET, HEAD") }
            return .json(board.snapshot().json() + "\n")
        case "/metrics":
            guard request.method == "GET" || request.method == "HEAD" else { return .methodNotAllowed(allow: "GET, HEAD") }
            return .text(board.snapshot().prometheusText(version: EarsProgram.version),
                         contentType: PrometheusExposition.contentType)
        case "/tap":
            // `ears tap`: a capture as if called. No body is read, none is sent back but a status.
            guard request.method == "POST" else { return .methodNotAllowed(allow: "POST") }
            guard let taps else { return .notFound }
            taps.request()
            return .json("{\"tap\":\"requested\"}\n", status: 202)
        default:
            return .notFound
        }
    }
}
