import Foundation
import SportsTimeCore

/// A date/time layout such as `M/d/yyyy`, `EEE MMM d yyyy`, `h:mma` or `yyyy-MM-dd'T'HH:mm:ssXXX`,
/// compiled once and applied to many values without `DateFormatter`.
///
/// Letters: `yyyy` year, `yy` year in 2000s, `M`/`MM` month number, `MMM`/`MMMM` month name (English,
/// abbreviated or full), `d`/`dd` day, `E...` weekday name (skipped), `H`/`HH` hour 0-23, `h`/`hh` hour
/// 1-12, `m`/`mm` minute, `s`/`ss` second, `S...` fraction (skipped), `a` am/pm (`a`, `p`, `am`, `PM`,
/// `a.m.`), `X`/`XXX`/`Z` zone offset (`Z`, `+05:00`, `-0500`). Single letters take one or two digits,
/// doubled letters exactly two. Anything in single quotes, and any other character, is literal; a
/// space matches any run of spaces. Named layouts: `iso8601`, `epoch` (seconds), `epochMillis`.
public struct DateLayout: Sendable, Hashable, CustomStringConvertible {
    enum Token: Hashable, Sendable {
        case year4, year2, month(exact: Bool), monthName, day(exact: Bool), weekday
        case hour24(exact: Bool), hour12(exact: Bool), minute(exact: Bool), second(exact: Bool), fraction
        case ampm, offset, literal(Character), space
    }
    enum Named: Hashable, Sendable { case iso8601, epoch, epochMillis }

    let tokens: [Token]
    let named: Named?
    public let description: String

    /// What a value held.
    public struct Parts: Hashable, Sendable {
        public var date: LocalDate?
        public var hour: Int?
        public var minute: Int?
        public var second: Int?
        /// Set when the value carried a zone or offset (then `instant` is set too).
        public var instant: Instant?
    }

