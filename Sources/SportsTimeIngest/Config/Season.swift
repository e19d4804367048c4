import Foundation

/// A season label: a single year (`2023`) or a split season (`2025-26`, starting in 2025).
public struct Season: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var startYear: Int
    public var isSplit: Bool

    public init(startYear: Int, isSplit: Bool) { self.startYear = startYear; self.isSplit = isSplit }

    /// `2023` or `2025-26`.
    public var label: String {
        guard isSplit else { return String(startYear) }
        let end = (startYear + 1) % 100
        return "\(startYear)-\(end < 10 ? "0" : "")\(end)"
    }

    public var description: String { label }

    public static func < (a: Season, b: Season) -> Bool { a.startYear < b.startYear }

    /// Parses a declared label: `2023` (single) or `2025-26` (split).
    public init?(label text: String) {
        let t = text.trimmed
        if let year = Self.year(t) { self.init(startYear: year, isSplit: false); return }
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.year(parts[0]), parts[1].count == 2,
            let end = Int(parts[1]), end == (start + 1) % 100
        else { return nil }
        self.init(startYear: start, isSplit: true)
    }

    /// Reads a season as rows print it, in the style (`isSplit`) the source declared.
    /// Split seasons accept `2025-26`, `2025-2026`, `2025/26`, `20252026`; a bare year is ambiguous for
    /// them (some feeds print the start year, others the end year) and is refused. Single seasons accept
    /// `2023` (and `2023.0`, as spreadsheets write it).
    public static func parse(_ text: String, split: Bool) -> Season? {
        if let known = parsePlain(text, split: split) { return known }
        var t = text.trimmed
        if !split {
            if t.hasSuffix(".0") { t.removeLast(2) }
            return year(t).map { Season(startYear: $0, isSplit: false) }
        }
        if t.utf8.count == 8, t.utf8.allSatisfy(isDigitByte), let a = year(t.prefix(4)), let b = year(t.suffix(4)), b == a + 1 {
            return Season(startYear: a, isSplit: true)
        }
        let parts = t.split(whereSeparator: { $0 == "-" || $0 == "/" })
        guard parts.count == 2, let a = year(parts[0]) else { return nil }
        if parts[1].count == 4, let b = year(parts[1]), b == a + 1 { return Season(startYear: a, isSplit: true) }
        if parts[1].count == 2, let b = Int(parts[1]), b == (a + 1) % 100 { return Season(startYear: a, isSplit: true) }
        return nil
    }

    /// `parse` of the usual spellings read from the bytes: `2023`, `2023.0`, `20252026`, `2025-26`,
    /// `2025/2026` with nothing around them. `.some(nil)` only where `parse` refuses the text too; nil
    /// (not decided) for anything else, which `parse` then reads the general way.
    private static func parsePlain(_ text: String, split: Bool) -> Season?? {
        var text = text
        return text.withUTF8 { bytes -> Season?? in
            func digits(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for at in start..<(start + count) {
                    let byte = bytes[at]
                    guard isDigitByte(byte) else { return nil }
                    value = value * 10 + Int(byte - 0x30)
                }
                return value
            }
            func year(_ start: Int) -> Int?? {
                guard let y = digits(start, 4) else { return nil }
                return .some((1850...2200).contains(y) ? y : nil)
            }
            func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/") }
            if !split {
                guard bytes.count == 4 || (bytes.count == 6 && bytes[4] == UInt8(ascii: ".") && bytes[5] == UInt8(ascii: "0")),
                    let y = year(0)
                else { return nil }
                return .some(y.map { Season(startYear: $0, isSplit: false) })
            }
            switch bytes.count {
            case 8:
                guard let a = year(0), let b = year(4) else { return nil }
                guard let a, let b, b == a + 1 else { return .some(nil) }
                return .some(Season(startYear: a, isSplit: true))
            case 9:
                guard isSeparator(bytes[4]), let a = year(0), let b = year(5) else { return nil }
                guard let a, let b, b == a + 1 else { return .some(nil) }
                return .some(Season(startYear: a, isSplit: true))
            case 7:
                guard isSeparator(bytes[4]), let a = year(0), let b = digits(5, 2) else { return nil }
                guard let a, b == (a + 1) % 100 else { return .some(nil) }
                return .some(Season(startYear: a, isSplit: true))
            default:
                return nil
            }
        }
    }

    private static func year(_ s: some StringProtocol) -> Int? {
        // Four ASCII digits: four UTF-8 bytes, each a digit (the same test as four characters that are
        // ASCII digits, without walking characters).
        guard s.utf8.count == 4, s.utf8.allSatisfy(isDigitByte), let y = Int(s), (1850...2200).contains(y) else { return nil }
        return y
    }

    @inline(__always) private static func isDigitByte(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}

/// The seasons a source covers: one, or an inclusive range written `first..last`.
public struct SeasonRange: Hashable, Sendable, CustomStringConvertible {
    public var first: Season
    public var last: Season

    public var isSingle: Bool { first == last }
    public var isSplit: Bool { first.isSplit }

    /// `2023`, `2025-26`, `2022..2025`, `2023-24..2025-26`.
    public init?(_ text: String) {
        let parts = text.components(separatedBy: "..")
        if parts.count == 1, let s = Season(label: parts[0]) { first = s; last = s; return }
        guard parts.count == 2, let a = Season(label: parts[0]), let b = Season(label: parts[1]),
            a.isSplit == b.isSplit, a <= b
        else { return nil }
        first = a; last = b
    }

    public func contains(_ season: Season) -> Bool {
        season.isSplit == isSplit && first <= season && season <= last
    }

    /// `2023` or `2022..2025`.
    public var description: String { isSingle ? first.label : "\(first.label)..\(last.label)" }

    /// The default scope suffix: `2023` or `2022-2025`.
    public var scopeSuffix: String { isSingle ? first.label : "\(first.label)-\(last.label)" }
}

extension Character {
    /// `0`–`9` (an ASCII character that is a number), without Unicode property lookups.
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
}
