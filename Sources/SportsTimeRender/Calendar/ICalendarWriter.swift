import Foundation
import SportsTimeCore

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
