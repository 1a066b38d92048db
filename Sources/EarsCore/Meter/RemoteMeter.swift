/// Content-free meters of the Wyoming wake service (remote streams from Home
/// Assistant or satellites): how many connections, how much audio, which
/// phrases were detected how often. Never audio, never words heard.
///
/// Shown as the `remote` section of `GET /ears` and as `ears_remote_*`
/// families in `GET /metrics`.
public struct RemoteMeter: Sendable, Equatable {
    /// Connections open now.
    public var openConnections = 0
    /// Connections accepted since start (refused ones not included).
    public var totalConnections = 0
    /// Connections closed at once because `maximumStreams` were open.
    public var refusedConnections = 0
    /// Connections ended with an `error` event (bad input or a failed ear).
    public var errors = 0
    /// Seconds of remote audio received, in the clients' own formats.
    public var audioSeconds = 0.0
    /// Detections sent, per phrase (configured text, never anything heard).
    public var detections: [String: Int] = [:]

    /// Makes an empty meter.
    public init() {}

    /// Detections over every phrase.
    public var totalDetections: Int { detections.values.reduce(0, +) }

    /// The `remote` object of `GET /ears`, keys in a stable order.
    public func json() -> String {
        JSONText.object([
            ("connections", String(openConnections)),
            ("connections_total", String(totalConnections)),
            ("refused", String(refusedConnections)),
            ("errors", String(errors)),
            ("audio_s", JSONText.number(audioSeconds, places: 2)),
            ("detections", String(totalDetections)),
            ("detections_by_phrase", JSONText.object(detections.sorted { $0.key < $1.key }.map { ($0.key, String($0.value)) })),
        ])
    }

    /// Adds the `ears_remote_*` families to `exposition`.
    public func expose(into exposition: inout PrometheusExposition) {
        exposition.family("ears_remote_connections", .gauge, help: "Wyoming wake-service connections open now.",
                          value: Double(openConnections))
        exposition.family("ears_remote_connections_total", .counter, help: "Wyoming wake-service connections accepted since start.",
                          value: Double(totalConnections))
        exposition.family("ears_remote_refused_total", .counter, help: "Wyoming wake-service connections refused because the stream limit was reached.",
                          value: Double(refusedConnections))
        exposition.family("ears_remote_errors_total", .counter, help: "Wyoming wake-service connections ended with an error event.",
                          value: Double(errors))
        exposition.family("ears_remote_audio_seconds_total", .counter, help: "Seconds of remote audio received by the Wyoming wake service.",
                          value: audioSeconds)
        exposition.family("ears_remote_detections_total", .counter, help: "Detections sent to Wyoming wake-service clients, by phrase.",
                          samples: detections.sorted { $0.key < $1.key }.map { (labels: [("phrase", $0.key)], value: Double($0.value)) })
    }
}
