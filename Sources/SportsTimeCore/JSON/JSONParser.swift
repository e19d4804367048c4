import Foundation

/// A JSON syntax error with its 1-based line and column.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line; self.column = column; self.message = message
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A JSON value that remembers the line it starts on and keeps object members in document order, for
/// readers that point at a place in a scraped file (each record of a JSON source has a provenance).
public struct JSONNode: Sendable {
    public indirect enum Value: Sendable {
        /// Members in document order (keys are unique: the parser refuses repeats).
        case object([(key: String, value: JSONNode)])
        case array([JSONNode])
        case string(String)
        /// The number as written (`12`, `-3.5`, `1e3`), so values round-trip as text.
        case number(String)
        case bool(Bool)
        case null
    }
    public var line: Int
    public var value: Value

    public init(line: Int, value: Value) { self.line = line; self.value = value }

    /// The value as a field string: strings as they are, numbers as written, booleans `true`/`false`,
    /// null as nil, objects and arrays as compact JSON (keys in document order).
    public var text: String? {
        switch value {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return nil
        case .object, .array: return compact
        }
    }

    /// Compact JSON text, keys in their document order.
    public var compact: String {
        var writer = JSONWriter()
        writer.node(self)
        return writer.text
    }

    /// The member `key` of an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// The one JSON parser: strict RFC 8259 (duplicate keys, trailing commas, comments, leading zeros, raw
/// control characters in strings and text after the document are errors), with the line and column of
/// every error and the limits of `InputLimits` (size, nesting). Accepts a UTF-8 byte order mark and
/// counts LF, CR and CRLF as line breaks. Invalid UTF-8 in strings is decoded as U+FFFD.
///
/// Two trees come out of the same parser: `JSONValue` (members sorted by key, for artifacts, schemas and
/// diffs) and `JSONNode` (lines and document order, for scraped sources).
public enum JSONParser {
    /// How a nesting-limit error starts (readers word it for their own files).
    public static let nestingMessagePrefix = "nesting deeper than"

    /// Parses a document into a `JSONValue`.
    public static func parse(_ data: Data) throws -> JSONValue {
        try parse(data, into: ValueBuilder())
    }

    /// Parses one line of JSON Lines (or any string).
    public static func parse(_ text: String) throws -> JSONValue { try parse(Data(text.utf8)) }

    /// Parses a document into `JSONNode`s that know their lines.
    public static func parseNodes(_ text: String) throws -> JSONNode {
        try parse(Data(text.utf8), into: NodeBuilder())
    }

    /// Parses many small documents (the record lines of a canonical file) with the same rules as
    /// `parse`, reusing its scratch space from one to the next.
    public struct LineParser {
        private var memberStack: [JSONMember] = []
        private var offsetStack: [Int] = []
        private var itemStack: [JSONValue] = []
        private var keyCache: [CachedString] = []
        private var valueCache: [CachedString] = []

        public init() {}

        /// `depth`: how deep the bytes sit in their document (2 for a record of an envelope's records
        /// array), so the nesting limit counts as it would for the whole document.
        public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int = 1, depth: Int = 0) throws -> JSONValue {
            var cursor = Cursor(bytes: bytes, builder: ValueBuilder())
            cursor.line = firstLine
            cursor.baseDepth = depth
            swap(&cursor.memberStack, &memberStack)
            swap(&cursor.offsetStack, &offsetStack)
            swap(&cursor.itemStack, &itemStack)
            swap(&cursor.keyCache, &keyCache)
            swap(&cursor.valueCache, &valueCache)
            defer {
                swap(&cursor.memberStack, &memberStack)
                swap(&cursor.offsetStack, &offsetStack)
                swap(&cursor.itemStack, &itemStack)
                swap(&cursor.keyCache, &keyCache)
                swap(&cursor.valueCache, &valueCache)
                memberStack.removeAll(keepingCapacity: true)
                offsetStack.removeAll(keepingCapacity: true)
                itemStack.removeAll(keepingCapacity: true)
            }
            return try cursor.document()
        }
    }

