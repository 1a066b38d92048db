import Foundation

/// Rewrites a wake model file's front-end version (the third string of its
/// payload) without the " +denoised" mark, with the checksum made again: a
/// stand-in for a model trained on audio as captured.
enum ModelFileEdit {
    static func withoutDenoisedMark(_ file: [UInt8]) -> [UInt8] {
        let header = 20
        var payload = Array(file[header...])
        var offset = 0
        for _ in 0..<2 { offset += 4 + Int(u32(payload, at: offset)) } // phrase, language
        let length = Int(u32(payload, at: offset))
        let version = String(decoding: payload[(offset + 4)..<(offset + 4 + length)], as: UTF8.self)
        let plain = Array(version.replacingOccurrences(of: " +denoised", with: "").utf8)
        payload.replaceSubrange(offset..<(offset + 4 + length), with: bytes(UInt32(plain.count)) + plain)
        return Array(file[0..<12]) + bytes(UInt32(payload.count)) + bytes(crc32(payload)) + payload
    }

    private static func u32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    private static func bytes(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }

    /// CRC-32 (IEEE, as zlib), bit by bit: the file format's checksum.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
