// libFuzzer target for the configuration parser (`ConfigParser.parse(bytes:file:)`):
// any bytes must give a configuration or a `ConfigError`, never a crash or a
// hang, and an error must be one short line (a huge value is quoted cut).
// Built with only the EarsCore files the parser needs by `make fuzz-config`
// (mk/fuzz.mk).
import EarsCore
import EarsConfig

/// The longest error line any input may produce, in bytes: the message
/// texts plus two values quoted at `ConfigLines.maximumQuotedCharacters`.
let longestErrorBytes = 2_048

@_cdecl("LLVMFuzzerTestOneInput")
public func configParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    do throws(ConfigError) {
        let located = try ConfigParser.parse(bytes: bytes, file: "fuzz.conf")
        // Every key that was set was set on a line of the input.
        let lineCount = bytes.count(where: { $0 == 0x0A || $0 == 0x0D }) + 1
        for origin in located.origins.values {
            precondition(origin.line >= 1 && origin.line <= lineCount, "a key's origin is outside the file")
        }
        precondition(PhraseLimits.problem(in: located.config.phrases) == nil, "the parser let a configuration past the phrase limits")
        // Round trip: the same text with CRLF line ends reads the same.
        let crlf = bytes.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
        if crlf.count <= ConfigLines.maximumFileBytes, !bytes.contains(0x0D) {
            let again = try ConfigParser.parse(bytes: crlf, file: "fuzz.conf")
            precondition(again.config == located.config, "the CRLF form of a file reads differently")
        }
    } catch {
        precondition(error.description.utf8.count <= longestErrorBytes, "a \(error.description.utf8.count)-byte error line")
        precondition(error.line >= 0, "a negative line number")
    }
    return 0
}
