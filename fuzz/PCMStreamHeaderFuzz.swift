// libFuzzer target for `PCMStreamHeader.decide`, which reads the first bytes
// of `ears scan -` (standard input) and FIFOs: any bytes must give a
// decision, never a crash or an out-of-bounds read (AddressSanitizer).
// Every prefix is also decided, as the stream reader does while bytes arrive:
// a prefix that decides must decide the same way on the whole input (the
// reader never changes its mind once it has read samples), and at the end of
// the stream the parser never asks for more. Built by `make fuzz-pcmstream`
// (mk/fuzz.mk).

import EarsCore

@_cdecl("LLVMFuzzerTestOneInput")
public func pcmStreamHeaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = PCMStreamHeader.decide(bytes, ended: true)
    precondition(whole != .needMore, "asked for more bytes at the end of the stream")
    if case let .samples(format, headerBytes) = whole {
        precondition(headerBytes <= bytes.count, "samples start past the end of what was read")
        precondition(format.channels > 0 && format.sampleRate > 0, "a format with no channels or rate")
    }
    for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 64)) {
        let early = PCMStreamHeader.decide(Array(bytes[0..<length]), ended: false)
        if case .samples = early {
            precondition(early == PCMStreamHeader.decide(bytes, ended: false), "a prefix decided differently from the whole")
        }
    }
    return 0
}
