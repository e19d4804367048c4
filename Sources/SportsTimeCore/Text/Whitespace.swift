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
