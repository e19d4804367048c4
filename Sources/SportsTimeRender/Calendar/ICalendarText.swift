import Foundation

/// RFC 5545 content lines: TEXT escaping, folding at 75 octets, CRLF line ends.
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

    /// Reverses `escape` (for reading a value back in tests and tools).
    public static func unescape(_ text: String) -> String {
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n", "N": out.append("\n")
                default: out.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// Builds an iCalendar document line by line.
struct ICalendarWriter {
    private(set) var lines: [String] = []

    mutating func begin(_ component: String) { lines.append("BEGIN:\(component)") }
    mutating func end(_ component: String) { lines.append("END:\(component)") }

    /// A property whose value is already in its final form (dates, numbers, enumerations).
    mutating func raw(_ name: String, _ value: String, parameters: [(String, String)] = []) {
        var line = name
        for (key, parameter) in parameters { line += ";\(key)=\(ICalendarWriter.parameterValue(parameter))" }
        lines.append(line + ":" + value)
    }

    /// A TEXT property, escaped.
    mutating func text(_ name: String, _ value: String) { raw(name, ICalendarText.escape(value)) }

    /// Folded lines, each ending in CRLF.
    var data: Data {
        var out = ""
        for line in lines { for physical in ICalendarText.fold(line) { out += physical + "\r\n" } }
        return Data(out.utf8)
    }

    /// Quotes a parameter value that contains `:`, `;` or `,` (§3.2); drops `"` and control characters.
    static func parameterValue(_ value: String) -> String {
        let cleaned = String(value.unicodeScalars.filter { $0 != "\"" && $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return cleaned.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(cleaned)\"" : cleaned
    }
}
