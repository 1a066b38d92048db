import EarsCore

/// One Wyoming protocol event: a type, a JSON object of data, and an
/// optional binary payload (PCM audio for `audio-chunk`).
///
/// On the wire (as the `wyoming` Python package 1.x writes it) an event is
/// a header line, then the data, then the payload:
///
///     {"type":"audio-chunk","version":"1.10.2","data_length":52,"payload_length":3200}\n
///     {"channels":1,"rate":16000,"timestamp":1200,"width":2}
///     <3200 bytes of S16LE samples>
///
/// `data_length` and `payload_length` are left out when zero. Older writers
/// put the data inside the header as `"data": {…}`; readers merge both, so
/// `WyomingEventReader` accepts either, while `encoded()` writes the separate
/// segment only, as current writers do.
package struct WyomingEvent: Sendable, Equatable {
    /// The event type, for example `"detection"` or `"audio-chunk"`.
    package var type: String
    /// The event's data object (empty when the event has none).
    package var data: [String: JSONValue]
    /// The binary payload (empty when the event has none).
    package var payload: [UInt8]

    /// The protocol version written in every header: the `wyoming` package
    /// release this implementation was checked against (see mk/wyoming.mk).
    package static let protocolVersion = "1.10.2"

    /// Makes an event from its parts.
    package init(type: String, data: [String: JSONValue] = [:], payload: [UInt8] = []) {
        self.type = type
        self.data = data
        self.payload = payload
    }

    /// The event types ears sends or answers. Wyoming has many more; others
    /// travel as plain strings.
    package enum EventType {
        /// A wake phrase was heard (`wyoming.wake.Detection`).
        package static let detection = "detection"
        /// A capture begins; data gives the audio format (`wyoming.audio.AudioStart`).
        package static let audioStart = "audio-start"
        /// PCM audio in the payload (`wyoming.audio.AudioChunk`).
        package static let audioChunk = "audio-chunk"
        /// The capture is over (`wyoming.audio.AudioStop`).
        package static let audioStop = "audio-stop"
        /// A client asks what the server offers (`wyoming.info.Describe`).
        package static let describe = "describe"
        /// The answer to `describe` (`wyoming.info.Info`).
        package static let info = "info"
    }

    // MARK: Encoding

    /// The event's wire bytes: header line, data segment, payload.
    package func encoded() -> [UInt8] {
        var header: [String: JSONValue] = ["type": .string(type), "version": .string(Self.protocolVersion)]
        let dataBytes = data.isEmpty ? [] : Array(JSONValue.object(data).jsonText.utf8)
        if !dataBytes.isEmpty { header["data_length"] = .integer(Int64(dataBytes.count)) }
        if !payload.isEmpty { header["payload_length"] = .integer(Int64(payload.count)) }
        var bytes = Array(JSONValue.object(header).jsonText.utf8)
        bytes.reserveCapacity(bytes.count + 1 + dataBytes.count + payload.count)
        // The header text can hold no raw newline: JSONText escapes control
        // characters inside strings, so this is the only one.
        bytes.append(0x0A)
        bytes += dataBytes
        bytes += payload
        return bytes
    }

    // MARK: Events ears sends

    /// `detection`: the wake phrase `name` was heard; `timestamp` is the
    /// audio time of the detection in milliseconds, when known.
    package static func detection(name: String, timestamp: Int? = nil) -> WyomingEvent {
        WyomingEvent(type: EventType.detection, data: ["name": .string(name), "timestamp": .optional(timestamp)])
    }

    /// `audio-start`: a capture in the given format begins. The defaults are
    /// ears' one format (16 kHz, 16-bit, mono).
    package static func audioStart(rate: Int = AudioFormat.sampleRate, width: Int = AudioFormat.bytesPerSample,
                                  channels: Int = AudioFormat.channels, timestamp: Int? = nil) -> WyomingEvent {
        WyomingEvent(type: EventType.audioStart, data: formatData(rate: rate, width: width, channels: channels, timestamp: timestamp))
    }

    /// `audio-chunk`: `samples` as signed 16-bit little-endian bytes in the
    /// payload. `width` must be 2, since the samples are `Int16`; it is a
    /// parameter only so the data states it as Wyoming expects.
    package static func audioChunk(samples: [Int16], rate: Int = AudioFormat.sampleRate, width: Int = AudioFormat.bytesPerSample,
                                  channels: Int = AudioFormat.channels, timestamp: Int? = nil) -> WyomingEvent {
        precondition(width == 2, "audio-chunk from Int16 samples has width 2, not \(width)")
        // This runs on the audio thread for every chunk: on little-endian
        // machines (all ears targets) the samples' memory already is S16LE.
        #if _endian(little)
        let payload = samples.withUnsafeBytes { Array($0) }
        #else
        var payload = [UInt8](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            let bits = UInt16(bitPattern: sample)
            payload[2 * index] = UInt8(truncatingIfNeeded: bits)
            payload[2 * index + 1] = UInt8(truncatingIfNeeded: bits >> 8)
        }
        #endif
        return WyomingEvent(type: EventType.audioChunk,
                            data: formatData(rate: rate, width: width, channels: channels, timestamp: timestamp),
                            payload: payload)
    }

    /// `audio-stop`: the capture is over; `timestamp` in milliseconds when known.
    package static func audioStop(timestamp: Int? = nil) -> WyomingEvent {
        WyomingEvent(type: EventType.audioStop, data: ["timestamp": .optional(timestamp)])
    }

    /// `describe`: asks a server for its `info`.
    package static var describe: WyomingEvent { WyomingEvent(type: EventType.describe) }

    /// `info`: ears as a Wyoming wake service whose models are the wake phrases.
    ///
    /// The shape follows `wyoming.info.Info`: every service list present
    /// (empty but `wake`), one `WakeProgram` (`name`, `attribution`
    /// `{name, url}`, `installed`, `description`, `version`, `models`) and per
    /// phrase one `WakeModel` (the same artifact fields plus `languages` and
    /// `phrase`). `from_dict` there requires `name`, `attribution`,
    /// `installed`, and for models `languages`; the rest may be null.
    ///
    /// - Parameters:
    ///   - wakePhrases: the configured phrases, in order; each becomes a model
    ///     whose `name` and `phrase` are the phrase text.
    ///   - version: ears' version, if the caller wants it shown.
    ///   - languages: language codes of the phrases (unknown: empty).
    package static func info(wakePhrases: [String], version: String? = nil, languages: [String] = []) -> WyomingEvent {
        let attribution: JSONValue = ["name": "ears", "url": ""]
        let models = wakePhrases.map { phrase -> JSONValue in
            [
                "name": .string(phrase), "phrase": .string(phrase), "description": .string(phrase),
                "attribution": attribution, "installed": true, "version": .optional(version),
                "languages": .array(languages.map { .string($0) }),
            ]
        }
        let program: JSONValue = [
            "name": "ears", "attribution": attribution, "installed": true,
            "description": "ears on-device wake-phrase listener", "version": .optional(version),
            "models": .array(models),
        ]
        return WyomingEvent(type: EventType.info, data: [
            "asr": [], "tts": [], "handle": [], "intent": [], "mic": [], "snd": [],
            "wake": [program],
        ])
    }

    private static func formatData(rate: Int, width: Int, channels: Int, timestamp: Int?) -> [String: JSONValue] {
        ["rate": .integer(Int64(rate)), "width": .integer(Int64(width)),
         "channels": .integer(Int64(channels)), "timestamp": .optional(timestamp)]
    }

    // MARK: Reading received events

    /// The payload read as signed 16-bit little-endian samples (a trailing
    /// odd byte is ignored). Meaningful for `audio-chunk` with width 2.
    package var samples: [Int16] {
        var samples = [Int16](repeating: 0, count: payload.count / 2)
        #if _endian(little)
        samples.withUnsafeMutableBytes { $0.copyBytes(from: payload.prefix($0.count)) }
        #else
        for index in samples.indices {
            samples[index] = Int16(bitPattern: UInt16(payload[2 * index]) | UInt16(payload[2 * index + 1]) << 8)
        }
        #endif
        return samples
    }

    /// The integer data member `key` (for example `"rate"`), if present.
    package func integer(_ key: String) -> Int? {
        data[key]?.integerValue.map { Int(truncatingIfNeeded: $0) }
    }

    /// The string data member `key` (for example `"name"`), if present.
    package func string(_ key: String) -> String? {
        data[key]?.stringValue
    }

    /// The wake phrases an `info` event lists: the `phrase` (else `name`) of
    /// every model of every wake program, in order.
    package var infoWakePhrases: [String] {
        guard type == EventType.info else { return [] }
        let programs = data["wake"]?.arrayValue ?? []
        return programs.flatMap { program in
            (program["models"]?.arrayValue ?? []).compactMap { model in
                model["phrase"]?.stringValue ?? model["name"]?.stringValue
            }
        }
    }
}