    public init(_ text: String) throws {
        description = text
        switch text {
        case "iso8601": named = .iso8601; tokens = []; return
        case "epoch": named = .epoch; tokens = []; return
        case "epochMillis": named = .epochMillis; tokens = []; return
        default: named = nil
        }
        var tokens: [Token] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                var j = i + 1
                if j < chars.count, chars[j] == "'" { tokens.append(.literal("'")); i += 2; continue }
                while j < chars.count, chars[j] != "'" { tokens.append(.literal(chars[j])); j += 1 }
                guard j < chars.count else { throw LayoutError(message: "unterminated quote in layout '\(text)'") }
                i = j + 1
                continue
            }
            guard c.isLetter, c.isASCII else {
                tokens.append(c == " " ? .space : .literal(c)); i += 1; continue
            }
            var n = 1
            while i + n < chars.count, chars[i + n] == c { n += 1 }
            switch (c, n) {
            case ("y", 4): tokens.append(.year4)
            case ("y", 2): tokens.append(.year2)
            case ("M", 1): tokens.append(.month(exact: false))
            case ("M", 2): tokens.append(.month(exact: true))
            case ("M", 3...4): tokens.append(.monthName)
            case ("d", 1): tokens.append(.day(exact: false))
            case ("d", 2): tokens.append(.day(exact: true))
            case ("E", _): tokens.append(.weekday)
            case ("H", 1): tokens.append(.hour24(exact: false))
            case ("H", 2): tokens.append(.hour24(exact: true))
            case ("h", 1): tokens.append(.hour12(exact: false))
            case ("h", 2): tokens.append(.hour12(exact: true))
            case ("m", 1): tokens.append(.minute(exact: false))
            case ("m", 2): tokens.append(.minute(exact: true))
            case ("s", 1): tokens.append(.second(exact: false))
            case ("s", 2): tokens.append(.second(exact: true))
            case ("S", _): tokens.append(.fraction)
            case ("a", 1): tokens.append(.ampm)
            case ("X", _), ("Z", _), ("x", _): tokens.append(.offset)
            default:
                throw LayoutError(message: "'\(String(repeating: c, count: n))' in layout '\(text)' is not a layout letter")
            }
            i += n
        }
        self.tokens = tokens
        let hasHour12 = tokens.contains {
            if case .hour12 = $0 { return true }; return false
        }
        if hasHour12 != tokens.contains(.ampm) {
            throw LayoutError(message: "layout '\(text)' uses h (1-12) without a (am/pm), or a without h")
        }
    }

    struct LayoutError: Error { var message: String }

    /// Whether the layout reads a time of day.
    var hasTime: Bool {
        named != nil
            || tokens.contains {
                switch $0 {
                case .hour12, .hour24: return true;
                default: return false
                }
            }
    }

    /// Reads `text` completely; nil when it does not fit the layout or names an impossible date or time.
    public func parse(_ text: String) -> Parts? {
        if let named { return parseNamed(named, text) }
        // The text's bytes read in place (every native string has them contiguous), not copied.
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private func parse(bytes u: UnsafeBufferPointer<UInt8>) -> Parts? {
        var i = 0
        var year: Int?, month: Int?, day: Int?, hour: Int?, minute: Int?, second: Int?
        var pm: Bool?, offset: Int?
        func digits(min: Int, max: Int) -> Int? {
            var value = 0, n = 0
            while n < max, i < u.count, u[i] >= 48, u[i] <= 57 { value = value * 10 + Int(u[i] - 48); i += 1; n += 1 }
            return n >= min ? value : nil
        }
        func letters() -> [UInt8] {
            let start = i
            while i < u.count, (u[i] >= 65 && u[i] <= 90) || (u[i] >= 97 && u[i] <= 122) { i += 1 }
            return Array(u[start..<i])
        }
        for token in tokens {
            switch token {
            case .year4: guard let v = digits(min: 4, max: 4) else { return nil }; year = v
            case .year2: guard let v = digits(min: 2, max: 2) else { return nil }; year = 2000 + v
            case .month(let exact): guard let v = digits(min: exact ? 2 : 1, max: 2) else { return nil }; month = v
            case .day(let exact): guard let v = digits(min: exact ? 2 : 1, max: 2) else { return nil }; day = v
            case .hour24(let exact), .hour12(let exact):
                guard let v = digits(min: exact ? 2 : 1, max: 2) else { return nil }; hour = v
            case .minute(let exact): guard let v = digits(min: exact ? 2 : 1, max: 2) else { return nil }; minute = v
            case .second(let exact): guard let v = digits(min: exact ? 2 : 1, max: 2) else { return nil }; second = v
            case .fraction: guard digits(min: 1, max: 9) != nil else { return nil }
            case .monthName:
                let word = letters()
                guard word.count >= 3, let m = Self.monthIndex(word) else { return nil }
                month = m
                if i < u.count, u[i] == UInt8(ascii: "."), word.count < 5 { i += 1 }
            case .weekday:
                let word = letters()
                guard word.count >= 2, Self.isWeekday(word) else { return nil }
                if i < u.count, u[i] == UInt8(ascii: ".") { i += 1 }
            case .ampm:
                guard i < u.count else { return nil }
                let c = u[i] | 0x20
                guard c == UInt8(ascii: "a") || c == UInt8(ascii: "p") else { return nil }
                pm = c == UInt8(ascii: "p")
                i += 1
                if i < u.count, u[i] == UInt8(ascii: ".") { i += 1 }
                if i < u.count, u[i] | 0x20 == UInt8(ascii: "m") { i += 1; if i < u.count, u[i] == UInt8(ascii: ".") { i += 1 } }
            case .offset:
                guard i < u.count else { return nil }
                if u[i] == UInt8(ascii: "Z") || u[i] == UInt8(ascii: "z") { offset = 0; i += 1; continue }
                guard u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") else { return nil }
                let negative = u[i] == UInt8(ascii: "-")
                i += 1
                guard let oh = digits(min: 2, max: 2) else { return nil }
                if i < u.count, u[i] == UInt8(ascii: ":") { i += 1 }
                let om = digits(min: 2, max: 2) ?? 0
                offset = (oh * 3600 + om * 60) * (negative ? -1 : 1)
            case .space:
                let start = i
                while i < u.count, u[i] == 0x20 || u[i] == 0x09 { i += 1 }
                if i == start { return nil }
            case .literal(let c):
                let bytes = c.utf8
                guard i + bytes.count <= u.count else { return nil }
                for (k, b) in bytes.enumerated() {
                    let x = u[i + k]
                    guard x == b || (b < 128 && x < 128 && (x | 0x20) == (b | 0x20) && (b | 0x20) >= 97 && (b | 0x20) <= 122) else {
                        return nil
                    }
                }
                i += bytes.count
            }
        }
        guard i == u.count else { return nil }
        if let p = pm, let h = hour {
            guard (1...12).contains(h) else { return nil }
            hour = h % 12 + (p ? 12 : 0)
        }
        var parts = Parts()
        if year != nil || month != nil || day != nil {
            guard let year, let month, let day, let date = LocalDate(year: year, month: month, day: day) else { return nil }
            parts.date = date
        }
        if let h = hour {
            guard h < 24, (minute ?? 0) < 60, (second ?? 0) < 61 else { return nil }
            parts.hour = h; parts.minute = minute ?? 0; parts.second = second ?? 0
        } else if minute != nil {
            return nil
        }
        if let offset {
            guard let date = parts.date else { return nil }
            parts.instant = Instant(utc: date, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
                .adding(seconds: Int64(-offset))
        }
        return parts
    }

    private func parseNamed(_ named: Named, _ text: String) -> Parts? {
        switch named {
        case .epoch, .epochMillis:
            guard let value = Int64(text) ?? Double(text).map({ Int64($0.rounded(.down)) }) else { return nil }
            let instant = Instant(secondsSinceEpoch: named == .epoch ? value : Self.floorDivide(value, 1000))
            return Parts(
                date: instant.utcDate, hour: instant.utcSecondOfDay / 3600, minute: instant.utcSecondOfDay / 60 % 60,
                second: instant.utcSecondOfDay % 60, instant: instant)
        case .iso8601:
            if let instant = Instant(iso8601: text) {
                return Parts(
                    date: instant.utcDate, hour: instant.utcSecondOfDay / 3600,
                    minute: instant.utcSecondOfDay / 60 % 60, second: instant.utcSecondOfDay % 60, instant: instant)
            }
            if let date = LocalDate(iso8601: text) { return Parts(date: date) }
            for layout in Self.naiveISO { if let parts = layout.parse(text) { return parts } }
            return nil
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    // Naive ISO date-times (no zone): read in the field's zone. Built from literals only, so they compile.
    private static let naiveISO: [DateLayout] = [
        "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss",
        "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss.S",
    ].compactMap { try? DateLayout($0) }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december",
    ]
    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    private static func monthIndex(_ word: [UInt8]) -> Int? {
        let lower = String(decoding: word.map { $0 | 0x20 }, as: UTF8.self)
        if let i = monthNames.firstIndex(of: lower) { return i + 1 }
        if lower == "sept" { return 9 }
        if lower.count == 3, let i = months.firstIndex(of: lower) { return i + 1 }
        return nil
    }

    private static func isWeekday(_ word: [UInt8]) -> Bool {
        let lower = String(decoding: word.map { $0 | 0x20 }, as: UTF8.self)
        return weekdays.contains { $0 == lower || $0.hasPrefix(lower) && lower.count >= 2 }
    }
}
