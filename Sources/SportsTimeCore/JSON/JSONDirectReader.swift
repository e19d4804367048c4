import Foundation

/// Reads one record's JSON object straight from its bytes into typed values — no `JSONValue` tree, no
/// member array, no key strings — for the record lines of the hot record types (`JSONDirectDecodable`).
///
/// It reads exactly the documents the general path reads the same way and gives up (returns nil) on
/// anything else: an escape in a string, invalid UTF-8 or a control character, a number that is not a
/// plain integer, a key it does not expect or that comes out of sorted order, a repeated or missing
/// key, trailing bytes. The caller then reads the line through `JSONParser` and `JSONFields`, which
/// accept or refuse it with the exact located error, so the direct path only ever changes the speed.
struct JSONDirectReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var at = 0
    /// Set by any read that gave up; every later read gives up too.
    private(set) var failed = false
    /// Whether the next member of the open object needs a comma first.
    private var needsComma = false

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return nil }
        self.base = base
        end = bytes.count
    }

    private mutating func fail() -> Bool {
        failed = true
        return false
    }

    /// Gives up as `fail()` does, for a read that returns a value (nil).
    private mutating func giveUp<T>() -> T? {
        failed = true
        return nil
    }

    private mutating func skipSpace() {
        while at < end {
            let byte = base[at]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            at += 1
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < end, base[at] == byte else { return false }
        at += 1
        return true
    }

    /// The opening `{` of the record.
    mutating func beginObject() -> Bool {
        guard consume(UInt8(ascii: "{")) else { return fail() }
        needsComma = false
        return true
    }

    /// The next key of the record object, positioned at its value; nil after the closing `}` (and
    /// nothing but white space after it) or when giving up.
    mutating func nextKey() -> UnsafeBufferPointer<UInt8>? {
        guard !failed else { return nil }
        if consume(UInt8(ascii: "}")) {
            skipSpace()
            if at != end { _ = fail() }
            return nil
        }
        if needsComma, !consume(UInt8(ascii: ",")) { return giveUp() }
        guard consume(UInt8(ascii: "\"")), let key = rawString(), consume(UInt8(ascii: ":")) else { return giveUp() }
        needsComma = true
        return key
    }

    /// The index in `keys` (sorted) of `key`, searching from `next` on, which then moves past it: keys
    /// come in sorted order, each once, so a key not found from there is unknown, repeated or out of order.
    mutating func index(of key: UnsafeBufferPointer<UInt8>, in keys: [[UInt8]], from next: inout Int) -> Int? {
        while next < keys.count {
            let candidate = keys[next]
            next += 1
            if candidate.count == key.count,
                candidate.withUnsafeBufferPointer({ memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 })
            {
                return next - 1
            }
        }
        return giveUp()
    }

    /// The bytes of a string whose opening quote was consumed, up to (and past) its closing quote: nil
    /// for an escape, a control character or a string cut short.
    private mutating func rawString() -> UnsafeBufferPointer<UInt8>? {
        let start = at
        // Up to the first quote, backslash or control byte, as the writer scans; only a quote ends it here.
        at = JSONWriter.endOfPlainRun(base, from: at, to: end)
        guard at < end, base[at] == UInt8(ascii: "\"") else { return nil }
        at += 1
        return UnsafeBufferPointer(start: base + start, count: at - 1 - start)
    }

    /// Whether the value is `null` (consumed), for optional fields.
    mutating func null() -> Bool {
        skipSpace()
        guard end - at >= 4, base[at] == UInt8(ascii: "n"), base[at + 1] == UInt8(ascii: "u"), base[at + 2] == UInt8(ascii: "l"),
            base[at + 3] == UInt8(ascii: "l")
        else { return false }
        at += 4
        return true
    }

    /// Moves past a string value without making a `String` of it; false (giving up) as `string()` would.
    mutating func skipString() -> Bool {
        guard consume(UInt8(ascii: "\"")), rawString() != nil else { return fail() }
        return true
    }

    /// Moves past an array of strings, as `strings()` reads it, without making them.
    mutating func skipStrings() -> Bool {
        guard consume(UInt8(ascii: "[")) else { return fail() }
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
            guard skipString() else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]")) || fail()
    }

    /// Moves past an object of strings, as `stringMap()` reads it, without making them (a repeated key is
    /// not noticed here: the record is then decoded, which refuses it).
    mutating func skipStringMap() -> Bool {
        guard consume(UInt8(ascii: "{")) else { return fail() }
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            guard skipString(), consume(UInt8(ascii: ":")) || fail(), skipString() else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}")) || fail()
    }

    mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")), let bytes = rawString() else { return giveUp() }
        if bytes.isAllASCII { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return giveUp() }
        return text
    }

    mutating func bool() -> Bool? {
        skipSpace()
        if end - at >= 4, base[at] == UInt8(ascii: "t"), base[at + 1] == UInt8(ascii: "r"), base[at + 2] == UInt8(ascii: "u"),
            base[at + 3] == UInt8(ascii: "e")
        {
            at += 4
            return true
        }
        if end - at >= 5, base[at] == UInt8(ascii: "f"), base[at + 1] == UInt8(ascii: "a"), base[at + 2] == UInt8(ascii: "l"),
            base[at + 3] == UInt8(ascii: "s"), base[at + 4] == UInt8(ascii: "e")
        {
            at += 5
            return false
        }
        return giveUp()
    }

    /// A plain integer (`-?[0-9]{1,18}`, no leading zero unless alone).
    mutating func int() -> Int? {
        skipSpace()
        var negative = false
        if at < end, base[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        let start = at
        var value = 0
        while at < end, base[at] >= UInt8(ascii: "0"), base[at] <= UInt8(ascii: "9") {
            value = value * 10 + Int(base[at] - UInt8(ascii: "0"))
            at += 1
        }
        let digits = at - start
        guard digits > 0, digits <= 18, digits == 1 || base[start] != UInt8(ascii: "0") else { return giveUp() }
        if at < end, base[at] == UInt8(ascii: ".") || base[at] == UInt8(ascii: "e") || base[at] == UInt8(ascii: "E") { return giveUp() }
        return negative ? -value : value
    }

    /// A `YYYY-MM-DD` string.
    mutating func date() -> LocalDate? {
        guard consume(UInt8(ascii: "\"")), let bytes = rawString(), let parsed = LocalDate.canonical(bytes), let date = parsed else {
            return giveUp()
        }
        return date
    }

    /// A `YYYY-MM-DDTHH:MM:SSZ` string (other ISO-8601 forms are left to the general path).
    mutating func instant() -> Instant? {
        guard consume(UInt8(ascii: "\"")), let bytes = rawString(), let parsed = Instant.canonical(bytes), let instant = parsed else {
            return giveUp()
        }
        return instant
    }

    /// A string that is the raw value of `E`.
    mutating func enumeration<E>(_ table: RawValueTable<E>) -> E? {
        guard consume(UInt8(ascii: "\"")), let bytes = rawString(), let value = table.value(of: bytes) else { return giveUp() }
        return value
    }

    /// An array of strings.
    mutating func strings() -> [String]? { array { $0.string() } }

    /// An array of raw values of `E`.
    mutating func enumerations<E>(_ table: RawValueTable<E>) -> [E]? { array { $0.enumeration(table) } }

    /// An array of the values `element` reads.
    private mutating func array<T>(_ element: (inout Self) -> T?) -> [T]? {
        guard consume(UInt8(ascii: "[")) else { return giveUp() }
        var values: [T] = []
        if consume(UInt8(ascii: "]")) { return values }
        // Room for a few at once (these arrays are short: a record's inferred fields, its sources), not
        // a new buffer for the first, second and third.
        values.reserveCapacity(4)
        repeat {
            guard let value = element(&self) else { return nil }
            values.append(value)
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { return giveUp() }
        return values
    }

    /// An object of strings, keys unique.
    mutating func stringMap() -> [String: String]? {
        guard consume(UInt8(ascii: "{")) else { return giveUp() }
        var map: [String: String] = [:]
        if consume(UInt8(ascii: "}")) { return map }
        repeat {
            guard let key = string(), consume(UInt8(ascii: ":")), let value = string(), map.updateValue(value, forKey: key) == nil else {
                return giveUp()
            }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { return giveUp() }
        return map
    }
}

/// A record type that can be read straight from its line's bytes (`JSONDirectReader`): nil means "read
/// it the general way", never an error.
public protocol JSONDirectDecodable: JSONLineCodable, Sendable {
    static func directlyDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> Self?
}

/// A record type whose `id` can be read from its line without decoding the rest, so a reader that wants
/// a few records of a large file decodes only those (`EnvelopeReader.records(_:from:path:expecting:ids:)`).
public protocol JSONDirectIdentifiable: JSONDirectDecodable, Identifiable where ID == String {
    /// The line's `id`, or nil when it cannot be read that way (the line is then decoded whole).
    static func directId(_ bytes: UnsafeBufferPointer<UInt8>) -> String?
}

extension JSONDirectReader {
    /// The keys of a record type in sorted (canonical) order, as bytes.
    static func keyTable(_ keys: [String]) -> [[UInt8]] {
        precondition(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "record keys must be sorted")
        return keys.map { Array($0.utf8) }
    }
}

/// The raw values of a string enumeration's cases as bytes: a case read from its bytes in place, without
/// a string made and switched on (an unknown or escaped value is nil, as `init(rawValue:)` of the
/// unescaped text would be: every raw value is plain ASCII).
struct RawValueTable<E: RawRepresentable & CaseIterable>: Sendable where E.RawValue == String, E: Sendable {
    private let entries: [(bytes: [UInt8], value: E)]

    init() { entries = E.allCases.map { (Array($0.rawValue.utf8), $0) } }

    func value(of bytes: UnsafeBufferPointer<UInt8>) -> E? {
        guard let base = bytes.baseAddress else { return nil }
        for entry in entries where entry.bytes.count == bytes.count {
            if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, bytes.count) == 0 }) { return entry.value }
        }
        return nil
    }
}

extension GameKind { static let rawValues = RawValueTable<GameKind>() }
extension GameStatus { static let rawValues = RawValueTable<GameStatus>() }
extension StartKnowledge { static let rawValues = RawValueTable<StartKnowledge>() }
extension InferredField { static let rawValues = RawValueTable<InferredField>() }
