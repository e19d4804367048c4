import Foundation
import SportsTimeCore
@testable import SportsTimeRender

/// A parsed iCalendar content line.
struct ContentLine: Equatable {
    var name: String
    var parameters: [String: String]
    var value: String
}

/// A component with its properties and sub-components.
final class CalendarComponent {
    let name: String
    var properties: [ContentLine] = []
    var children: [CalendarComponent] = []
    init(name: String) { self.name = name }

    func all(_ name: String) -> [ContentLine] { properties.filter { $0.name == name } }
    func first(_ name: String) -> ContentLine? { properties.first { $0.name == name } }
    func components(_ name: String) -> [CalendarComponent] { children.filter { $0.name == name } }
}

/// Checks a calendar file against the parts of RFC 5545 calendar programs are strict about, and
/// parses it back. `problems` is empty for a valid file.
struct ICalendarValidator {
    private(set) var problems: [String] = []
    private(set) var calendar: CalendarComponent?

    /// Properties whose value type is TEXT (escaping applies).
    static let textProperties: Set<String> = [
        "SUMMARY", "LOCATION", "DESCRIPTION", "NAME", "X-WR-CALNAME", "X-WR-CALDESC", "TZNAME", "COMMENT",
    ]

    init(_ data: Data) {
        // Octet-level checks before any decoding.
        let bytes = [UInt8](data)
        if String(data: data, encoding: .utf8) == nil { problems.append("not valid UTF-8") }
        var lineStart = 0
        var lineNumber = 1
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D {
                if index + 1 >= bytes.count || bytes[index + 1] != 0x0A { problems.append("line \(lineNumber): bare CR") }
                let length = index - lineStart
                if length > ICalendarText.maxLineOctets { problems.append("line \(lineNumber): \(length) octets, more than 75") }
                if length == 0 { problems.append("line \(lineNumber): empty line") }
                index += 2
                lineStart = index
                lineNumber += 1
                continue
            }
            if bytes[index] == 0x0A { problems.append("line \(lineNumber): bare LF"); lineStart = index + 1; lineNumber += 1 }
            // A continuation line must not start in the middle of a UTF-8 sequence.
            if index == lineStart + 1, bytes[lineStart] == 0x20, bytes[index] & 0xC0 == 0x80 {
                problems.append("line \(lineNumber): fold splits a UTF-8 sequence")
            }
            index += 1
        }
        if lineStart != bytes.count { problems.append("file does not end with CRLF") }

