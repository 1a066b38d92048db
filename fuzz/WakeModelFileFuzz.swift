// libFuzzer target for the trained-model file reader (`WakeModel.decode`):
// any bytes must give a model or a `WakeModelError`, never a crash, a hang or
// an out-of-bounds read (AddressSanitizer). A model that decodes must
// encode back to the same bytes. Built with the EarsCore files the reader
// needs by `make fuzz-wakemodel` (mk/fuzz.mk).
import EarsCore
import EarsNeural

@_cdecl("LLVMFuzzerTestOneInput")
public func wakeModelFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do throws(WakeModelError) {
        let model = try WakeModel.decode(bytes)
        // A file that reads as a model is one `encoded()` could have written.
        precondition(model.encoded() == bytes, "a decoded model does not encode back to its bytes")
    } catch {
        _ = error.sentence
    }
    return 0
}