    static func parse<Builder: JSONTreeBuilder>(_ data: Data, into builder: Builder) throws -> Builder.Node {
        guard data.count <= InputLimits.jsonFileBytes else {
            throw JSONSyntaxError(
                line: 1, column: 1,
                message: "the document is \(data.count) bytes, more than the limit of \(InputLimits.jsonFileBytes)")
        }
        return try data.withUnsafeBytes { raw in
            var cursor = Cursor(bytes: raw.bindMemory(to: UInt8.self), builder: builder)
            return try cursor.document()
        }
    }

    fileprivate struct Cursor<Builder: JSONTreeBuilder> {
        let bytes: UnsafeBufferPointer<UInt8>
        let builder: Builder
        var index = 0
        var line = 1
        var lineStart = 0
        /// Scratch stacks of the open objects' members (and their key offsets) and the open arrays' items.
        /// The depth of the document's top value (nonzero for a part of a larger document).
        var baseDepth = 0
        var memberStack: [Builder.Member] = []
        var offsetStack: [Int] = []
        var itemStack: [Builder.Node] = []
        /// The top object's keys and string values of the previous document, by member position.
        var keyCache: [CachedString] = []
        var valueCache: [CachedString] = []

        init(bytes: UnsafeBufferPointer<UInt8>, builder: Builder) {
            self.bytes = bytes
            self.builder = builder
        }

        mutating func document() throws -> Builder.Node {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3; lineStart = 3 }
            skipWhitespace()
            let value = try value(depth: baseDepth)
            skipWhitespace()
            if index < bytes.count { throw error("unexpected text after the JSON value") }
            return value
        }

