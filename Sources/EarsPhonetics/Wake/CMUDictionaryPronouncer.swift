import Foundation // only to read the dictionary file once; lookups use none of it

/// Pronunciations from a CMU-format dictionary, such as the one PocketSphinx
/// ships (/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict).
///
/// The format is one word a line: `word PH ON ES`, alternates as `word(2) …`,
/// `;;;` comment lines, optional stress digits on phones. The first
/// pronunciation of a word wins and alternates are dropped: the wake matcher
/// wants one plausible spelling in sounds, and the first is the most common.
///
/// Memory: no dictionary of arrays. Each entry is packed into one byte buffer
/// as `[key length][key bytes][phone count][phone numbers]` (a phone is one
/// byte, an index into `ARPAbet.phones`), and a table of 32-bit entry offsets,
/// sorted by key, is binary-searched. The PocketSphinx dictionary (3.2 MB,
/// 134k lines) packs into about 2.2 MB held. `storageBytes` reports the figure.
///
/// Keys are lowercased and apostrophes are ignored on both sides, because
/// `TextNormalizer.fold` removes them ("what's" is looked up as "whats"). When
/// two entries then collide ("well" and "we'll") the one written without an
/// apostrophe wins, else the earlier line. Immutable after `init`, so lookups
/// are safe from any thread.
package final class CMUDictionaryPronouncer: PronouncingDictionary {
    /// Packed entries, see the type's documentation.
    private let entries: [UInt8]
    /// Offset of each kept entry in `entries`, sorted by key bytes.
    private let offsets: [UInt32]
    /// Lines that looked like entries but were dropped: a phone no table knows,
    /// an over-long key, or more phones than fit a byte.
    package let skippedLines: Int

    /// Distinct words held.
    package var wordCount: Int { offsets.count }

    /// Bytes of heap this pronouncer holds (entry buffer plus offset table), by capacity.
    package var storageBytes: Int {
        entries.capacity + offsets.capacity * MemoryLayout<UInt32>.stride
    }

    /// Reads the dictionary at `path`; nil if the file cannot be read. A file
    /// with no usable lines gives an empty pronouncer (every lookup nil).
    package convenience init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var packer = Packer()
        data.withUnsafeBytes { packer.pack($0.bindMemory(to: UInt8.self)) } // no second copy of the file
        self.init(packer: packer)
    }

    /// A dictionary from CMU-format text held in memory (handy for tests and
    /// for small custom word lists).
    package convenience init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// A dictionary from the raw bytes of a CMU-format file (UTF-8 or ASCII).
    package convenience init(bytes: [UInt8]) {
        var packer = Packer()
        bytes.withUnsafeBufferPointer { packer.pack($0) }
        self.init(packer: packer)
    }

    /// Takes over what `packer` read: sorts and de-duplicates the keys.
    fileprivate init(packer: Packer) {
        // Copies drop the spare capacity the packer grew into.
        offsets = packer.sortedUniqueOffsets().withUnsafeBufferPointer { Array($0) }
        entries = packer.entries.withUnsafeBufferPointer { Array($0) }
        skippedLines = packer.skipped
    }

    /// The first pronunciation of `word` (any case, apostrophes ignored), or nil.
    package func phones(for word: String) -> [String]? {
        var key: [UInt8] = []
        key.reserveCapacity(word.utf8.count)
        for byte in word.utf8 where byte != Packer.apostrophe {
            key.append(Packer.lowercased(byte))
        }
        guard !key.isEmpty else { return nil }
        return entries.withUnsafeBufferPointer { buffer -> [String]? in
            var low = 0
            var high = offsets.count
            while low < high {
                let middle = (low + high) / 2
                let order = Packer.compare(key: key, entryAt: Int(offsets[middle]), in: buffer)
                if order == 0 { return Packer.phones(ofEntryAt: Int(offsets[middle]), in: buffer) }
                if order < 0 { high = middle } else { low = middle + 1 }
            }
            return nil
        }
    }

    /// The words with `phoneCounts` phones, in key order. The scan reads one
    /// count byte per entry and decodes only the entries it returns, so the
    /// 134k-word PocketSphinx dictionary is gone through in about a
    /// millisecond plus the returned entries' allocations.
    package func entries(phoneCounts: ClosedRange<Int>) -> [DictionaryEntry] {
        entries.withUnsafeBufferPointer { buffer in
            var found: [DictionaryEntry] = []
            for offset in offsets {
                let start = Int(offset)
                let key = Packer.keyRange(at: start, in: buffer)
                let count = Int(buffer[key.upperBound])
                guard phoneCounts.contains(count) else { continue }
                let phones = (0..<count).map { Sound.phone(Int(buffer[key.upperBound + 1 + $0])) }
                found.append(DictionaryEntry(word: String(decoding: UnsafeBufferPointer(rebasing: buffer[key]), as: UTF8.self),
                                             hadApostrophe: buffer[start] & Packer.apostropheFlag != 0, phones: phones))
            }
            return found
        }
    }
}

/// Builds the packed entry buffer from dictionary text.
private struct Packer {
    static let apostrophe = UInt8(ascii: "'")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    static let openParenthesis = UInt8(ascii: "(")
    static let commentMarks: Set<UInt8> = [UInt8(ascii: ";"), UInt8(ascii: "#")]
    /// The key-length byte keeps 7 bits for the length and this bit for
    /// "the written word had an apostrophe" (such entries lose ties).
    static let apostropheFlag: UInt8 = 0x80
    static let maximumKeyLength = 0x7F
    static let maximumPhones = 0xFF

