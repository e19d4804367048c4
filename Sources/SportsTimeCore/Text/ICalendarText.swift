import Foundation

/// RFC 5545 content lines: TEXT escaping and unescaping, folding at 75 octets, CRLF line ends. Render
/// writes calendars with it; ingest reads iCalendar schedules with it.
public enum ICalendarText {
    /// The longest content line, in octets, not counting the CRLF (RFC 5545 §3.1).
    public static let maxLineOctets = 75

    /// Escapes a TEXT value: `\` → `\\`, `;` → `\;`, `,` → `\,`, newline → `\n` (§3.3.11).
    /// Carriage returns and other control characters are dropped.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            case "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Splits one logical line into physical lines of at most 75 octets; continuation lines start
    /// with one space (which counts toward their 75). Never splits a UTF-8 sequence.
    public static func fold(_ line: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var currentOctets = 0
        for scalar in line.unicodeScalars {
            let octets = String(scalar).utf8.count
            if currentOctets + octets > maxLineOctets {
                lines.append(current)
                current = " "
                currentOctets = 1
            }
            current.unicodeScalars.append(scalar)
            currentOctets += octets
        }
        lines.append(current)
        return lines
    }

    /// Undoes folding: joins every line that starts with a space or tab to the one before (§3.1).
    /// Input must use CRLF line ends; returns nil when a bare LF or CR is found.
    public static func unfold(_ text: String) -> [String]? {
        var physical: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let range = rest.range(of: "\r\n") else { return nil }
            let line = rest[rest.startIndex..<range.lowerBound]
            if line.contains("\n") || line.contains("\r") { return nil }
            physical.append(String(line))
            rest = rest[range.upperBound...]
        }
        var logical: [String] = []
        for line in physical {
            if let first = line.first, first == " " || first == "\t", !logical.isEmpty {
                logical[logical.count - 1] += line.dropFirst()
            } else {
                logical.append(line)
            }
        }
        return logical
    }

    /// Reverses `escape`, the way readers of iCalendar files need it: `\n` and `\N` are line breaks,
    /// a backslash before any other character stands for that character, and a lone backslash at the
    /// end is kept.
    public static func unescape(_ text: String) -> String {
        if let ascii = unescapeASCII(text) { return ascii }
        // No backslash byte, no backslash character (nothing else is equivalent to one): nothing to undo.
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var out = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "n", "N": out.append("\n")
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// `unescape` for ASCII text, byte by byte (in ASCII every character is one byte, except a CR LF
    /// pair, which a backslash before it keeps whole either way); nil for other text. Read from the
    /// text's contiguous UTF-8 and written straight into the new string.
    static func unescapeASCII(_ text: String) -> String? {
        var bytesOf = text
        return bytesOf.withUTF8 { bytes -> String? in
            guard bytes.isAllASCII else { return nil }
            guard let base = bytes.baseAddress, let slash = memchr(base, 0x5C, bytes.count) else { return text }
            let first = UnsafeRawPointer(slash) - UnsafeRawPointer(base)
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                out.baseAddress!.initialize(from: base, count: first)
                var written = first
                var escaped = false
                for byte in UnsafeBufferPointer(rebasing: bytes[first...]) {
                    if escaped {
                        out[written] = byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N") ? 0x0A : byte
                        written += 1
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else {
                        out[written] = byte
                        written += 1
                    }
                }
                if escaped {
                    out[written] = UInt8(ascii: "\\")
                    written += 1
                }
                return written
            }
        }
    }
}
