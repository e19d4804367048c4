import SportsTimeCore

/// A raw record's `file:line`, split and ordered by file, then line as a number.
struct Provenance: Hashable, Comparable, Sendable {
    var file: String
    var line: Int?

    /// Splits `fixtures/scraped/x/file.csv:12`; text without a numeric `:line` suffix (not negative) is all file.
    init(_ text: String) {
        if let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]), line >= 0 {
            file = String(text[..<colon]); self.line = line
        } else {
            file = text; line = nil
        }
    }

    var location: SourceLocation { SourceLocation(path: file, line: line) }

    static func < (a: Self, b: Self) -> Bool { (a.file, a.line ?? 0) < (b.file, b.line ?? 0) }
}
