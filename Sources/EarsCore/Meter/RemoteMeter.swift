/// Content-free meters of the Wyoming wake service (remote streams from Home
/// Assistant or satellites): how many connections, how much audio, which
/// phrases were detected how often. Never audio, never words heard.
///
/// Shown as the `remote` section of `GET /ears` and as `ears_remote_*`
/// families in `GET /metrics`.
package struct RemoteMeter: Sendable, Equatable {
    /// Connections open now.
    package var openConnections = 0
    /// Connections accepted since start (refused ones not included).
    package var totalConnections = 0
    /// Connections closed at once because `maximumStreams` were open.
    package var refusedConnections = 0
    /// Connections ended with an `error` event (bad input or a failed ear).
    package var errors = 0
    /// Seconds of remote audio received, in the clients' own formats.
    package var audioSeconds = 0.0
    /// Detections sent, per phrase (configured text, never anything heard).
    package var detections: [String: Int] = [:]

    /// Makes an empty meter.
    package init() {}

    /// Detections over every phrase.
    package var totalDetections: Int { detections.values.reduce(0, +) }

    /// The `remote` object of `GET /ears`.
    package var jsonValue: JSONValue {
        [
            "connections": .integer(Int64(openConnections)),
            "connections_total": .integer(Int64(totalConnections)),
            "refused": .integer(Int64(refusedConnections)),
            "errors": .integer(Int64(errors)),
            "audio_s": .decimal(audioSeconds, places: 2),
            "detections": .integer(Int64(totalDetections)),
            "detections_by_phrase": .object(detections.mapValues { .integer(Int64($0)) }),
        ]
    }

    /// Adds the `ears_remote_*` families to `exposition`.
    package func expose(into exposition: inout PrometheusExposition) {
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
