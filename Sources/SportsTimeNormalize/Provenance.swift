import SportsTimeCore

/// A raw record's `file:line`, split and ordered by file, then line as a number.
struct Provenance: Hashable, Comparable, Sendable {
    var file: String
    var line: Int?

    /// Splits `fixtures/scraped/x/file.csv:12`; text without a numeric `:line` suffix is all file.
    init(_ text: String) {
        // In ASCII text every byte is a character (a CR LF pair holds no colon): the last colon found by
        // its byte, without walking the text character by character from its end.
        let lastColon = text.isAllASCII ? text.utf8.lastIndex(of: UInt8(ascii: ":")) : text.lastIndex(of: ":")
        if let colon = lastColon, let line = Int(text[text.index(after: colon)...]), line >= 0 {
            file = String(text[..<colon]); self.line = line
        } else {
            file = text; line = nil
        }
    }

    var location: SourceLocation { SourceLocation(path: file, line: line) }

    static func < (a: Self, b: Self) -> Bool { (a.file, a.line ?? 0) < (b.file, b.line ?? 0) }
}
