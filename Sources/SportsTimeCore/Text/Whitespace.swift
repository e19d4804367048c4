import Foundation

extension StringProtocol {
    /// Whether the text is empty or only white space — what `trimmingCharacters(in: .whitespaces).isEmpty`
    /// says (spaces of every kind and tabs; line breaks are not white space here), without bridging to
    /// `NSString`: text that starts with an ASCII letter or digit, as nearly every name does, is decided by
    /// its first byte.
    public var isWhitespaceOnly: Bool {
        for byte in utf8 {
            if byte == 0x20 || byte == 0x09 { continue }
            if byte < 0x80 { return false }
            return unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) }
        }
        return true
    }
}

extension String {
    /// Whether trimming white space and line breaks from the text would leave it as it is, told from its
    /// ends when they are ASCII (a printable byte or a control byte that is not a tab or line break);
    /// false when an end is white space or not ASCII (then trimming decides).
    public var hasPlainASCIIEnds: Bool {
        guard let first = utf8.first, let last = utf8.last else { return true }
        func isPlain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte) }
        return isPlain(first) && isPlain(last)
    }
}

extension StringProtocol {
    /// Whether every byte of the text is ASCII (then each character is one byte, and byte-wise work is
    /// character-wise work). Read from the contiguous UTF-8 every native string has, eight bytes at a
    /// time: walking `utf8` through its index costs several instructions a byte, and ingest asks this of
    /// every iCalendar property and most cells.
    public var isAllASCII: Bool {
        if let answer = utf8.withContiguousStorageIfAvailable(\.isAllASCII) { return answer }
        return utf8.allSatisfy { $0 < 0x80 }
    }
}

// The same for the two concrete types, which callers in other modules reach directly: through the
// generic property above they ran its unspecialized body, a protocol witness for each step (about 300
// instructions a call for a 30-byte id).
extension String {
    public var isAllASCII: Bool {
        if let answer = utf8.withContiguousStorageIfAvailable(\.isAllASCII) { return answer }
        return utf8.allSatisfy { $0 < 0x80 }
    }
}

extension Substring {
    public var isAllASCII: Bool {
        if let answer = utf8.withContiguousStorageIfAvailable(\.isAllASCII) { return answer }
        return utf8.allSatisfy { $0 < 0x80 }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is ASCII, read eight bytes at a time.
    public var isAllASCII: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var at = 0
        var high: UInt64 = 0
        while at + 8 <= count {
            high |= raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            at += 8
        }
        while at < count {
            high |= UInt64(self[at])
            at += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
