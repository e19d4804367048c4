import Foundation

/// Escaping for the text formats render writes.
enum Escape {
    /// Text for HTML element content and attribute values: `& < > " '` as entities. Byte by byte: the
    /// five are ASCII, and a UTF-8 byte below 0x80 is never part of another character, so every one is
    /// escaped, also where a combining mark follows it.
    static func html(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Text that must show literally in GitHub Markdown, including inside table cells
    /// (`|` is escaped, newlines — `\n`, `\r` or `\r\n` — become one space each).
    static func markdown(_ text: String) -> String {
        // Nearly all text is ASCII: read as bytes, where a character is a byte (but `\r\n`).
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return markdownCharacters(text) }
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "_"):
                // GitHub ignores `_` inside words (`America/New_York`); escape it only at a word edge.
                let before = index > 0 && isWordByte(bytes[index - 1])
                let after = index + 1 < bytes.count && isWordByte(bytes[index + 1])
                if !(before && after) { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "<"),
                UInt8(ascii: ">"), UInt8(ascii: "|"), UInt8(ascii: "#"), UInt8(ascii: "~"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case UInt8(ascii: "\r"):
                out.append(UInt8(ascii: " "))
                if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\n"): out.append(UInt8(ascii: " "))
            default: out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `markdown` by characters, for text that is not all ASCII (a letter next to `_` may be any script's).
    static func markdownCharacters(_ text: String) -> String {
        var out = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            switch character {
            case "_":
                let before = index > 0 && (characters[index - 1].isLetter || characters[index - 1].isNumber)
                let after = index + 1 < characters.count && (characters[index + 1].isLetter || characters[index + 1].isNumber)
                if !(before && after) { out.append("\\") }
                out.append(character)
            case "\\", "`", "*", "[", "]", "<", ">", "|", "#", "~":
                out.append("\\"); out.append(character)
            case "\n", "\r", "\r\n": out.append(" ")
            default: out.append(character)
            }
        }
        return out
    }

    /// An inline code span that cannot be broken by backticks in the text.
    static func markdownCode(_ text: String) -> String {
        let flattened = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
        return flattened.contains("`") ? "`` \(flattened) ``" : "`\(flattened)`"
    }
}