    /// Phone token (uppercase, digits dropped, packed into an integer) → phone numbers.
    static let phoneTable: [UInt32: [UInt8]] = {
        var table: [UInt32: [UInt8]] = [:]
        for name in ARPAbet.phones + ["AX", "IX", "AXR", "UX", "DX", "NX", "H", "EL", "EM", "EN"] {
            table[tokenKey(Array(name.utf8))] = ARPAbet.expand(name).map(UInt8.init)
        }
        return table
    }()

    var entries: [UInt8] = []
    var starts: [UInt32] = []
    var skipped = 0

    /// The bit that tells ASCII lower from upper case.
    static let asciiCaseBit: UInt8 = 0x20

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | asciiCaseBit : byte
    }

    /// Packs up to four token bytes, uppercased, stress digits dropped; 0 (no
    /// phone) for longer tokens, which could not be told apart once packed.
    static func tokenKey<Bytes: Collection<UInt8>>(_ token: Bytes) -> UInt32 {
        var key: UInt32 = 0
        var length = 0
        for byte in token where !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
            let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte & ~asciiCaseBit : byte
            key = key << 8 | UInt32(upper)
            length += 1
        }
        return length <= MemoryLayout<UInt32>.size ? key : 0
    }

    mutating func pack(_ text: UnsafeBufferPointer<UInt8>) {
        entries.reserveCapacity(text.count + 2)
        var lineStart = 0
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count && text[lineEnd] != Packer.newline { lineEnd += 1 }
            packLine(UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd]))
            lineStart = lineEnd + 1
        }
    }

    /// Appends one entry, or nothing for blank, comment and alternate lines.
    mutating func packLine(_ line: UnsafeBufferPointer<UInt8>) {
        func isGap(_ byte: UInt8) -> Bool {
            byte == Packer.space || byte == Packer.tab || byte == Packer.carriageReturn
        }
        var k = 0
        while k < line.count && !isGap(line[k]) { k += 1 }
        let word = line[0..<k]
        guard let first = word.first, !Packer.commentMarks.contains(first),
              !word.contains(Packer.openParenthesis) else { return }
        let start = entries.count
        var flags: UInt8 = 0
        entries.append(0) // key length, patched below
        for byte in word {
            if byte == Packer.apostrophe { flags = Packer.apostropheFlag } else { entries.append(Packer.lowercased(byte)) }
        }
        let keyLength = entries.count - start - 1
        let countAt = entries.count
        entries.append(0) // phone count, patched below
        var valid = keyLength > 0 && keyLength <= Packer.maximumKeyLength
        while valid && k < line.count {
            while k < line.count && isGap(line[k]) { k += 1 }
            let tokenStart = k
            while k < line.count && !isGap(line[k]) { k += 1 }
            guard k > tokenStart else { break }
            guard let numbers = Packer.phoneTable[Packer.tokenKey(line[tokenStart..<k])] else { valid = false; break }
            entries.append(contentsOf: numbers)
        }
        let phoneCount = entries.count - countAt - 1
        guard valid, phoneCount > 0, phoneCount <= Packer.maximumPhones else {
            entries.removeSubrange(start...)
            skipped += 1
            return
        }
        entries[start] = UInt8(keyLength) | flags
        entries[countAt] = UInt8(phoneCount)
        starts.append(UInt32(start))
    }

    /// Entry offsets sorted by key (unflagged first, then file order), one per key.
    func sortedUniqueOffsets() -> [UInt32] {
        entries.withUnsafeBufferPointer { buffer in
            let ordered = starts.sorted { a, b in
                let order = Packer.compare(entryAt: Int(a), with: Int(b), in: buffer)
                if order != 0 { return order < 0 }
                let flagA = buffer[Int(a)] & Packer.apostropheFlag, flagB = buffer[Int(b)] & Packer.apostropheFlag
                return flagA != flagB ? flagA < flagB : a < b
            }
            var unique: [UInt32] = []
            unique.reserveCapacity(ordered.count)
            for offset in ordered {
                if let last = unique.last, Packer.compare(entryAt: Int(last), with: Int(offset), in: buffer) == 0 { continue }
                unique.append(offset)
            }
            return unique
        }
    }

    static func keyRange(at offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let length = Int(buffer[offset] & ~apostropheFlag)
        return (offset + 1)..<(offset + 1 + length)
    }

    /// Byte order of two entries' keys: negative, zero or positive.
    static func compare(entryAt a: Int, with b: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        let keyA = keyRange(at: a, in: buffer), keyB = keyRange(at: b, in: buffer)
        return compare(UnsafeBufferPointer(rebasing: buffer[keyA]), UnsafeBufferPointer(rebasing: buffer[keyB]))
    }

    /// Byte order of `key` against an entry's key: negative, zero or positive.
    static func compare(key: [UInt8], entryAt offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        key.withUnsafeBufferPointer { compare($0, UnsafeBufferPointer(rebasing: buffer[keyRange(at: offset, in: buffer)])) }
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for k in 0..<min(a.count, b.count) where a[k] != b[k] {
            return Int(a[k]) - Int(b[k])
        }
        return a.count - b.count
    }

    static func phones(ofEntryAt offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> [String] {
        let countAt = keyRange(at: offset, in: buffer).upperBound
        let count = Int(buffer[countAt])
        return (0..<count).map { ARPAbet.phones[Int(buffer[countAt + 1 + $0])] }
    }
}
