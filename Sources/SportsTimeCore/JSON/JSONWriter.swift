import Foundation

/// The one JSON writer: appends compact JSON to a byte buffer in the canonical form every artifact uses.
///
/// - strings: UTF-8 as is, `/` unescaped; `"` and `\` escaped, control characters as `\b \f \n \r \t` or
///   `\u00xx` (lowercase hex);
/// - numbers: integers in decimal; doubles in Swift's shortest round-trip form with a trailing `.0`
///   dropped (`3`, `3.811`, `1e-05`, `1e+100`), never NaN or infinity (`double(_:)` returns false);
/// - objects: the caller writes keys in sorted order (`JSONValue` members already are; hand-written
///   record writers list their keys alphabetically and a test compares them with the generic path).
public struct JSONWriter {
    /// The bytes written so far (a copy).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer.base, count: buffer.count)) }
    /// The bytes written so far, as `Data` (one copy).
    public var data: Data { Data(bytes: buffer.base, count: buffer.count) }

    /// The output: a growable byte buffer written through raw pointers (an `Array` checks uniqueness
    /// and capacity on every byte). Copied before a write when the writer value was copied.
    private var buffer: Buffer
    /// Whether the next value or key of the open container needs a comma before it, and the same flag
    /// of each enclosing container (`depth` open containers in all).
    private var pending = false
    private var depth = 0
    private var outer: [Bool] = []

    public init(capacity: Int = 256) { buffer = Buffer(capacity: capacity) }

    /// How many bytes are written.
    public var count: Int { buffer.count }

    /// Makes room for `capacity` bytes in all.
    public mutating func reserveCapacity(_ capacity: Int) { out.reserve(capacity - buffer.count) }

    /// The bytes written, as text.
    public var text: String { String(decoding: UnsafeBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self) }

    /// The buffer to write to, made unique first. A method takes it once and hands it to the helpers
    /// it calls: while one reference is held, a second `out` would find the buffer shared and copy it.
    private var out: Buffer {
        mutating get {
            if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
            return buffer
        }
    }

    private final class Buffer {
        var base: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        func copy() -> Buffer {
            let copy = Buffer(capacity: capacity)
            copy.base.update(from: base, count: count)
            copy.count = count
            return copy
        }

        /// Room for `extra` more bytes.
        @inline(__always) func reserve(_ extra: Int) {
            if count + extra > capacity { grow(to: count + extra) }
        }

        private func grow(to needed: Int) {
            let newCapacity = max(needed, capacity * 2)
            let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBase.update(from: base, count: count)
            base.deallocate()
            base = newBase
            capacity = newCapacity
        }

        @inline(__always) func append(_ byte: UInt8) {
            reserve(1)
            base[count] = byte
            count += 1
        }

        @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            reserve(bytes.count)
            JSONWriter.copy(source, to: base + count, count: bytes.count)
            count += bytes.count
        }