        func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            let offset = offset ?? index
            if offset >= lineStart { return JSONSyntaxError(line: line, column: offset - lineStart + 1, message: message) }
            // An earlier position (a duplicate key): count its line again.
            var line = 1
            var start = 0
            for i in 0..<min(offset, bytes.count)
            where bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                start = i + 1
            }
            return JSONSyntaxError(line: line, column: offset - start + 1, message: message)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                case 0x0D:
                    index += 1
                    if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> Builder.Node {
            guard depth < InputLimits.jsonDepth else { throw error("\(JSONParser.nestingMessagePrefix) \(InputLimits.jsonDepth) levels") }
            guard index < bytes.count else { throw error("unexpected end of the document") }
            let startLine = line
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return builder.string(try string(), line: startLine)
            case UInt8(ascii: "t"): try literal("true"); return builder.bool(true, line: startLine)
            case UInt8(ascii: "f"): try literal("false"); return builder.bool(false, line: startLine)
            case UInt8(ascii: "n"): try literal("null"); return builder.null(line: startLine)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return builder.number(try number(), line: startLine)
            default:
                let byte = bytes[index]
                let shown = byte < 0x80 && byte >= 0x20 ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
                throw error("unexpected character \(shown)")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
            for i in 0..<count where index + i >= bytes.count || bytes[index + i] != expected[i] {
                throw error("invalid literal (expected '\(word)')")
            }
            index += count
        }

        mutating func object(depth: Int) throws -> Builder.Node {
            let startLine = line
            index += 1
            // Members collect on one stack shared by every object of the document (nested objects push
            // above and pop back), so an object costs one exact-size array, not a growing one per object.
            let base = memberStack.count
            let offsetBase = offsetStack.count
            var isSorted = true
            var previousKey = ""
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return builder.object(memberStack[base..<base], sortedOrder: nil, line: startLine)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                let keyOffset = index
                let slot = memberStack.count - base
                let isTop = depth == baseDepth
                let key = isTop ? try cachedString(slot, key: true) : try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                index += 1
                skipWhitespace()
                let value: Builder.Node
                if isTop, depth + 1 < InputLimits.jsonDepth, index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    let startLine = line
                    value = builder.string(try cachedString(slot, key: false), line: startLine)
                } else {
                    value = try self.value(depth: depth + 1)
                }
                if memberStack.count > base, !(previousKey < key) { isSorted = false }
                offsetStack.append(keyOffset)
                memberStack.append(builder.member(key, value))
                previousKey = key
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the document in an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw error("expected ',' or '}' in an object")
            }
            defer {
                memberStack.removeSubrange(base...)
                offsetStack.removeSubrange(offsetBase...)
            }
            let members = memberStack[base...]
            guard !isSorted else { return builder.object(members, sortedOrder: nil, line: startLine) }
            // Canonical files are sorted already; others are checked here for a repeated key.
            let keys = members.map { builder.key(of: $0) }
            let order = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
            for (previous, next) in zip(order, order.dropFirst()) where keys[previous] == keys[next] {
                throw error("duplicate key '\(keys[next])'", at: offsetStack[offsetBase + next])
            }
            return builder.object(members, sortedOrder: order, line: startLine)
        }

        mutating func array(depth: Int) throws -> Builder.Node {
            let startLine = line
            index += 1
            let base = itemStack.count
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return builder.array([], line: startLine)
            }
            while true {
                skipWhitespace()
                let item = try value(depth: depth + 1)
                itemStack.append(item)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the document in an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    let items = Array(itemStack[base...])
                    itemStack.removeSubrange(base...)
                    return builder.array(items, line: startLine)
                }
                throw error("expected ',' or ']' in an array")
            }
        }

        mutating func string() throws -> String {
            let (start, end, hasEscape) = try scanString()
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if !hasEscape { return String(decoding: slice, as: UTF8.self) }
            return try unescape(slice, at: start)
        }

        /// A string of the top object's member `slot` (its key or its value): the same bytes as that
        /// member's on the previous line (record lines repeat their keys and many values) give the same
        /// String again, without decoding it or storing it twice.
        mutating func cachedString(_ slot: Int, key: Bool) throws -> String {
            let (start, end, hasEscape) = try scanString()
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if hasEscape { return try unescape(slice, at: start) }
            guard let source = slice.baseAddress, !slice.isEmpty else { return "" }
            if key {
                return Self.cached(slice, source, slot, &keyCache)
            }
            return Self.cached(slice, source, slot, &valueCache)
        }

        private static func cached(
            _ slice: UnsafeBufferPointer<UInt8>, _ source: UnsafePointer<UInt8>, _ slot: Int,
            _ cache: inout [CachedString]
        ) -> String {
            if slot < cache.count {
                let hit = cache[slot].bytes.withUnsafeBufferPointer {
                    $0.count == slice.count && memcmp($0.baseAddress!, source, slice.count) == 0
                }
                if hit { return cache[slot].string }
                let text = String(decoding: slice, as: UTF8.self)
                cache[slot].bytes.removeAll(keepingCapacity: true)
                cache[slot].bytes.append(contentsOf: slice)
                cache[slot].string = text
                return text
            }
            let text = String(decoding: slice, as: UTF8.self)
            if slot == cache.count { cache.append(CachedString(bytes: Array(slice), string: text)) }
            return text
        }

        /// Past a string's closing quote: its content's byte range and whether it has escapes.
        mutating func scanString() throws -> (start: Int, end: Int, hasEscape: Bool) {
            index += 1
            let start = index
            var hasEscape = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") { hasEscape = true; index += 2; continue }
                if byte < 0x20 {
                    throw error(byte == 0x0A || byte == 0x0D ? "line break inside a string" : "control character in a string")
                }
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated string") }
            let end = index
            index += 1
            return (start, end, hasEscape)
        }

        func unescape(_ slice: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> String {
            var utf8: [UInt8] = []
            utf8.reserveCapacity(slice.count)
            var i = 0
            func hex4() throws -> UInt32 {
                guard i + 4 <= slice.count else { throw error("short \\u escape", at: offset + i) }
                var value: UInt32 = 0
                for k in 0..<4 {
                    let c = slice[i + k]
                    let digit: UInt32
                    switch c {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
                    default: throw error("invalid \\u escape", at: offset + i)
                    }
                    value = value * 16 + digit
                }
                i += 4
                return value
            }
            while i < slice.count {
                let byte = slice[i]
                guard byte == UInt8(ascii: "\\") else { utf8.append(byte); i += 1; continue }
                guard i + 1 < slice.count else { throw error("invalid escape", at: offset + i) }
                let kind = slice[i + 1]
                i += 2
                switch kind {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try hex4()
                    if (0xD800..<0xDC00).contains(value), i + 1 < slice.count,
                        slice[i] == UInt8(ascii: "\\"), slice[i + 1] == UInt8(ascii: "u")
                    {
                        i += 2
                        let low = try hex4()
                        value = (0xDC00..<0xE000).contains(low) ? 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    }
                    utf8.append(contentsOf: String(Character(Unicode.Scalar(value) ?? "\u{FFFD}")).utf8)
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(kind)))'", at: offset + i - 2)
                }
            }
            return String(decoding: utf8, as: UTF8.self)
        }

        mutating func number() throws -> String {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw error("invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    throw error("invalid number: a leading zero")
                }
            } else if digits() == 0 {
                throw error("invalid number")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw error("invalid number: digits expected after '.'") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("invalid number: digits expected in the exponent") }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
    }
}