        guard let text = String(data: data, encoding: .utf8), let lines = ICalendarText.unfold(text) else {
            problems.append("cannot unfold (line ends are not CRLF)")
            return
        }
        var stack: [CalendarComponent] = []
        for (number, line) in lines.enumerated() {
            guard let parsed = ICalendarValidator.parse(line) else {
                problems.append("logical line \(number + 1): not NAME[;PARAM=VALUE]:VALUE: \(line)")
                continue
            }
            if parsed.name == "BEGIN" {
                let component = CalendarComponent(name: parsed.value)
                stack.last?.children.append(component)
                if stack.isEmpty {
                    if calendar != nil { problems.append("more than one top-level component") }
                    calendar = component
                }
                stack.append(component)
            } else if parsed.name == "END" {
                guard let open = stack.popLast(), open.name == parsed.value else {
                    problems.append("END:\(parsed.value) does not close the open component")
                    continue
                }
            } else if let open = stack.last {
                open.properties.append(parsed)
                if ICalendarValidator.textProperties.contains(parsed.name) { checkEscaping(parsed) }
            } else {
                problems.append("property \(parsed.name) outside any component")
            }
        }
        if !stack.isEmpty { problems.append("unclosed: \(stack.map(\.name).joined(separator: ", "))") }
        guard let calendar else { problems.append("no VCALENDAR"); return }
        checkCalendar(calendar)
    }

    /// `NAME;P=V;Q="a:b":value` → name, parameters, value (the first `:` outside quotes ends the name part).
    static func parse(_ line: String) -> ContentLine? {
        var inQuotes = false
        var split: String.Index? = nil
        for index in line.indices {
            let character = line[index]
            if character == "\"" { inQuotes.toggle() }
            if character == ":" && !inQuotes { split = index; break }
        }
        guard let split else { return nil }
        let head = line[..<split], value = String(line[line.index(after: split)...])
        var parts: [String] = []
        var current = ""
        inQuotes = false
        for character in head {
            if character == "\"" { inQuotes.toggle() }
            if character == ";" && !inQuotes { parts.append(current); current = "" } else { current.append(character) }
        }
        parts.append(current)
        guard let name = parts.first, !name.isEmpty,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        var parameters: [String: String] = [:]
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            var value = String(pair[1])
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            parameters[String(pair[0])] = value
        }
        return ContentLine(name: name.uppercased(), parameters: parameters, value: value)
    }

    /// In TEXT, `;` and `,` must be escaped, and `\` may only start `\\ \; \, \n \N`.
    private mutating func checkEscaping(_ line: ContentLine) {
        var characters = Array(line.value)
        if line.name == "CATEGORIES" { characters = [] }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\" {
                guard index + 1 < characters.count, "\\;,nN".contains(characters[index + 1]) else {
                    problems.append("\(line.name): bad escape in '\(line.value)'")
                    return
                }
                index += 2
                continue
            }
            if character == ";" || character == "," {
                problems.append("\(line.name): unescaped '\(character)' in '\(line.value)'")
                return
            }
            index += 1
        }
    }

    private mutating func checkCalendar(_ calendar: CalendarComponent) {
        if calendar.name != "VCALENDAR" { problems.append("top-level component is \(calendar.name)") }
        for required in ["VERSION", "PRODID"] where calendar.all(required).count != 1 {
            problems.append("VCALENDAR needs exactly one \(required)")
        }
        if calendar.first("VERSION")?.value != "2.0" { problems.append("VERSION is not 2.0") }
        if let scale = calendar.first("CALSCALE"), scale.value != "GREGORIAN" { problems.append("CALSCALE \(scale.value)") }
        if calendar.children.isEmpty { problems.append("VCALENDAR has no component (RFC 5545 needs at least one)") }
        let zones = Set(calendar.components("VTIMEZONE").compactMap { $0.first("TZID")?.value })
        for zone in calendar.components("VTIMEZONE") {
            if zone.first("TZID") == nil { problems.append("VTIMEZONE without TZID") }
            let observances = zone.children.filter { $0.name == "STANDARD" || $0.name == "DAYLIGHT" }
            if observances.isEmpty { problems.append("VTIMEZONE \(zone.first("TZID")?.value ?? "?") has no STANDARD or DAYLIGHT") }
            for observance in observances {
                for required in ["DTSTART", "TZOFFSETFROM", "TZOFFSETTO"] where observance.first(required) == nil {
                    problems.append("\(observance.name) in \(zone.first("TZID")?.value ?? "?") lacks \(required)")
                }
                for offset in ["TZOFFSETFROM", "TZOFFSETTO"] {
                    if let value = observance.first(offset)?.value,
                        value.range(of: #"^[+-]\d{4}(\d{2})?$"#, options: .regularExpression) == nil
                    {
                        problems.append("\(offset) '\(value)' is not ±hhmm")
                    }
                }
            }
        }
        var uids: Set<String> = []
        for event in calendar.components("VEVENT") {
            for required in ["UID", "DTSTAMP", "DTSTART"] where event.all(required).count != 1 {
                problems.append("VEVENT needs exactly one \(required)")
            }
            if let uid = event.first("UID")?.value, !uids.insert(uid).inserted { problems.append("duplicate UID \(uid)") }
            if let stamp = event.first("DTSTAMP")?.value, stamp.range(of: #"^\d{8}T\d{6}Z$"#, options: .regularExpression) == nil {
                problems.append("DTSTAMP '\(stamp)' is not a UTC date-time")
            }
            for name in ["DTSTART", "DTEND"] {
                guard let line = event.first(name) else { continue }
                if let zone = line.parameters["TZID"] {
                    if !zones.contains(zone) { problems.append("\(name) uses TZID \(zone) without a VTIMEZONE") }
                    if line.value.range(of: #"^\d{8}T\d{6}$"#, options: .regularExpression) == nil {
                        problems.append("\(name);TZID value '\(line.value)' is not a local date-time")
                    }
                } else if line.parameters["VALUE"] == "DATE" {
                    if line.value.range(of: #"^\d{8}$"#, options: .regularExpression) == nil {
                        problems.append("\(name) DATE '\(line.value)'")
                    }
                } else if line.value.range(of: #"^\d{8}T\d{6}Z$"#, options: .regularExpression) == nil {
                    problems.append("\(name) '\(line.value)' is neither zoned, UTC nor a date")
                }
            }
            if let start = event.first("DTSTART"), let end = event.first("DTEND") {
                if (start.parameters["VALUE"] == "DATE") != (end.parameters["VALUE"] == "DATE") {
                    problems.append("DTSTART and DTEND types differ")
                }
                if start.parameters["TZID"] == end.parameters["TZID"], end.value <= start.value {
                    problems.append("DTEND not after DTSTART")
                }
            }
            if let geo = event.first("GEO")?.value {
                let parts = geo.split(separator: ";")
                if parts.count != 2 || parts.contains(where: { Double($0) == nil }) { problems.append("GEO '\(geo)' is not lat;lon") }
            }
        }
    }
}
