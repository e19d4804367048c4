import Foundation

/// A moment in time with whole-second precision, written as ISO-8601 UTC (`2026-06-12T23:05:00Z`).
///
/// Schedules never carry sub-second times, so whole seconds keep the canonical form exact and cheap
/// to parse: no `DateFormatter` on a hot path.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) { self.secondsSinceEpoch = secondsSinceEpoch }

    public init(_ date: Date) { self.secondsSinceEpoch = Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// The instant at `date` `hour:minute:second` UTC.
    public init(utc date: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.secondsSinceEpoch = date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }

    /// The UTC calendar date of this instant.
    public var utcDate: LocalDate {
        LocalDate(daysSinceEpoch: floorDiv(secondsSinceEpoch, 86_400))
    }

    /// Seconds into the UTC day (0..<86400).
    public var utcSecondOfDay: Int { Int(secondsSinceEpoch - floorDiv(secondsSinceEpoch, 86_400) * 86_400) }

    public func adding(seconds: Int64) -> Instant { Instant(secondsSinceEpoch: secondsSinceEpoch + seconds) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    public var description: String { iso8601 }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    public var iso8601: String {
        let s = utcSecondOfDay
        let date = utcDate
        if (0...9999).contains(date.year) {
            // The common case written digit by digit (the date as `LocalDate.iso8601` writes it).
            var day = date.iso8601
            return day.withUTF8 { dayBytes in
                String(unsafeUninitializedCapacity: 20) { buffer in
                    func digit(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + value) }
                    for i in 0..<10 { buffer[i] = dayBytes[i] }
                    let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60)
                    buffer[10] = UInt8(ascii: "T"); buffer[11] = digit(h / 10); buffer[12] = digit(h % 10)
                    buffer[13] = UInt8(ascii: ":"); buffer[14] = digit(m / 10); buffer[15] = digit(m % 10)
                    buffer[16] = UInt8(ascii: ":"); buffer[17] = digit(sec / 10); buffer[18] = digit(sec % 10)
                    buffer[19] = UInt8(ascii: "Z")
                    return 20
                }
            }
        }
        return "\(utcDate.iso8601)T\(pad2(s / 3600)):\(pad2(s / 60 % 60)):\(pad2(s % 60))Z"
    }

    /// Parses ISO-8601 instants: `2025-10-04T02:00:00Z`, `2025-10-04T02:00Z`, `2025-10-03T21:00:00-05:00`,
    /// `2025-10-04T02:00:00.000Z`, `20251004T020000Z`. Returns nil for anything else.
    public init?(iso8601 text: some StringProtocol) {
        // The canonical form (`2026-06-12T23:05:00Z`, every artifact's) without the general parser.
        if let fast = text.utf8.withContiguousStorageIfAvailable({ Instant.canonical($0) }), let fast {
            guard let fast else { return nil }
            self = fast
            return
        }
        self.init(general: text)
    }

    /// The instant of exactly `YYYY-MM-DDTHH:MM:SSZ`; `.some(nil)` when those bytes are no valid instant,
    /// nil when they are not in that layout (the general parser decides).
    static func canonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Instant?? {
        guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
            let date = LocalDate.canonical(UnsafeBufferPointer(rebasing: bytes[0..<10]))
        else { return nil }
        guard let hour = twoDigits(bytes, 11), let minute = twoDigits(bytes, 14), let second = twoDigits(bytes, 17) else {
            return nil
        }
        guard let date else { return .some(nil) }
        guard hour < 24, minute < 60, second < 61 else { return .some(nil) }
        return .some(Instant(utc: date, hour: hour, minute: minute, second: second))
    }

    private init?(general text: some StringProtocol) {
        var p = FixedParser(Substring(text))
        guard let date = p.parseDate(), p.consume("T") || p.consume(" ") else { return nil }
        guard let hour = p.int(2) else { return nil }
        let colon = p.consume(":")
        guard let minute = p.int(2) else { return nil }
        var second = 0
        if p.isAtEnd == false, !(p.peek == "Z" || p.peek == "+" || p.peek == "-") {
            if colon { guard p.consume(":") else { return nil } }
            guard let s = p.int(2) else { return nil }
            second = s
            if p.consume(".") || p.consume(",") { _ = p.digits() }
        }
        var offset = 0
        if p.consume("Z") || p.consume("z") {
        } else if let sign = p.peek, sign == "+" || sign == "-" {
            p.advance()
            guard let oh = p.int(2) else { return nil }
            _ = p.consume(":")
            let om = p.int(2) ?? 0
            offset = (oh * 3600 + om * 60) * (sign == "-" ? -1 : 1)
        } else {
            return nil
        }
        guard p.isAtEnd, hour < 24, minute < 60, second < 61 else { return nil }
        self = Instant(utc: date, hour: hour, minute: minute, second: second).adding(seconds: Int64(-offset))
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Instant(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an ISO-8601 instant like 2026-06-12T23:05:00Z")
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}

@inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// The two ASCII digits at `offset`, or nil.
@inline(__always) func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int? {
    let a = bytes[offset] &- 0x30, b = bytes[offset + 1] &- 0x30
    guard a < 10, b < 10 else { return nil }
    return Int(a) * 10 + Int(b)
}

@inline(__always) func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

/// A tiny cursor over fixed-layout text.
struct FixedParser {
    // Bytes, not Characters: the layouts are ASCII, and grapheme breaking made date parsing a hot spot.
    let utf8: Substring.UTF8View
    var index: Substring.UTF8View.Index
    init(_ text: Substring) { utf8 = text.utf8; index = utf8.startIndex }
    var isAtEnd: Bool { index == utf8.endIndex }
    var peek: Character? { isAtEnd ? nil : Character(Unicode.Scalar(utf8[index])) }
    mutating func advance() { if !isAtEnd { utf8.formIndex(after: &index) } }
    mutating func consume(_ c: Character) -> Bool {
        guard !isAtEnd, let ascii = c.asciiValue, utf8[index] == ascii else { return false }
        utf8.formIndex(after: &index)
        return true
    }
    mutating func int(_ count: Int) -> Int? {
        var value = 0
        var taken = index
        for _ in 0..<count {
            guard taken != utf8.endIndex else { return nil }
            let byte = utf8[taken]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            utf8.formIndex(after: &taken)
        }
        index = taken
        return value
    }
    mutating func digits() -> Int {
        var n = 0
        while !isAtEnd, utf8[index] >= 0x30, utf8[index] <= 0x39 { utf8.formIndex(after: &index); n += 1 }
        return n
    }
    /// `YYYY-MM-DD` or `YYYYMMDD`.
    mutating func parseDate() -> LocalDate? {
        guard let y = int(4) else { return nil }
        let dashed = consume("-")
        guard let m = int(2) else { return nil }
        if dashed { guard consume("-") else { return nil } }
        guard let d = int(2) else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }
}