/// A decoded string and its bytes, for `JSONParser.Cursor.cachedString`.
struct CachedString {
    var bytes: [UInt8]
    var string: String
}

/// What the parser builds: one tree type per conformer, so the scanning code is written once.
protocol JSONTreeBuilder {
    associatedtype Node
    associatedtype Member
    func null(line: Int) -> Node
    func bool(_ value: Bool, line: Int) -> Node
    func number(_ text: String, line: Int) -> Node
    func string(_ text: String, line: Int) -> Node
    func array(_ items: [Node], line: Int) -> Node
    func member(_ key: String, _ value: Node) -> Member
    func key(of member: Member) -> String
    /// Members in document order; `sortedOrder` is the order by key when that differs (nil: sorted).
    func object(_ members: ArraySlice<Member>, sortedOrder: [Int]?, line: Int) -> Node
}

struct ValueBuilder: JSONTreeBuilder {
    func null(line: Int) -> JSONValue { .null }
    func bool(_ value: Bool, line: Int) -> JSONValue { .bool(value) }
    func number(_ text: String, line: Int) -> JSONValue { .number(text) }
    func string(_ text: String, line: Int) -> JSONValue { .string(text) }
    func array(_ items: [JSONValue], line: Int) -> JSONValue { .array(items) }
    func member(_ key: String, _ value: JSONValue) -> JSONMember { JSONMember(key: key, value: value) }
    func key(of member: JSONMember) -> String { member.key }
    func object(_ members: ArraySlice<JSONMember>, sortedOrder: [Int]?, line: Int) -> JSONValue {
        if let order = sortedOrder { return .members(order.map { members[members.startIndex + $0] }) }
        return .members(Array(members))
    }
}

struct NodeBuilder: JSONTreeBuilder {
    func null(line: Int) -> JSONNode { JSONNode(line: line, value: .null) }
    func bool(_ value: Bool, line: Int) -> JSONNode { JSONNode(line: line, value: .bool(value)) }
    func number(_ text: String, line: Int) -> JSONNode { JSONNode(line: line, value: .number(text)) }
    func string(_ text: String, line: Int) -> JSONNode { JSONNode(line: line, value: .string(text)) }
    func array(_ items: [JSONNode], line: Int) -> JSONNode { JSONNode(line: line, value: .array(items)) }
    func member(_ key: String, _ value: JSONNode) -> (key: String, value: JSONNode) { (key: key, value: value) }
    func key(of member: (key: String, value: JSONNode)) -> String { member.key }
    func object(_ members: ArraySlice<(key: String, value: JSONNode)>, sortedOrder: [Int]?, line: Int) -> JSONNode {
        JSONNode(line: line, value: .object(Array(members)))
    }
}
