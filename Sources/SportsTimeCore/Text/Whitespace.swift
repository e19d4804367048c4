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