        func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }
    }

    // MARK: Containers

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        let out = self.out
        separate(out)
        out.append(bracket)
        if depth > 0 { outer.append(pending) }
        depth += 1
        pending = false
    }

    private mutating func close(_ bracket: UInt8) {
        precondition(depth > 0, "JSONWriter: closing a container that is not open")
        depth -= 1
        pending = depth > 0 ? outer.removeLast() : false
        out.append(bracket)
    }

    /// A key of the open object; the value written next belongs to it.
    public mutating func key(_ key: String) {
        // The buffer made unique once for the comma, the quoted key and the colon.
        let out = self.out
        separate(out)
        Self.appendQuoted(key, to: out)
        out.append(UInt8(ascii: ":"))
        pending = false
    }

    /// The comma before a value or key that is not its container's first.
    @inline(__always)
    private mutating func separate(_ out: Buffer) {
        guard depth > 0 else { return }
        if pending { out.append(UInt8(ascii: ",")) } else { pending = true }
    }

    // MARK: Scalars

    public mutating func string(_ text: String) {
        let out = self.out
        separate(out)
        Self.appendQuoted(text, to: out)
    }
    public mutating func int(_ value: Int) {
        let out = self.out
        separate(out)
        Self.appendInt(value, to: out)
    }

    private static func appendInt(_ value: Int, to out: Buffer) {
        if value >= 0, value < 100 {
            // Versions, priorities, game numbers and row numbers: no String on the way.
            if value >= 10 { out.append(UInt8(truncatingIfNeeded: 0x30 + value / 10)) }
            out.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
        } else {
            Self.appendASCII(String(value), to: out)
        }
    }
    public mutating func bool(_ value: Bool) { number(value ? "true" : "false") }
    public mutating func null() { number("null") }
    /// A number as already written (a `JSONValue.number`).
    public mutating func number(_ text: String) {
        let out = self.out
        separate(out)
        Self.appendASCII(text, to: out)
    }

    /// A finite double; false (and nothing written) for NaN or infinity.
    @discardableResult
    public mutating func double(_ value: Double) -> Bool {
        guard let text = JSONWriter.format(value) else { return false }
        number(text)
        return true
    }

    /// The canonical text of a finite double: shortest round-trip digits, `.0` dropped.
    public static func format(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// A key written as its literal is: the name of a record's field, which needs no escaping (checked
    /// in debug builds), copied between its quotes in one piece.
    public mutating func key(_ name: StaticString) { writeKey(name, to: self.out) }

    /// `key(_:)` into `out`, the buffer its caller took (a field writes its key and value with one).
    @inline(__always)
    private mutating func writeKey(_ name: StaticString, to out: Buffer) {
        guard name.hasPointerRepresentation else {
            separate(out)
            Self.appendQuoted(name.description, to: out)
            out.append(UInt8(ascii: ":"))
            pending = false
            return
        }
        let count = name.utf8CodeUnitCount
        assert(JSONWriter.endOfPlainRun(name.utf8Start, from: 0, to: count) == count, "the key \(name) needs escaping")
        separate(out)
        out.reserve(count + 3)
        let target = out.base + out.count
        target[0] = UInt8(ascii: "\"")
        JSONWriter.copy(name.utf8Start, to: target + 1, count: count)
        target[count + 1] = UInt8(ascii: "\"")
        target[count + 2] = UInt8(ascii: ":")
        out.count += count + 3
        pending = false
    }

    // MARK: Keyed shorthands for record writers (field names are literals)

    // Each takes the buffer once for the key and the value (`key` and then `string` took it twice, each
    // time checking it is not shared); after a key the value needs no comma, and the next item does.
    @inline(__always)
    private mutating func field(_ name: StaticString, writing value: (Buffer) -> Void) {
        let out = self.out
        writeKey(name, to: out)
        pending = true
        value(out)
    }
    public mutating func field(_ name: StaticString, _ value: String) { field(name) { Self.appendQuoted(value, to: $0) } }
    public mutating func field(_ name: StaticString, _ value: Int) { field(name) { Self.appendInt(value, to: $0) } }
    public mutating func field(_ name: StaticString, _ value: Bool) { field(name) { Self.appendASCII(value ? "true" : "false", to: $0) } }
    public mutating func field(_ name: StaticString, _ value: Instant) { field(name) { Self.appendInstant(value, to: $0) } }
    public mutating func field(_ name: StaticString, _ value: LocalDate) { field(name) { Self.appendDate(value, to: $0) } }
    public mutating func field(_ name: StaticString, _ value: String?) { if let value { field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: Int?) { if let value { field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: Bool?) { if let value { field(name, value) } }
    /// An array of strings, written whole with one take of the buffer (what `beginArray`, `string` for
    /// each and `endArray` write).
    public mutating func field(_ name: StaticString, _ values: [String]?) { field(name, values, text: { $0 }) }
    /// An array of values written as the strings `text` gives, with one take of the buffer.
    public mutating func field<T>(_ name: StaticString, _ values: [T]?, text: (T) -> String) {
        guard let values else { return }
        field(name) { out in
            out.append(UInt8(ascii: "["))
            for index in values.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendQuoted(text(values[index]), to: out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }
    /// A string map, keys sorted, written whole with one take of the buffer.
    public mutating func field(_ name: StaticString, _ map: [String: String]) {
        field(name) { out in
            out.append(UInt8(ascii: "{"))
            for (index, entry) in map.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendQuoted(entry.key, to: out)
                out.append(UInt8(ascii: ":"))
                Self.appendQuoted(entry.value, to: out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    // MARK: Trees

    /// A parsed or built value (members are sorted already).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let text): number(text)
        case .string(let text): string(text)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .members(let members):
            beginObject()
            for member in members { key(member.key); self.value(member.value) }
            endObject()
        }
    }

    /// A located node, keys in document order.
    public mutating func node(_ node: JSONNode) {
        switch node.value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let text): number(text)
        case .string(let text): string(text)
        case .array(let items):
            beginArray()
            for item in items { self.node(item) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members { key(member.key); self.node(member.value) }
            endObject()
        }
    }

    // MARK: Raw output (document layout)

    /// Bytes written as they are, outside the comma bookkeeping (newlines, indentation of a document).
    public mutating func raw(_ text: StaticString) {
        out.append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// One value another writer wrote (a complete value, in this canonical form), in the place of a value:
    /// after a key, or as an element with the comma before it. For a value written the same way many
    /// times, written once and copied.
    public mutating func encoded(_ value: [UInt8]) {
        let out = self.out
        separate(out)
        out.append(value)
    }

    /// Starts the comma bookkeeping over (the writer is reused for the next line of a document).
    public mutating func resetNesting() {
        outer.removeAll(keepingCapacity: true)
        depth = 0
        pending = false
    }

    private static func appendASCII(_ text: String, to out: Buffer) {
        var text = text
        text.withUTF8 { out.append($0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func appendQuoted(_ text: String, to out: Buffer) {
        // Read in place (a small string from a stack copy); a string without contiguous UTF-8 is copied.
        if text.utf8.withContiguousStorageIfAvailable({ appendQuoted($0, to: out) }) != nil { return }
        var text = text
        text.withUTF8 { appendQuoted($0, to: out) }
    }

    /// `"…"` around UTF-8 bytes, escaping what needs it. Runs that need no escaping (nearly every string)
    /// are found eight bytes at a time and copied in one piece; a string that is one such run (every key,
    /// most values) is copied between its quotes at once.
    private static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to out: Buffer) {
        let count = utf8.count
        out.reserve(count + 2)
        guard let base = utf8.baseAddress, count > 0 else {
            out.append(UInt8(ascii: "\"")); out.append(UInt8(ascii: "\""))
            return
        }
        var i = JSONWriter.endOfPlainRun(base, from: 0, to: count)
        if i == count {
            let target = out.base + out.count
            target[0] = UInt8(ascii: "\"")
            JSONWriter.copy(base, to: target + 1, count: count)
            target[count + 1] = UInt8(ascii: "\"")
            out.count += count + 2
            return
        }
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        while i < count {
            if runStart < i { out.append(UnsafeBufferPointer(start: base + runStart, count: i - runStart)) }
            JSONWriter.appendEscape(base[i], to: out)
            runStart = i + 1
            i = JSONWriter.endOfPlainRun(base, from: runStart, to: count)
        }
        if runStart < count { out.append(UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
        out.append(UInt8(ascii: "\""))
    }

    /// Copies `count` bytes: a short run (keys, ids, names; nearly every string written) with a few
    /// overlapping word moves in place, a long one with `memcpy` (whose call costs more than a short copy).
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        @inline(__always) func move<T>(_: T.Type, at offset: Int) {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: T.self), toByteOffset: offset, as: T.self)
        }
        switch count {
        case 0: return
        case 1...3:
            target[0] = source[0]
            target[count / 2] = source[count / 2]
            target[count - 1] = source[count - 1]
        case 4...7:
            move(UInt32.self, at: 0)
            move(UInt32.self, at: count - 4)
        case 8...16:
            move(UInt64.self, at: 0)
            move(UInt64.self, at: count - 8)
        case 17...32:
            move(UInt64.self, at: 0)
            move(UInt64.self, at: 8)
            move(UInt64.self, at: count - 16)
            move(UInt64.self, at: count - 8)
        default:
            target.update(from: source, count: count)
        }
    }

    /// The index of the first byte of `base[start..<end]` below 0x20, `"` or `\`, or `end`: eight bytes
    /// at a time, the last (fewer than eight) in one word as well when `base` holds eight bytes before
    /// `end`. (The direct reader finds the end of a string the same way.)
    @inline(__always)
    static func endOfPlainRun(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        var i = start
        while i + 8 <= end {
            let mask = escapeMask(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            if mask != 0 { return i &+ mask.trailingZeroBitCount &>> 3 }
            i += 8
        }
        guard i < end else { return end }
        if end >= 8 {
            // The buffer's last eight bytes with those before `i` (plain, or not this run's) shifted out:
            // the zero bytes shifted in stand for the bytes past `end`, which end the run there.
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
            let mask = escapeMask(word &>> UInt64((i - (end - 8)) &* 8))
            return min(i &+ mask.trailingZeroBitCount &>> 3, end)
        }
        while i < end {
            let byte = base[i]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { break }
            i += 1
        }
        return i
    }

    /// The high bit of each byte of `word` (in memory order, least significant first) that is below 0x20,
    /// `"` or `\`; above the lowest such byte a borrow may set more bits, but the lowest set bit is
    /// always the first such byte.
    @inline(__always)
    static func escapeMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let below = (word &- ones &* 0x20) & ~word & highs
        return below | hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x5C))
    }

    private static func appendEscape(_ byte: UInt8, to out: Buffer) {
        switch byte {
        case 0x22: out.append(0x5C); out.append(0x22)
        case 0x5C: out.append(0x5C); out.append(0x5C)
        case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
        case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
        default:
            out.append([
                0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                JSONWriter.hexDigits[Int(byte >> 4)], JSONWriter.hexDigits[Int(byte & 0xF)],
            ])
        }
    }

    // MARK: Dates without an intermediate String

    /// A date `YYYY-MM-DD` as a JSON string (years outside 1...9999 through `LocalDate.iso8601`).
    public mutating func date(_ value: LocalDate) {
        let out = self.out
        separate(out)
        Self.appendDate(value, to: out)
    }

    private static func appendDate(_ value: LocalDate, to out: Buffer) {
        guard (1...9999).contains(value.year) else { appendQuoted(value.iso8601, to: out); return }
        // `"YYYY-MM-DD"`: 12 bytes written in place.
        out.reserve(12)
        let target = out.base + out.count
        target[0] = UInt8(ascii: "\"")
        Self.writeDate(value, at: target + 1)
        target[11] = UInt8(ascii: "\"")
        out.count += 12
    }

    /// An instant `YYYY-MM-DDTHH:MM:SSZ` as a JSON string (years outside 1...9999 through `Instant.iso8601`).
    public mutating func instant(_ value: Instant) {
        let out = self.out
        separate(out)
        Self.appendInstant(value, to: out)
    }

    private static func appendInstant(_ value: Instant, to out: Buffer) {
        let date = value.utcDate
        guard (1...9999).contains(date.year) else { appendQuoted(value.iso8601, to: out); return }
        let second = value.utcSecondOfDay
        // `"YYYY-MM-DDTHH:MM:SSZ"`: 22 bytes written in place.
        out.reserve(22)
        let target = out.base + out.count
        target[0] = UInt8(ascii: "\"")
        Self.writeDate(date, at: target + 1)
        target[11] = UInt8(ascii: "T")
        Self.writeTwoDigits(second / 3600, at: target + 12)
        target[14] = UInt8(ascii: ":")
        Self.writeTwoDigits(second / 60 % 60, at: target + 15)
        target[17] = UInt8(ascii: ":")
        Self.writeTwoDigits(second % 60, at: target + 18)
        target[20] = UInt8(ascii: "Z")
        target[21] = UInt8(ascii: "\"")
        out.count += 22
    }

    /// `YYYY-MM-DD` (a year in 1...9999) in the ten bytes at `target`.
    @inline(__always)
    private static func writeDate(_ date: LocalDate, at target: UnsafeMutablePointer<UInt8>) {
        let year = date.year
        target[0] = UInt8(truncatingIfNeeded: 0x30 + year / 1000)
        target[1] = UInt8(truncatingIfNeeded: 0x30 + year / 100 % 10)
        writeTwoDigits(year % 100, at: target + 2)
        target[4] = UInt8(ascii: "-")
        writeTwoDigits(date.month, at: target + 5)
        target[7] = UInt8(ascii: "-")
        writeTwoDigits(date.day, at: target + 8)
    }

    @inline(__always)
    private static func writeTwoDigits(_ value: Int, at target: UnsafeMutablePointer<UInt8>) {
        target[0] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
        target[1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
    }
}
