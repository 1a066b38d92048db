import Testing
@testable import EarsCore
@testable import EarsConfig

@Suite struct ConfigLinesTests {
    @Test("a CRLF file is read line by line, not as one comment")
    func crlfLinesAreLines() throws {
        let config = try ConfigParser.parse("# c\r\n[wake]\r\nphrase = hey pippa\r\n", file: "f")
        #expect(config.phrases.map(\.text) == ["hey pippa"])
    }

    @Test("a file of lone CRs (old Mac editors) is read line by line")
    func loneCarriageReturnsEndLines() throws {
        let config = try ConfigParser.parse("[wake]\rphrase = hey pippa\r[audio]\rdevice = hw:1\r", file: "f")
        #expect(config.phrases.map(\.text) == ["hey pippa"])
        #expect(config.device == "hw:1")
    }

    @Test("line numbers count CRLF, CR and LF each as one line end")
    func mixedLineEndsCountOnce() {
        do {
            _ = try ConfigParser.parse(bytes: Array("[wake]\r\n\r\n\rphrase = hey\nnope = 1\r\n".utf8), file: "f")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.line == 5, "\(error)")
        }
    }

    @Test("a UTF-8 byte-order mark before the first line is not content")
    func byteOrderMarkIsSkipped() throws {
        let located = try ConfigParser.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("[audio]\r\ndevice = hw:2\r\n".utf8), file: "f")
        #expect(located.config.device == "hw:2")
    }

    @Test("bytes that are not UTF-8 are reported with their line and byte")
    func notUTF8NamesTheLine() {
        do {
            _ = try ConfigParser.parse(bytes: Array("[wake]\nphrase = hey ".utf8) + [0xFF] + Array(" pippa\n".utf8), file: "f")
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("not UTF-8"))
            #expect(error.message.contains("byte 14"))
        }
    }

    @Test("a UTF-16 file is refused at line 1 with a sentence that names UTF-16")
    func utf16IsRefused() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("[wake]".utf8).flatMap { [$0, 0] }
        do {
            _ = try ConfigParser.parse(bytes: utf16, file: "f")
            Issue.record("UTF-16 was accepted")
        } catch {
            #expect(error.line == 1)
            #expect(error.message.contains("UTF-16"))
        }
    }

    @Test("a NUL or another control character is refused with file:line", arguments: [UInt8(0x00), 0x01, 0x1B, 0x7F])
    func controlBytesAreRefused(byte: UInt8) {
        do {
            _ = try ConfigParser.parse(bytes: Array("[audio]\ndevice = hw".utf8) + [byte] + Array("1\n".utf8), file: "ears.conf")
            Issue.record("a control byte was accepted")
        } catch {
            #expect(error.description.hasPrefix("ears.conf:2: the line holds "))
            #expect(error.message.contains("at byte 12"))
        }
    }

    @Test("a tab is whitespace, not a control character to refuse")
    func tabsAreAllowed() throws {
        #expect(try ConfigParser.parse("[audio]\n\tdevice\t=\thw:3\n", file: "f").device == "hw:3")
    }

    @Test("a huge bad value is quoted cut to 80 characters, with its length")
    func hugeValuesAreCut() {
        let value = String(repeating: "x", count: 1_000_000)
        do {
            _ = try ConfigParser.parse("[wake]\nrefractory_seconds = \(value)\n", file: "f")
            Issue.record("a bad value was accepted")
        } catch {
            #expect(error.description.count < 400, "\(error.description.count) characters")
            #expect(error.message.contains("'" + String(repeating: "x", count: 80) + "…' (1000000 characters)"))
        }
    }

    @Test("a huge unknown key or section name is cut too")
    func hugeNamesAreCut() {
        let name = String(repeating: "k", count: 100_000)
        for text in ["[audio]\n\(name) = 1\n", "[\(name)]\n", "\(name) = 1\n"] {
            do {
                _ = try ConfigParser.parse(text, file: "f")
                Issue.record("accepted \(text.prefix(20))")
            } catch {
                #expect(error.description.count < 400, "\(error.description.prefix(200))")
            }
        }
    }

    @Test("one combining-mark pile is cut by code points, not kept whole as one Character")
    func quotingCutsByCodePoints() {
        let pile = "a" + String(repeating: "\u{301}", count: 10_000)
        #expect(ConfigLines.quoted(pile).unicodeScalars.count < 120)
        #expect(ConfigLines.quoted("short") == "'short'")
    }

    @Test("a file over 1 MiB is refused before its lines are read")
    func oversizedFilesAreRefused() {
        let bytes = [UInt8](repeating: 0x23, count: ConfigLines.maximumFileBytes + 1)
        do {
            _ = try ConfigLines(bytes: bytes, file: "big.conf")
            Issue.record("an oversized file was read")
        } catch {
            #expect(error.line == 0)
            #expect(error.message.contains("at most 1048576 bytes"))
        }
        #expect((try? ConfigLines(bytes: [UInt8](repeating: 0x23, count: ConfigLines.maximumFileBytes), file: "f")) != nil)
    }
}
