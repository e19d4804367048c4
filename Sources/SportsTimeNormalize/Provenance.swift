import SportsTimeCore

/// A raw record's `file:line`, split and ordered by file, then line as a number.
struct Provenance: Hashable, Comparable, Sendable {
    var file: String
    var line: Int?

    /// Splits `fixtures/scraped/x/file.csv:12`; text without a numeric `:line` suffix is all file.
    init(_ text: String) {
        var bytes = text
        if let (file, line) = bytes.withUTF8(Self.split) {
            self.file = file ?? text; self.line = line
            return
        }
        let lastColon = text.lastIndex(of: ":")
        if let colon = lastColon, let line = Int(text[text.index(after: colon)...]), line >= 0 {
            file = String(text[..<colon]); self.line = line
        } else {
            file = text; line = nil
        }
    }

    /// The file (nil when it is all the text) and line of ASCII text, read by its bytes: in ASCII every
    /// byte is a character (a CR LF pair holds no colon). The line is read as `Int(_:)` reads it (a sign,
    /// then digits; nil on overflow) and kept when not negative. Nil for other text, split as characters.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (file: String?, line: Int?)? {
        guard bytes.isAllASCII else { return nil }
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")) else { return (nil, nil) }
        var at = colon + 1
        let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
        if at < bytes.count, negative || bytes[at] == UInt8(ascii: "+") { at += 1 }
        guard at < bytes.count else { return (nil, nil) }
        var line = 0
        for byte in bytes[at...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return (nil, nil) }
            let digit = Int(byte - UInt8(ascii: "0"))
            // A negative line is no line: only `-0…0` reads as one (zero).
            if negative, digit != 0 { return (nil, nil) }
            let (tens, overflowTens) = line.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = tens.addingReportingOverflow(digit)
            if overflowTens || overflowSum { return (nil, nil) }
            line = sum
        }
        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self), line)
    }

    var location: SourceLocation { SourceLocation(path: file, line: line) }

    static func < (a: Self, b: Self) -> Bool { (a.file, a.line ?? 0) < (b.file, b.line ?? 0) }
}
