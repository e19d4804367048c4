import Foundation
import SportsTimeCore

/// A JSON syntax error with its 1-based line and column.
public struct JSONSyntaxError: Error, Sendable, Hashable {
    public var line: Int
    public var column: Int
    public var message: String
}

/// A strict RFC 8259 parser into `JSONValue`: duplicate keys, trailing commas, comments and
/// garbage after the document are errors.
public enum JSONParser {
    public static func parse(_ data: Data) throws -> JSONValue {
        guard data.count <= InputLimits.jsonFileBytes else {
            throw JSONSyntaxError(line: 1, column: 1,
                                  message: "the document is \(data.count) bytes, more than the limit of \(InputLimits.jsonFileBytes)")
        }
        return try data.withUnsafeBytes { raw in
            var parser = Cursor(bytes: raw.bindMemory(to: UInt8.self))
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            if parser.index < parser.bytes.count { throw parser.error("unexpected text after the JSON value") }
            return value
        }
    }

    /// Parses one line of JSON Lines (or any string).
    public static func parse(_ text: String) throws -> JSONValue { try parse(Data(text.utf8)) }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ message: String) -> JSONSyntaxError {
            var line = 1
            var lineStart = 0
            for i in 0..<min(index, bytes.count) where bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            return JSONSyntaxError(line: line, column: index - lineStart + 1, message: message)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < InputLimits.jsonDepth else { throw error("nesting deeper than \(InputLimits.jsonDepth) levels") }
            guard index < bytes.count else { throw error("unexpected end of the document") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw error("unexpected end of the document") }
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
            for i in 0..<count where bytes[index + i] != expected[i] { throw error("invalid literal") }
            index += count
        }

        mutating func object(depth: Int) throws -> JSONValue {
            index += 1
            var members: [JSONMember] = []
            var keyOffsets: [Int] = []
            var isSorted = true
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .members(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                keyOffsets.append(index)
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                index += 1
                skipWhitespace()
                let value = try value(depth: depth + 1)
                if let last = members.last, !(last.key < key) { isSorted = false }
                members.append(JSONMember(key: key, value: value))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the document in an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw error("expected ',' or '}' in an object")
            }
            if !isSorted {
                // Canonical files are sorted already; others are sorted here, and a repeated key is an error.
                let order = members.indices.sorted { (members[$0].key, $0) < (members[$1].key, $1) }
                for (previous, next) in zip(order, order.dropFirst()) where members[previous].key == members[next].key {
                    index = keyOffsets[next]
                    throw error("duplicate key '\(members[next].key)'")
                }
                members = order.map { members[$0] }
            }
            return .members(members)
        }

        mutating func array(depth: Int) throws -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the document in an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                throw error("expected ',' or ']' in an array")
            }
        }

        mutating func string() throws -> String {
            index += 1
            let start = index
            var hasEscape = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") { hasEscape = true; index += 2; continue }
                if byte < 0x20 { throw error("control character in a string") }
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated string") }
            let end = index
            index += 1
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if !hasEscape { return String(decoding: slice, as: UTF8.self) }
            return try unescape(slice, at: start)
        }

        func unescape(_ slice: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> String {
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            func flush() {
                if !utf8.isEmpty { scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars); utf8.removeAll() }
            }
            var i = 0
            func hex4() throws -> UInt32 {
                guard i + 4 <= slice.count else { throw error("short \\u escape") }
                var value: UInt32 = 0
                for k in 0..<4 {
                    let c = slice[i + k]
                    let digit: UInt32
                    switch c {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
                    default: throw error("invalid \\u escape")
                    }
                    value = value * 16 + digit
                }
                i += 4
                return value
            }
            while i < slice.count {
                let byte = slice[i]
                guard byte == UInt8(ascii: "\\") else { utf8.append(byte); i += 1; continue }
                guard i + 1 < slice.count else { throw error("invalid escape") }
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
                    flush()
                    var value = try hex4()
                    if (0xD800..<0xDC00).contains(value), i + 1 < slice.count,
                       slice[i] == UInt8(ascii: "\\"), slice[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(kind)))'")
                }
            }
            flush()
            return String(scalars)
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
            } else if digits() == 0 {
                throw error("invalid number")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw error("invalid number: digits expected after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("invalid number: digits expected in the exponent") }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
    }
}
