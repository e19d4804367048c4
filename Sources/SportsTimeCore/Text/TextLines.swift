/// The lines of a text, split where a file's lines end: at each `\n` byte, with a `\r` before it
/// dropped (CRLF files, as Windows tools save them).
///
/// Splitting a `String` at the character `"\n"` does neither: Swift takes `\r\n` for one character, so
/// a CRLF file comes back as one line (every line number 1, no line found by its prefix), and the split
/// walks the text grapheme by grapheme. This one walks UTF-8 bytes (a `\n` byte is never part of
/// another character) and hands back slices of the text, so line `n` of a file is element `n - 1`.
public enum TextLines {
    /// Every line of `text` without its end; a text ending in a line end gives an empty last element,
    /// and an empty text one empty line (as `split(separator:omittingEmptySubsequences: false)` does).
    public static func split(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        while let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
            lines.append(text[start..<end])
            start = utf8.index(after: newline)
        }
        lines.append(text[start...])
        return lines
    }
}
