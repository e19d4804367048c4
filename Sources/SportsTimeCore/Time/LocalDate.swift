import Foundation

/// A calendar date without a zone, written `YYYY-MM-DD`. Comparable; cheap to parse and format.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    // Stored in 6 bytes (a game holds two dates, and the merge holds every game of every batch):
    // three `Int`s were 24.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    /// Returns nil for impossible dates (Feb 30, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        storedYear = Int32(year); storedMonth = UInt8(month); storedDay = UInt8(day)
    }

    /// The date `days` after 1970-01-01 (negative before).
    public init(daysSinceEpoch days: Int64) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        // Years beyond ±2 billion (an instant no schedule holds) are clamped rather than trapping.
        storedYear = Int32(clamping: yoe + era * 400 + (m <= 2 ? 1 : 0))
        storedMonth = UInt8(truncatingIfNeeded: m)
        storedDay = UInt8(truncatingIfNeeded: d)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public func adding(days: Int) -> LocalDate {
        // Within the month (the planner steps a day at a time): the day alone changes, with no trip
        // through the day count.
        if days > -31, days < 31 {
            let target = Int(storedDay) + days
            if target >= 1, target <= 28 || target <= LocalDate.daysIn(month: month, year: year) {
                return LocalDate(storedYear: storedYear, storedMonth: storedMonth, storedDay: UInt8(target))
            }
        }
        return LocalDate(daysSinceEpoch: daysSinceEpoch + Int64(days))
    }

    private init(storedYear: Int32, storedMonth: UInt8, storedDay: UInt8) {
        self.storedYear = storedYear; self.storedMonth = storedMonth; self.storedDay = storedDay
    }

    /// `adding(days:)` always through the day count: the definition the fast path is held to.
    func addingThroughDayCount(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + Int64(days)) }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: LocalDate) -> Int { Int(other.daysSinceEpoch - daysSinceEpoch) }

    /// ISO weekday: 1 = Monday ... 7 = Sunday.
    public var isoWeekday: Int { Int(((daysSinceEpoch % 7) + 7 + 3) % 7) + 1 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var iso8601: String {
        if (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) {
            // The common case written digit by digit: `YYYY-MM-DD`, ten ASCII bytes.
            return String(unsafeUninitializedCapacity: 10) { buffer in
                func digit(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + value) }
                buffer[0] = digit(year / 1000); buffer[1] = digit(year / 100 % 10)
                buffer[2] = digit(year / 10 % 10); buffer[3] = digit(year % 10)
                buffer[4] = UInt8(ascii: "-"); buffer[5] = digit(month / 10); buffer[6] = digit(month % 10)
                buffer[7] = UInt8(ascii: "-"); buffer[8] = digit(day / 10); buffer[9] = digit(day % 10)
                return 10
            }
        }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + pad2(month) + "-" + pad2(day)
    }

    public var description: String { iso8601 }

    /// The date of exactly `YYYY-MM-DD` or `YYYYMMDD` (Retrosheet, iCalendar); `.some(nil)` when those
    /// digits are no date, nil when the bytes are not in either layout (the general parser decides).
    static func canonical(_ bytes: UnsafeBufferPointer<UInt8>) -> LocalDate?? {
        let (monthAt, dayAt) = bytes.count == 8 ? (4, 6) : (5, 8)
        guard bytes.count == 8 || (bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")),
            let century = twoDigits(bytes, 0), let year = twoDigits(bytes, 2),
            let month = twoDigits(bytes, monthAt), let day = twoDigits(bytes, dayAt)
        else { return nil }
        return .some(LocalDate(year: century * 100 + year, month: month, day: day))
    }

    /// Parses `YYYY-MM-DD` (or `YYYYMMDD`).
    public init?(iso8601 text: some StringProtocol) {
        // The canonical forms (`2026-06-12`, `20260612`) without the general parser.
        if let fast = text.utf8.withContiguousStorageIfAvailable({ LocalDate.canonical($0) }), let fast {
            guard let fast else { return nil }
            self = fast
            return
        }
        var p = FixedParser(Substring(text))
        guard let value = p.parseDate(), p.isAtEnd else { return nil }
        self = value
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.storedYear, lhs.storedMonth, lhs.storedDay) < (rhs.storedYear, rhs.storedMonth, rhs.storedDay)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = LocalDate(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a date like 2026-06-12")
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
