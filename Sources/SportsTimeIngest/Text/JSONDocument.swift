import Foundation
import SportsTimeCore

/// A JSON value that remembers the line it starts on, so each record of a JSON source has a provenance.
/// (Foundation's parser keeps no positions.)
public struct JSONNode: Sendable {
    public indirect enum Value: Sendable {
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

    /// The value as a field string: strings as they are, numbers as written, booleans `true`/`false`,
    /// null as nil, objects and arrays as compact JSON.
    public var text: String? {
        switch value {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return nil
        case .object, .array: return compact
        }
    }

    /// Compact JSON text, keys in their original order.
    public var compact: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch value {
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                JSONNode.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .string(let s): JSONNode.writeString(s, to: &out)
        case .number(let n): out += n
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// The member `key` of an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// A syntax error with its position.
public struct JSONSyntaxError: Error, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
}

/// Parses JSON text (RFC 8259) into `JSONNode`s with line numbers. Accepts a UTF-8 BOM; counts CR, LF
/// and CRLF as line breaks; invalid UTF-8 should be repaired by the caller before (see `CSVReader.decodeText`).
public enum JSONDocument {
    public static func parse(_ text: String) throws -> JSONNode {
        var parser = Parser(bytes: Array(text.utf8))
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3; parser.lineStart = 3 }
        parser.skipSpace()
        let node = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return node
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var lineStart = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> JSONSyntaxError {
            JSONSyntaxError(line: line, column: i - lineStart + 1, message: message)
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09: i += 1
                case 0x0A: i += 1; line += 1; lineStart = i
                case 0x0D:
                    i += 1
                    if i < bytes.count, bytes[i] == 0x0A { i += 1 }
                    line += 1; lineStart = i
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> JSONNode {
            guard depth < InputLimits.jsonDepth else { throw error("nesting deeper than \(InputLimits.jsonDepth) levels") }
            guard i < bytes.count else { throw error("unexpected end of the file") }
            let startLine = line
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(key: String, value: JSONNode)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return JSONNode(line: startLine, value: .object(members)) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                    let key = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                    i += 1
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of the file in an object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; break }
                    throw error("expected ',' or '}' in an object")
                }
                return JSONNode(line: startLine, value: .object(members))
            case UInt8(ascii: "["):
                i += 1
                var items: [JSONNode] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return JSONNode(line: startLine, value: .array(items)) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of the file in an array") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; break }
                    throw error("expected ',' or ']' in an array")
                }
                return JSONNode(line: startLine, value: .array(items))
            case UInt8(ascii: "\""):
                return JSONNode(line: startLine, value: .string(try string()))
            case UInt8(ascii: "t"):
                try literal("true"); return JSONNode(line: startLine, value: .bool(true))
            case UInt8(ascii: "f"):
                try literal("false"); return JSONNode(line: startLine, value: .bool(false))
            case UInt8(ascii: "n"):
                try literal("null"); return JSONNode(line: startLine, value: .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONNode(line: startLine, value: .number(try number()))
            default:
                throw error("unexpected character '\(String(decoding: [bytes[i]], as: UTF8.self))'")
            }
        }

        mutating func literal(_ word: String) throws {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw error("expected '\(word)'") }
            i += w.count
        }

        mutating func number() throws -> String {
            let start = i
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            func digits() -> Int {
                let s = i
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
                return i - s
            }
            guard digits() > 0 else { throw error("a number needs digits") }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { throw error("a number needs digits after '.'") }
            }
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw error("a number needs digits in its exponent") }
            }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }

        mutating func string() throws -> String {
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw error("unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; break }
                if b == 0x0A || b == 0x0D { throw error("line break inside a string") }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw error("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        code = (0xDC00...0xDFFF).contains(low) ? 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    }
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("unknown escape '\\\(String(decoding: [e], as: UTF8.self))'")
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count else { throw error("short \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt32
                switch c {
                case 48...57: d = UInt32(c - 48)
                case 65...70: d = UInt32(c - 55)
                case 97...102: d = UInt32(c - 87)
                default: throw error("bad hex digit in \\u escape")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }
    }
}

/// A key path into JSON records: `a.b`, `list.0.name`, `competitors[homeAway=home].team.name`, `weeks[*].games`.
struct JSONPath: Hashable, Sendable {
    enum Step: Hashable, Sendable {
        /// An object key, or an index when the node is an array.
        case name(String)
        /// The array elements whose `key` equals `value`.
        case select(key: String, value: String)
        /// Every element of an array.
        case all
        case index(Int)
    }
    let steps: [Step]
    let text: String

    init(_ text: String) throws {
        self.text = text
        var steps: [Step] = []
        for rawSegment in text.split(separator: ".", omittingEmptySubsequences: false) where !(text.isEmpty) {
            var segment = Substring(rawSegment)
            var name = segment
            var brackets: [Substring] = []
            if let open = segment.firstIndex(of: "[") {
                name = segment[..<open]
                segment = segment[open...]
                while let o = segment.firstIndex(of: "["), let c = segment[o...].firstIndex(of: "]") {
                    brackets.append(segment[segment.index(after: o)..<c])
                    segment = segment[segment.index(after: c)...]
                }
                guard segment.isEmpty else { throw JSONPathError(text: text) }
            }
            if name == "*" { steps.append(.all) } else if !name.isEmpty { steps.append(.name(String(name))) }
            for b in brackets {
                if b == "*" { steps.append(.all) }
                else if let n = Int(b) { steps.append(.index(n)) }
                else if let eq = b.firstIndex(of: "=") {
                    steps.append(.select(key: String(b[..<eq]), value: String(b[b.index(after: eq)...])))
                } else { throw JSONPathError(text: text) }
            }
            if name.isEmpty && brackets.isEmpty { throw JSONPathError(text: text) }
        }
        self.steps = steps
    }

    struct JSONPathError: Error { var text: String }

    /// Every node the path reaches from `root` (several when it passes `*` or a selection).
    func nodes(from root: JSONNode) -> [JSONNode] {
        var current = [root]
        for step in steps {
            var next: [JSONNode] = []
            for node in current {
                switch (step, node.value) {
                case (.name(let key), .object):
                    if let child = node[key] { next.append(child) }
                case (.name(let key), .array(let items)):
                    if let n = Int(key), n >= 0, n < items.count { next.append(items[n]) }
                case (.index(let n), .array(let items)):
                    if n >= 0, n < items.count { next.append(items[n]) }
                case (.all, .array(let items)):
                    next.append(contentsOf: items)
                case (.all, .object(let members)):
                    next.append(contentsOf: members.map(\.value))
                case (.select(let key, let value), .array(let items)):
                    next.append(contentsOf: items.filter { $0[key]?.text == value })
                default:
                    break
                }
            }
            current = next
        }
        return current
    }

    /// The first value the path reaches, as field text.
    func text(in root: JSONNode) -> String? {
        nodes(from: root).first?.text
    }
}
