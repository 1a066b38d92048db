// libFuzzer target for the Wyoming event reader (`WyomingEventReader`):
// any bytes from a peer must give events or a `WyomingProtocolError`, never
// a crash, a hang or an out-of-bounds read (AddressSanitizer); and the
// reader must not care how `recv` cut the stream: fed the input whole, one
// byte at a time and in pseudo-random pieces, it returns the same events
// and ends in the same error (or with the same bytes still buffered).
// Every event read encodes back (`encoded()`) to bytes that read as the
// same type, data members and payload. Built with only the files the reader
// needs by `make fuzz-wyoming` (mk/fuzz.mk).
import EarsCore
import EarsWyoming

/// How one feeding of the input ended.
struct ReadOutcome: Equatable {
    var events: [WyomingEvent] = []
    var error: WyomingProtocolError?
    var bufferedByteCount = 0
}

/// Small limits so that inputs of a few kilobytes reach every limit check.
let smallLimits = WyomingEventReader.Limits(headerBytes: 256, dataBytes: 1024, payloadBytes: 2048)

/// Feeds `bytes` to a reader with `limits` in pieces of the sizes `pieceSizes` gives.
func read(_ bytes: [UInt8], limits: WyomingEventReader.Limits, pieceSizes: () -> Int) -> ReadOutcome {
    var reader = WyomingEventReader(limits: limits)
    var outcome = ReadOutcome()
    var offset = 0
    repeat {
        let end = min(bytes.count, offset + max(1, pieceSizes()))
        reader.append(bytes[offset..<end])
        offset = end
        do throws(WyomingProtocolError) {
            while let event = try reader.nextEvent() { outcome.events.append(event) }
        } catch {
            // After a framing error the connection closes: nothing more is read.
            outcome.error = error
            return outcome
        }
    } while offset < bytes.count
    outcome.bufferedByteCount = reader.bufferedByteCount
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func wyomingEventReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Piece sizes from a generator seeded by the input, so a finding replays.
    var state = bytes.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 } | 1
    let randomPieces = { () -> Int in
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Int(state % 97) + 1
    }
    for limits in [WyomingEventReader.Limits(), smallLimits] {
        let whole = read(bytes, limits: limits) { bytes.count }
        precondition(read(bytes, limits: limits) { 1 } == whole, "byte-at-a-time reading disagrees with reading whole")
        precondition(read(bytes, limits: limits, pieceSizes: randomPieces) == whole, "reading in pieces disagrees with reading whole")
        for event in whole.events {
            var again = WyomingEventReader(limits: WyomingEventReader.Limits())
            again.append(event.encoded())
            guard let reread = try? again.nextEvent() else { preconditionFailure("an event read does not read back from its encoding") }
            precondition(reread.type == event.type && reread.payload == event.payload, "the encoding changes the type or payload")
            precondition(Set(reread.data.keys) == Set(event.data.keys), "the encoding changes the data members")
        }
    }
    return 0
}
