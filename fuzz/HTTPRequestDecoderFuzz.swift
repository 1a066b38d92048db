// libFuzzer target for the status server's request decoder
// (`HTTPRequestDecoder`): any bytes must give `.needMore`, a request or an
// `HTTPRequestError`, never a crash, a hang or an out-of-bounds access
// (AddressSanitizer), and the answer must not depend on how the bytes were
// split into reads. Built against the EarsSocket and EarsStatus modules
// alone, by `make fuzz-http` (mk/fuzz.mk).
import EarsStatus

/// What a decoder said after all of `chunks`, fed in order; the first
/// answer that is not `.needMore` ends it (the server stops reading there).
private func outcome(_ chunks: [ArraySlice<UInt8>]) -> Result<HTTPRequestDecoder.Outcome, HTTPRequestError> {
    var decoder = HTTPRequestDecoder()
    var last = HTTPRequestDecoder.Outcome.needMore
    for chunk in chunks {
        do throws(HTTPRequestError) {
            last = try decoder.feed(chunk)
        } catch {
            return .failure(error)
        }
        if last != .needMore { break }
    }
    return .success(last)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func httpRequestDecoderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = outcome([bytes[...]])
    // Two split points taken from the input itself, so the fuzzer explores
    // them along with the bytes.
    let first = size == 0 ? 0 : Int(bytes[0]) % (size + 1)
    let second = size == 0 ? 0 : first + Int(bytes[size - 1]) % (size - first + 1)
    let split = outcome([bytes[..<first], bytes[first..<second], bytes[second...]])
    precondition(whole == split, "split at \(first), \(second) gives \(split), whole gives \(whole)")
    let byByte = outcome(bytes.indices.map { bytes[$0...$0] })
    precondition(whole == byByte, "byte by byte gives \(byByte), whole gives \(whole)")
    if case .success(.request(let request)) = whole {
        // The path the routes see is never empty and never carries a query.
        precondition(!request.path.isEmpty && !request.path.contains("?"), "bad path \(request.path)")
    }
    if case .failure(let error) = whole {
        precondition((400...599).contains(error.status))
    }
    return 0
}
