/// The wake model file format: a fixed 20-byte header, then a compact
/// little-endian binary payload. No JSON, no audio.
///
/// Header: the 8 magic bytes `89 45 57 41 4B 45 0D 0A` (`\x89EWAKE\r\n`, so a
/// text-mode copy or a stray text file is caught at once), the format
/// version (UInt32), the payload's length in bytes (UInt32) and its CRC-32
/// (IEEE, UInt32).
///
/// Version 2 is version 1 with one more UInt32 after the leak: the head's
/// `kernelEmbeddings` (a temporal convolution's kernel). A head without a
/// convolution is still written as version 1, byte for byte as before, so
/// models trained before version 2 and the ones like them stay the same.
///
/// Payload, version 1, in order: phrase, language and front-end version
/// (strings); threshold (Float32); the head: window embeddings, dimension
/// (UInt32), leak (Float32), layer count (UInt32) and for each layer its
/// inputs and outputs (UInt32), `outputs × inputs` row-major weights then
/// `outputs` biases (Float32); normalisation count (UInt32, 0 or the
/// dimension) then that many means and scales (Float32); the training
/// summary: voices and held-out voices (UInt32 count, strings), positives and
/// negatives (UInt64), audio and training seconds (Float64), created-at
/// (string); the validation figures, five optional Float64 (a byte 0/1, then
/// the value when 1) in `ValidationFigures` order. A string is a UInt32 byte
/// count then UTF-8. Nothing may follow the payload.
package enum WakeModelFile {
    /// The first eight bytes of every wake model file.
    package static let magic: [UInt8] = [0x89, 0x45, 0x57, 0x41, 0x4B, 0x45, 0x0D, 0x0A]
    /// The newest format this build writes and reads (it reads 1 and 2).
    package static let version: UInt32 = 2
    /// The format of a head without a temporal convolution.
    package static let plainVersion: UInt32 = 1
    /// Magic, version, payload length, checksum.
    package static let headerSize = 20

    static func encode(_ model: WakeModel) -> [UInt8] {
        var w = Writer()
        w.string(model.phrase)
        w.string(model.language)
        w.string(model.frontEndVersion)
        w.float(model.threshold)
        let head = model.head
        w.u32(head.windowEmbeddings)
        w.u32(head.dimension)
        w.float(head.leak)
        if head.kernelEmbeddings > 0 { w.u32(head.kernelEmbeddings) }
        w.u32(head.layers.count)
        for layer in head.layers {
            w.u32(layer.inputs)
            w.u32(layer.outputs)
            w.floats(layer.weights)
            w.floats(layer.biases)
        }
        w.u32(head.featureMean.count)
        w.floats(head.featureMean)
        w.floats(head.featureScale)
        let t = model.training
        w.u32(t.voices.count)
        t.voices.forEach { w.string($0) }
        w.u32(t.heldOutVoices.count)
        t.heldOutVoices.forEach { w.string($0) }
        w.u64(UInt64(max(0, t.positives)))
        w.u64(UInt64(max(0, t.negatives)))
        w.double(t.audioSeconds)
        w.double(t.trainingSeconds)
        w.string(t.createdAt)
        let v = model.validation
        for figure in [v.recallClean, v.recallAt10dB, v.recallAt5dB, v.falseWakesPerHour, v.soundAlikeWakeRate] {
            w.optionalDouble(figure)
        }

        var file = Writer()
        file.bytes.reserveCapacity(headerSize + w.bytes.count)
        file.bytes.append(contentsOf: magic)
        file.u32(Int(head.kernelEmbeddings > 0 ? version : plainVersion))
        file.u32(w.bytes.count)
        file.u32(Int(CRC32.checksum(w.bytes[...])))
        file.bytes.append(contentsOf: w.bytes)
        return file.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(WakeModelError) -> WakeModel {
        guard bytes.count >= magic.count else {
            throw bytes.elementsEqual(magic.prefix(bytes.count)) ? .truncated : .wrongMagic
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else { throw .wrongMagic }
        guard bytes.count >= headerSize else { throw .truncated }
        let found = littleEndian32(bytes, at: 8)
        guard found == version || found == plainVersion else { throw .unsupportedVersion(found: found, expected: version) }
        let length = Int(littleEndian32(bytes, at: 12))
        guard bytes.count >= headerSize + length else { throw .truncated }
        guard bytes.count == headerSize + length else {
            throw .malformed("\(bytes.count - headerSize - length) bytes follow the payload")
        }
        let payload = bytes[headerSize...]
        guard CRC32.checksum(payload) == littleEndian32(bytes, at: 16) else { throw .checksumMismatch }

        var r = Reader(bytes: payload)
        let phrase = try r.string("phrase")
        let language = try r.string("language")
        let frontEnd = try r.string("front-end version")
        let threshold = try r.float()
        guard threshold.isFinite else { throw .malformed("the threshold is not a number") }
        let windowEmbeddings = try r.count("window", limit: 4096)
        let dimension = try r.count("dimension", limit: 65_536)
        let leak = try r.float()
        let kernelEmbeddings = found == plainVersion ? 0 : try r.count("kernel", limit: 4096)
        guard found == plainVersion || kernelEmbeddings > 0 else { throw .malformed("a version 2 head has a kernel of 0 embeddings") }
        let layerCount = try r.count("layer count", limit: 64)
        var layers: [WakeHead.Layer] = []
        for _ in 0..<layerCount {
            let inputs = try r.count("layer inputs", limit: 1 << 24)
            let outputs = try r.count("layer outputs", limit: 1 << 24)
            guard inputs > 0, outputs > 0 else { throw .malformed("a layer has no inputs or outputs") }
            let weights = try r.floats(inputs.multipliedReportingOverflow(by: outputs).partialValue, "weights")
            let biases = try r.floats(outputs, "biases")
            layers.append(WakeHead.Layer(inputs: inputs, outputs: outputs, weights: weights, biases: biases))
        }
        let normalisation = try r.count("normalisation", limit: 65_536)
        let mean = try r.floats(normalisation, "means")
        let scale = try r.floats(normalisation, "scales")
        if let problem = WakeHead.problem(windowEmbeddings: windowEmbeddings, dimension: dimension, layers: layers,
                                          featureMean: mean, featureScale: scale, kernelEmbeddings: kernelEmbeddings) {
            throw .malformed(problem)
        }
        guard leak.isFinite else { throw .malformed("the leak is not a number") }
        let head = WakeHead(windowEmbeddings: windowEmbeddings, dimension: dimension, layers: layers, leak: leak,
                            featureMean: mean, featureScale: scale, kernelEmbeddings: kernelEmbeddings)

        var training = WakeModel.TrainingSummary()
        for _ in 0..<(try r.count("voices", limit: 100_000)) { training.voices.append(try r.string("voice")) }
        for _ in 0..<(try r.count("held-out voices", limit: 100_000)) { training.heldOutVoices.append(try r.string("voice")) }
        training.positives = try r.count64("positive windows' count")
        training.negatives = try r.count64("negative windows' count")
        training.audioSeconds = try r.double()
        training.trainingSeconds = try r.double()
        training.createdAt = try r.string("created-at")
        var validation = WakeModel.ValidationFigures()
        validation.recallClean = try r.optionalDouble()
        validation.recallAt10dB = try r.optionalDouble()
        validation.recallAt5dB = try r.optionalDouble()
        validation.falseWakesPerHour = try r.optionalDouble()
        validation.soundAlikeWakeRate = try r.optionalDouble()
        guard r.offset == payload.endIndex else { throw .malformed("the payload has bytes after its last field") }
        return WakeModel(phrase: phrase, language: language, frontEndVersion: frontEnd, head: head,
                         threshold: threshold, training: training, validation: validation)
    }

    static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    struct Writer {
        var bytes: [UInt8] = []

        mutating func u32(_ value: Int) {
            let v = UInt32(value)
            bytes.append(contentsOf: [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8),
                                      UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24)])
        }
        mutating func u64(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        mutating func float(_ value: Float) { u32(Int(value.bitPattern)) }
        mutating func double(_ value: Double) { u64(value.bitPattern) }
        mutating func floats(_ values: [Float]) {
            bytes.reserveCapacity(bytes.count + 4 * values.count)
            for value in values { float(value) }
        }
        mutating func string(_ value: String) {
            let utf8 = Array(value.utf8)
            u32(utf8.count)
            bytes.append(contentsOf: utf8)
        }
        mutating func optionalDouble(_ value: Double?) {
            bytes.append(value == nil ? 0 : 1)
            if let value { double(value) }
        }
    }

    struct Reader {
        let bytes: ArraySlice<UInt8>
        var offset: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            offset = bytes.startIndex
        }

        mutating func take(_ count: Int) throws(WakeModelError) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.endIndex - offset >= count else {
                throw .malformed("a field runs past the end of the payload")
            }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }
        mutating func u32() throws(WakeModelError) -> UInt32 {
            let b = try take(4)
            var value: UInt32 = 0
            for (k, byte) in b.enumerated() { value |= UInt32(byte) << UInt32(8 * k) }
            return value
        }
        mutating func u64() throws(WakeModelError) -> UInt64 {
            let b = try take(8)
            var value: UInt64 = 0
            for (k, byte) in b.enumerated() { value |= UInt64(byte) << UInt64(8 * k) }
            return value
        }
        mutating func count(_ what: String, limit: Int) throws(WakeModelError) -> Int {
            let value = Int(try u32())
            guard value <= limit else { throw .malformed("the \(what) is \(value), more than \(limit)") }
            return value
        }
        /// A 64-bit count, refused above `Int.max` (clamping it would read a
        /// file `encode` could not have written: it would not encode back).
        mutating func count64(_ what: String) throws(WakeModelError) -> Int {
            let value = try u64()
            guard value <= UInt64(Int.max) else { throw .malformed("the \(what) is \(value), more than \(Int.max)") }
            return Int(value)
        }
        mutating func float() throws(WakeModelError) -> Float { Float(bitPattern: try u32()) }
        mutating func double() throws(WakeModelError) -> Double { Double(bitPattern: try u64()) }
        mutating func floats(_ count: Int, _ what: String) throws(WakeModelError) -> [Float] {
            guard count >= 0, count <= (bytes.endIndex - offset) / 4 else {
                throw .malformed("the \(what) run past the end of the payload")
            }
            let b = try take(4 * count)
            var values = [Float](repeating: 0, count: count)
            var index = b.startIndex
            for k in 0..<count {
                values[k] = Float(bitPattern: UInt32(b[index]) | UInt32(b[index + 1]) << 8
                                  | UInt32(b[index + 2]) << 16 | UInt32(b[index + 3]) << 24)
                index += 4
            }
            guard values.allSatisfy(\.isFinite) else { throw .malformed("the \(what) hold a value that is not a number") }
            return values
        }
        mutating func string(_ what: String) throws(WakeModelError) -> String {
            let length = Int(try u32())
            let utf8 = try take(length)
            let text = String(decoding: utf8, as: UTF8.self)
            guard text.utf8.elementsEqual(utf8) else { throw .malformed("the \(what) is not UTF-8") }
            return text
        }
        mutating func optionalDouble() throws(WakeModelError) -> Double? {
            switch try take(1).first {
            case 0: return nil
            case 1: return try double()
            default: throw .malformed("an optional figure has a flag other than 0 or 1")
            }
        }
    }
}

/// CRC-32 (IEEE 802.3, the zlib/PNG one), table-driven, pure Swift.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            for byte in bytes { crc = t[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
