import Foundation
import SportsTimeCore

/// iCalendar files (RFC 5545) as tables: one row per VEVENT, at the line of its `BEGIN:VEVENT`.
///
/// Folded lines are unfolded, text values unescaped (`\,` `\;` `\n` `\\`). Columns:
/// `uid`, `summary`, `home`, `away` (from SUMMARY: `Home vs. Away`, `Away @ Home`, `Away at Home`; a
/// trailing `*` result marker is dropped), `location`, `venue` and `city` (LOCATION split at its first
/// comma), `description`, `competition` (the description's first line), `start` (ISO instant, for
/// DTSTART in UTC or with a TZID), `date` and `time` (for floating or date-only DTSTART), `status`
/// (`cancelled` for STATUS:CANCELLED, `postponed` when the summary says so, `final` when the
/// description holds a result such as `Atlanta United 3 - CF Montreal 2`, else `scheduled`),
/// `sequence`, `categories`.
enum ICalendarTable {
    static let columns = [
        "uid", "summary", "home", "away", "location", "venue", "city", "description", "competition",
        "start", "date", "time", "status", "sequence", "categories",
    ]

    static func read(_ data: Data, path: String) -> Table {
        let (text, invalid) = CSVReader.decodeText(data)
        var table = Table(path: path, columns: columns)
        if invalid { table.warnings.append(invalidUTF8Warning(path)) }
        let logical = unfold(text)
        var event: [(name: String, params: [String: String], value: String)]?
        var eventLine = 0
        // The event's lines as read, joined by newlines (its raw text for a reject), gathered as bytes
        // and made a string once per event.
        var raw: [UInt8] = []
        var nested = 0
        for (line, content) in logical {
            // Only BEGIN:/END: lines matter for structure; upper-case just those.
            let lead = content.utf8.first.map { $0 | 0x20 }
            let upper = lead == UInt8(ascii: "b") || lead == UInt8(ascii: "e") ? content.uppercased() : ""
            if event == nil {
                if upper == "BEGIN:VEVENT" {
                    event = []; eventLine = line; nested = 0
                    raw.removeAll(keepingCapacity: true)
                    raw.append(contentsOf: content.utf8)
                }
                continue
            }
            raw.append(0x0A)
            raw.append(contentsOf: content.utf8)
            if upper.hasPrefix("BEGIN:") { nested += 1; continue }
            if upper.hasPrefix("END:") {
                if nested > 0 { nested -= 1; continue }
                if upper == "END:VEVENT", let props = event {
                    switch row(from: props, line: eventLine, raw: String(decoding: raw, as: UTF8.self), path: path) {
                    case .success(let row): table.rows.append(row)
                    case .failure(let reject): table.rowRejects.append(reject)
                    }
                }
                event = nil
                continue
            }
            if nested > 0 { continue }
            if let property = parseProperty(content) { event?.append(property) }
        }
        if event != nil {
            table.rowRejects.append(
                Reject(
                    file: path, line: eventLine, reason: "VEVENT without END:VEVENT (the file is cut short)",
                    raw: String(decoding: raw, as: UTF8.self)))
        }
        return table
    }

