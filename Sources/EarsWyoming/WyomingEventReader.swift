import EarsCore

/// Why bytes received from a Wyoming peer could not be read as events.
///
/// Any of these ends the connection: after a framing error the reader cannot
/// know where the next event starts.
package enum WyomingProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No newline within `limit` bytes: the header line is too long (or the
    /// peer does not speak Wyoming).
    case headerTooLong(limit: Int)
    /// The header, or the data segment, is not valid JSON. `what` says which.
    case invalidJSON(what: String)
    /// The header is JSON but not a Wyoming header; `reason` says why.
    case invalidHeader(reason: String)
    /// `data_length` or `payload_length` (`what`) exceeds the reader's limit.
    case segmentTooLong(what: String, length: Int, limit: Int)

    /// One line for logs.
    package var description: String {
        switch self {
        case let .headerTooLong(limit): return "Wyoming header line longer than \(limit) bytes"
        case let .invalidJSON(what): return "Wyoming \(what) is not valid JSON"
        case let .invalidHeader(reason): return "invalid Wyoming header: \(reason)"
        case let .segmentTooLong(what, length, limit): return "Wyoming \(what) of \(length) bytes exceeds the limit of \(limit)"
        }
    }
}

/// Turns a byte stream into Wyoming events, whatever pieces it arrives in.
///
/// Feed it what `recv` returned with `append`, then call `nextEvent` until it
/// returns nil (more bytes needed). It never blocks and never reads a socket
/// itself, so the server's poll thread and the blocking client share it.
///
/// Memory is bounded by `Limits`: a peer cannot make the reader buffer more
/// than one header line plus one data segment plus one payload at the limits.
package struct WyomingEventReader: Sendable {
    /// The largest header line, data segment and payload accepted.
    package struct Limits: Sendable {
        /// Longest header line in bytes, newline excluded. Python's asyncio
        /// reader stops at 64 KiB by default, so no real peer exceeds it.
        package var headerBytes: Int
        /// Largest `data_length` (an `info` with many models stays far below).
        package var dataBytes: Int
        /// Largest `payload_length` (an audio chunk is a few KiB).
        package var payloadBytes: Int

        /// Makes limits; the defaults suit either side of an ears socket.
        package init(headerBytes: Int = 64 * 1024, dataBytes: Int = 1 << 20, payloadBytes: Int = 4 << 20) {
            self.headerBytes = headerBytes
            self.dataBytes = dataBytes
            self.payloadBytes = payloadBytes
        }
    }

    /// A parsed header whose data and payload have not fully arrived yet.
    private struct PendingHeader: Sendable {
        var type: String
        var data: [String: JSONValue]
        var dataLength: Int
        var payloadLength: Int
    }

    private let limits: Limits
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte in `buffer`; consumed bytes are
    /// compacted away in bulk rather than removed one event at a time.
    private var start = 0
    /// How far past `start` the search for a newline has already looked, so
    /// a long header arriving in many pieces is not rescanned each time.
    private var scanned = 0
    private var pending: PendingHeader?

    /// Makes an empty reader with `limits`.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes received but not yet returned as (part of) an event.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        // Compact once the consumed prefix is at least half the buffer:
        // amortized O(1) per byte. `scanned` counts from `start`, so it
        // stays valid.
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete event, or nil if more bytes are needed.
    ///
    /// - Throws: `WyomingProtocolError` when the stream is not Wyoming; the
    ///   reader is then unusable and the connection should be closed.
    package mutating func nextEvent() throws(WyomingProtocolError) -> WyomingEvent? {
        var parsed = pending
        while parsed == nil {
            guard let line = try takeHeaderLine() else { return nil }
            // Blank lines carry nothing; tolerate them as line-based tools do.
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            parsed = try Self.parseHeader(line, limits: limits)
            pending = parsed
        }
        guard let header = parsed else { return nil }
        guard bufferedByteCount >= header.dataLength + header.payloadLength else { return nil }
        var data = header.data
        if header.dataLength > 0 {
            let segment = buffer[start..<(start + header.dataLength)]
            guard case let .object(members) = try Self.parseJSON(segment, what: "data segment") else {
                throw .invalidJSON(what: "data segment (not an object)")
            }
            // Same precedence as the Python reader: the segment overrides
            // members of the same name in an inline "data".
            data.merge(members) { $1 }
            start += header.dataLength
        }
        let payload = Array(buffer[start..<(start + header.payloadLength)])
        start += header.payloadLength
        pending = nil
        return WyomingEvent(type: header.type, data: data, payload: payload)
    }

    /// Removes and returns the next line (without its newline), or nil if
    /// no newline has arrived yet.
    private mutating func takeHeaderLine() throws(WyomingProtocolError) -> ArraySlice<UInt8>? {
        let searchFrom = start + scanned
        if let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
            let line = buffer[start..<newline]
            start = newline + 1
            scanned = 0
            guard line.count <= limits.headerBytes else { throw .headerTooLong(limit: limits.headerBytes) }
            return line
        }
        scanned = buffer.count - start
        guard scanned <= limits.headerBytes else { throw .headerTooLong(limit: limits.headerBytes) }
        return nil
    }

    /// Checks a header line and reads its fields.
    private static func parseHeader(_ line: ArraySlice<UInt8>, limits: Limits) throws(WyomingProtocolError) -> PendingHeader {
        guard case let .object(header) = try Self.parseJSON(line, what: "header") else {
            throw .invalidHeader(reason: "not a JSON object")
        }
        guard let type = header["type"]?.stringValue, !type.isEmpty else {
            throw .invalidHeader(reason: "no \"type\" string")
        }
        var data: [String: JSONValue] = [:]
        switch header["data"] {
        case nil, .null?: break
        case let .object(members)?: data = members
        default: throw .invalidHeader(reason: "\"data\" is not an object")
        }
        let dataLength = try length(header["data_length"], name: "data_length", limit: limits.dataBytes)
        let payloadLength = try length(header["payload_length"], name: "payload_length", limit: limits.payloadBytes)
        return PendingHeader(type: type, data: data, dataLength: dataLength, payloadLength: payloadLength)
    }

    /// A segment length: absent or null is 0; otherwise a non-negative
    /// integer no larger than `limit`.
    private static func length(_ value: JSONValue?, name: String, limit: Int) throws(WyomingProtocolError) -> Int {
        guard let value, value != .null else { return 0 }
        guard let length = value.integerValue, length >= 0 else {
            throw .invalidHeader(reason: "\"\(name)\" is not a non-negative integer")
        }
        guard length <= Int64(limit) else { throw .segmentTooLong(what: name, length: Int(clamping: length), limit: limit) }
        return Int(length)
    }

    /// One JSON text of an event, or `invalidJSON` naming `what` ("header", "data segment").
    private static func parseJSON(_ bytes: some Collection<UInt8>, what: String) throws(WyomingProtocolError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw .invalidJSON(what: what)
        }
    }
}