    /// Logical lines with the physical line each starts on.
    ///
    /// Read from the text's bytes in place: a logical line that is one physical line (nearly all) becomes
    /// its string straight from its bytes; only a folded one is gathered into a buffer first.
    static func unfold(_ text: String) -> [(Int, String)] {
        var text = text
        return text.withUTF8 { bytes in
            var result: [(Int, String)] = []
            var line = 1
            // The logical line being read: one physical line in place (`single`), or gathered in `folded`.
            var single: Range<Int>?
            var folded: [UInt8] = []
            var isFolded = false
            var currentLine = 1
            func flush() {
                if isFolded {
                    result.append((currentLine, String(decoding: folded, as: UTF8.self)))
                } else if let single {
                    result.append((currentLine, String(decoding: UnsafeBufferPointer(rebasing: bytes[single]), as: UTF8.self)))
                }
                single = nil
                isFolded = false
            }
            func endPhysical(_ range: Range<Int>) {
                let continues = !range.isEmpty && (bytes[range.lowerBound] == 0x20 || bytes[range.lowerBound] == 0x09)
                if continues, isFolded || single != nil {
                    if !isFolded {
                        folded.removeAll(keepingCapacity: true)
                        folded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[single!]))
                        isFolded = true
                    }
                    folded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<range.upperBound]))
                } else {
                    flush()
                    currentLine = line
                    if !range.isEmpty { single = range }
                }
            }
            var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var start = i
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x0D || b == 0x0A {
                    endPhysical(start..<i)
                    if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                    line += 1
                    start = i + 1
                }
                i += 1
            }
            endPhysical(start..<bytes.count)
            flush()
            return result
        }
    }

    /// `NAME;PARAM=V;P2="a:b":value` → (NAME, params, value). Colons inside quoted parameters do not end the name.
    static func parseProperty(_ content: String) -> (name: String, params: [String: String], value: String)? {
        // In ASCII text (a logical line has no CR or LF) every byte is a character: scanned as bytes, and
        // names upper-cased byte by byte (what `uppercased()` does to ASCII).
        guard content.isAllASCII else { return parsePropertyByCharacter(content) }
        var content = content
        return content.withUTF8 { bytes -> (name: String, params: [String: String], value: String)? in
            var inQuotes = false
            var colon: Int?
            for i in 0..<bytes.count {
                if bytes[i] == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if bytes[i] == UInt8(ascii: ":"), !inQuotes {
                    colon = i
                    break
                }
            }
            guard let colon else { return nil }
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            func upper(_ range: Range<Int>) -> String {
                String(unsafeUninitializedCapacity: range.count) { out in
                    for (at, i) in range.enumerated() {
                        let byte = bytes[i]
                        out[at] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
                    }
                    return range.count
                }
            }
            var parts: [Range<Int>] = []
            var start = 0
            inQuotes = false
            for i in 0..<colon {
                if bytes[i] == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if bytes[i] == UInt8(ascii: ";"), !inQuotes {
                    parts.append(start..<i)
                    start = i + 1
                }
            }
            parts.append(start..<colon)
            var params: [String: String] = [:]
            for part in parts.dropFirst() {
                guard let eq = part.first(where: { bytes[$0] == UInt8(ascii: "=") }) else { continue }
                var value = (eq + 1)..<part.upperBound
                if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""), bytes[value.upperBound - 1] == UInt8(ascii: "\"") {
                    value = (value.lowerBound + 1)..<(value.upperBound - 1)
                }
                params[upper(part.lowerBound..<eq)] = text(value)
            }
            return (upper(parts[0]), params, text((colon + 1)..<bytes.count))
        }
    }

    /// `parseProperty` character by character: any text (what the byte scan gives for ASCII).
    static func parsePropertyByCharacter(_ content: String) -> (name: String, params: [String: String], value: String)? {
        var inQuotes = false
        var colon: String.Index?
        for index in content.indices {
            let c = content[index]
            if c == "\"" { inQuotes.toggle() } else if c == ":", !inQuotes { colon = index; break }
        }
        guard let colon else { return nil }
        let head = content[..<colon]
        let value = String(content[content.index(after: colon)...])
        var parts: [Substring] = []
        var start = head.startIndex
        inQuotes = false
        for index in head.indices {
            if head[index] == "\"" {
                inQuotes.toggle()
            } else if head[index] == ";", !inQuotes {
                parts.append(head[start..<index]); start = head.index(after: index)
            }
        }
        parts.append(head[start...])
        let name = parts[0].uppercased()
        var params: [String: String] = [:]
        for p in parts.dropFirst() {
            guard let eq = p.firstIndex(of: "=") else { continue }
            var v = String(p[p.index(after: eq)...])
            if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
            params[p[..<eq].uppercased()] = v
        }
        return (name, params, value)
    }

    enum RowResult {
        case success(TableRow)
        case failure(Reject)
    }

    private static func row(
        from props: [(name: String, params: [String: String], value: String)], line: Int,
        raw: String, path: String
    ) -> RowResult {
        func first(_ name: String) -> (params: [String: String], value: String)? {
            props.first { $0.name == name }.map { ($0.params, $0.value) }
        }
        let summary = ICalendarText.unescape(first("SUMMARY")?.value ?? "").trimmed
        let (home, away) = teams(in: summary)
        let location = ICalendarText.unescape(first("LOCATION")?.value ?? "").trimmed
        var venue = location, city = ""
        // The first character that is a comma, found by its byte (a comma with a mark over it is not one).
        if let comma = firstRange(of: ",", in: location) {
            venue = location[..<comma.lowerBound].trimmed
            city = location[comma.upperBound...].trimmed
        }
        let description = ICalendarText.unescape(first("DESCRIPTION")?.value ?? "")
        let descriptionLines = lines(of: description).map { $0.trimmed }
        let competition = descriptionLines.first ?? ""
        var start = "", date = "", time = ""
        if let dtstart = first("DTSTART") {
            let value = dtstart.value.trimmed
            // The digits' values (`20250222T193000Z`: 2, 0, 2, 5, …); in ASCII text each digit byte is a
            // digit character.
            let digits: [UInt8] =
                value.isAllASCII
                ? value.utf8.compactMap { $0 >= 0x30 && $0 <= 0x39 ? $0 - 0x30 : nil }
                : value.filter(\.isASCIIDigit).utf8.map { $0 - 0x30 }
            func pair(_ at: Int) -> Int { Int(digits[at]) * 10 + Int(digits[at + 1]) }
            guard digits.count >= 8,
                let day = LocalDate(year: pair(0) * 100 + pair(2), month: pair(4), day: pair(6))
            else {
                return .failure(Reject(file: path, line: line, reason: "DTSTART '\(value)' is not a date", raw: raw))
            }
            if digits.count < 12 || dtstart.params["VALUE"]?.uppercased() == "DATE" {
                date = day.iso8601
            } else {
                let h = pair(8), m = pair(10)
                let s = digits.count >= 14 ? pair(12) : 0
                guard h < 24, m < 60, s < 61 else {
                    return .failure(Reject(file: path, line: line, reason: "DTSTART '\(value)' has an impossible time", raw: raw))
                }
                if value.hasSuffix("Z") || value.hasSuffix("z") {
                    start = Instant(utc: day, hour: h, minute: m, second: s).iso8601
                } else if let tzid = dtstart.params["TZID"] {
                    let name = tzid.hasPrefix("/") ? String(tzid.dropFirst()) : tzid
                    guard let zone = ZonedTime.zone(name) else {
                        return .failure(
                            Reject(
                                file: path, line: line,
                                reason: "DTSTART names the time zone '\(tzid)', which is not an IANA zone", raw: raw))
                    }
                    start = ZonedTime.instant(date: day, hour: h, minute: m, second: s, in: zone).iso8601
                } else {
                    date = day.iso8601
                    time = "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
                }
            }
        }
        let statusProperty = (first("STATUS")?.value ?? "").uppercased()
        let status: String
        if statusProperty == "CANCELLED" {
            status = GameStatus.cancelled.rawValue
        } else if firstRange(of: "postponed", in: summary.lowercased()) != nil {
            status = GameStatus.postponed.rawValue
        } else if descriptionLines.dropFirst().contains(where: isResult) || descriptionLines.count == 1 && isResult(competition) {
            status = GameStatus.final.rawValue
        } else {
            status = GameStatus.scheduled.rawValue
        }
        let cells = [
            first("UID")?.value.trimmed ?? "", summary, home, away, location, venue, city,
            description, competition, start, date, time, status, first("SEQUENCE")?.value ?? "",
            ICalendarText.unescape(first("CATEGORIES")?.value ?? ""),
        ]
        return .success(TableRow(line: line, cells: cells, raw: raw))
    }

    /// The non-empty lines of `text`, split at every newline character (`\n`, `\r\n`, `\r`, vertical tab,
    /// form feed, and in other text NEL and the Unicode line and paragraph separators); ASCII text is
    /// split byte by byte.
    static func lines(of text: String) -> [Substring] {
        guard text.isAllASCII else { return text.split(whereSeparator: \.isNewline) }
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte >= 0x0A && byte <= 0x0D {
                if start < index { lines.append(text[start..<index]) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start < utf8.endIndex { lines.append(text[start...]) }
        return lines
    }

    /// Home and away from a summary: `Home vs. Away` (also `vs`, `v.`, `v`), `Away @ Home`, `Away at Home`.
    static func teams(in summary: String) -> (home: String, away: String) {
        func clean(_ s: Substring) -> String {
            var t = s.trimmed
            while t.hasSuffix("*") { t.removeLast(); t = t.trimmed }
            return t
        }
        // Separators are ASCII, so a lower-cased copy has the same UTF-8 offsets for them (ASCII text is
        // lower-cased byte by byte, as `lowercased()` does it).
        let bytes = Array(summary.utf8)
        let ascii = summary.isAllASCII
        let lower = ascii ? bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } : Array(summary.lowercased().utf8)
        func find(_ separator: String) -> (Int, Int)? {
            if lower.count != bytes.count {
                // Rare: lower-casing changed the length (e.g. "İ"); search case-insensitively instead.
                guard let r = summary.range(of: separator, options: .caseInsensitive) else { return nil }
                return (
                    summary.utf8.distance(from: summary.startIndex, to: r.lowerBound),
                    summary.utf8.distance(from: summary.startIndex, to: r.upperBound)
                )
            }
            let sep = Array(separator.utf8)
            guard lower.count >= sep.count else { return nil }
            for i in 0...(lower.count - sep.count) where lower[i] == sep[0] && lower[i..<(i + sep.count)].elementsEqual(sep) {
                return (i, i + sep.count)
            }
            return nil
        }
        /// The name in `range`, cleaned: ASCII trimmed of white space and trailing `*` byte by byte (what
        /// `clean` does to it), other text by `clean`.
        func name(_ range: Range<Int>) -> String {
            guard ascii else { return clean(Substring(String(decoding: bytes[range], as: UTF8.self))) }
            func isWhite(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
            var (low, high) = (range.lowerBound, range.upperBound)
            while low < high, isWhite(bytes[low]) { low += 1 }
            while high > low, isWhite(bytes[high - 1]) || bytes[high - 1] == UInt8(ascii: "*") { high -= 1 }
            return String(decoding: bytes[low..<high], as: UTF8.self)
        }
        for separator in [" vs. ", " vs ", " v. ", " v "] {
            if let (a, b) = find(separator) { return (name(0..<a), name(b..<bytes.count)) }
        }
        for separator in [" @ ", " at "] {
            if let (a, b) = find(separator) { return (name(b..<bytes.count), name(0..<a)) }
        }
        return ("", "")
    }

    /// The first occurrence of ASCII `needle` in `text` that starts and ends on character boundaries
    /// (what a character-wise search finds), by comparing UTF-8 bytes.
    static func firstRange(of needle: String, in text: String) -> Range<String.Index>? {
        // In ASCII text every byte starts a character except the LF of a CR LF pair, so a needle that does
        // not start with LF or end with CR is found on character boundaries wherever its bytes are.
        if needle.utf8.first != 0x0A, needle.utf8.last != 0x0D,
            let found = text.utf8.withContiguousStorageIfAvailable({ asciiSearch(needle, in: $0) })
        {
            switch found {
            case .missing: return nil
            case .at(let offset):
                let start = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
                return start..<text.utf8.index(start, offsetBy: needle.utf8.count)
            case .notASCII: break
            }
        }
        let pattern = Array(needle.utf8)
        let utf8 = text.utf8
        guard let head = pattern.first, utf8.count >= pattern.count else { return nil }
        var start = utf8.startIndex
        while let found = utf8[start...].firstIndex(of: head) {
            guard let end = utf8.index(found, offsetBy: pattern.count, limitedBy: utf8.endIndex) else { return nil }
            if utf8[found..<end].elementsEqual(pattern), found.samePosition(in: text) != nil,
                end == text.endIndex || end.samePosition(in: text) != nil
            {
                return found..<end
            }
            start = utf8.index(after: found)
        }
        return nil
    }

    private enum ASCIISearch {
        case notASCII, missing
        case at(Int)
    }

    /// The byte offset of `needle` in `bytes` when they are ASCII.
    private static func asciiSearch(_ needle: String, in bytes: UnsafeBufferPointer<UInt8>) -> ASCIISearch {
        guard bytes.isAllASCII else { return .notASCII }
        var needle = needle
        return needle.withUTF8 { pattern in
            guard let head = pattern.first, bytes.count >= pattern.count else { return .missing }
            var start = 0
            while start <= bytes.count - pattern.count {
                if bytes[start] == head, memcmp(bytes.baseAddress! + start, pattern.baseAddress!, pattern.count) == 0 {
                    return .at(start)
                }
                start += 1
            }
            return .missing
        }
    }

    /// `Atlanta United 3 - CF Montreal 2`: a name and a score on each side of ` - ` (a parenthesis after
    /// a score, such as `(penalties: 4)`, is allowed).
    static func isResult(_ line: String) -> Bool {
        // ASCII text (nearly every description) byte by byte: every byte is a character there, and white
        // space, digits and letters are the bytes `trimmed`, `isASCIIDigit` and `isLetter` take them for.
        if let answer = line.utf8.withContiguousStorageIfAvailable({ $0.isAllASCII ? isResultASCII($0) : nil }), let answer {
            return answer
        }
        return isResultByCharacter(line)
    }

    /// `isResult` character by character: any text (what the byte scan gives for ASCII).
    static func isResultByCharacter(_ line: String) -> Bool {
        guard let dash = firstRange(of: " - ", in: line) else { return false }
        func endsWithScore(_ s: Substring) -> Bool {
            var t = s.trimmed
            // `San Jose Earthquakes 2 (penalties: 2)`: the score comes before a parenthesis.
            while t.hasSuffix(")"), let open = t.lastIndex(of: "(") { t = t[..<open].trimmed }
            guard let space = t.lastIndex(of: " ") else { return false }
            let score = t[t.index(after: space)...]
            return !score.isEmpty && score.allSatisfy(\.isASCIIDigit) && t[..<space].contains(where: \.isLetter)
        }
        return endsWithScore(line[..<dash.lowerBound]) && endsWithScore(line[dash.upperBound...])
    }

    /// `isResult` of ASCII bytes.
    private static func isResultASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard case .at(let dash) = asciiSearch(" - ", in: bytes) else { return false }
        func isWhite(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func endsWithScore(_ range: Range<Int>) -> Bool {
            var (low, high) = (range.lowerBound, range.upperBound)
            func trim() {
                while low < high, isWhite(bytes[low]) { low += 1 }
                while high > low, isWhite(bytes[high - 1]) { high -= 1 }
            }
            trim()
            // `San Jose Earthquakes 2 (penalties: 2)`: the score comes before a parenthesis.
            while high > low, bytes[high - 1] == UInt8(ascii: ")"),
                let open = (low..<high).last(where: { bytes[$0] == UInt8(ascii: "(") })
            {
                high = open
                trim()
            }
            guard let space = (low..<high).last(where: { bytes[$0] == UInt8(ascii: " ") }) else { return false }
            let score = (space + 1)..<high
            return !score.isEmpty && score.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
                && (low..<space).contains { bytes[$0] | 0x20 >= 0x61 && bytes[$0] | 0x20 <= 0x7A }
        }
        return endsWithScore(0..<dash) && endsWithScore((dash + 3)..<bytes.count)
    }
}
