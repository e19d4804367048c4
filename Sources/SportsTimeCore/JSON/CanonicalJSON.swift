import Foundation

/// The one place that turns values into bytes for artifacts, and bytes back into values.
///
/// Canonical form: UTF-8, sorted keys, `/` unescaped, a document's top-level keys one per line with a
/// two-space indent, its record arrays one element per line, nested values compact, trailing newline.
/// Everything goes through `JSONWriter` and `JSONParser`; record types with a hand-written line
/// (`JSONLineCodable`) skip Codable, the others use `JSONValueEncoder`/`JSONValueDecoder`.
public enum CanonicalJSON {
    /// One value, compact, no trailing newline.
    public static func compact<T: Encodable>(_ value: T) throws -> String {
        var writer = JSONWriter()
        try write(value, to: &writer)
        return writer.text
    }

    /// One value, compact, as bytes (no trailing newline).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        var writer = JSONWriter()
        try write(value, to: &writer)
        return writer.data
    }

    /// A value decoded from JSON bytes: `JSONSyntaxError` for bad JSON, `DecodingError` for a bad shape.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let value = try JSONParser.parse(data)
        if let lineType = T.self as? any JSONLineDecodable.Type, let record = try lineType.init(json: value, codingPath: []) as? T {
            return record
        }
        return try JSONValueDecoder.decode(type, from: value)
    }

    /// Appends one value: its hand-written line when it has one, its `Encodable` form otherwise.
    public static func write<T: Encodable>(_ value: T, to writer: inout JSONWriter) throws {
        if let line = value as? any JSONLineCodable {
            line.write(to: &writer)
        } else {
            writer.value(try JSONValueEncoder.encode(value))
        }
    }

    /// JSON Lines: one compact value per line, each line ending in a newline.
    public static func lines<T: Encodable>(_ values: [T]) throws -> Data {
        var writer = JSONWriter(capacity: values.count * 200)
        for value in values {
            writer.resetNesting()
            try write(value, to: &writer)
            writer.raw("\n")
        }
        return writer.data
    }

    /// The same lines for a record type with a hand-written line (`JSONLineCodable`), without Codable.
    public static func lines<T: Encodable & JSONLineCodable>(_ values: [T]) -> Data {
        var writer = JSONWriter(capacity: values.count * 200)
        for value in values {
            writer.resetNesting()
            value.write(to: &writer)
            writer.raw("\n")
        }
        return writer.data
    }
}

/// Writes a canonical document field by field; the caller gives the keys in sorted order.
public struct DocumentWriter {
    private var writer: JSONWriter
    private var isFirst = true

    public init(capacity: Int = 1024) {
        writer = JSONWriter(capacity: capacity)
        writer.raw("{\n")
    }

    private mutating func startField(_ key: String) {
        if !isFirst { writer.raw(",\n") }
        isFirst = false
        writer.raw("  ")
        writer.resetNesting()
        writer.key(key)
        writer.raw(" ")
    }

    // The header's fields by their types: a generic writer (as the records' `array` is) asks the runtime
    // whether a type has a hand-written line, and each type's first question scans every conformance record
    // of the program (about 0.3 M instructions, once per type and process). These write the same bytes unasked.

    /// A string on the key's line.
    public mutating func field(_ key: String, _ value: String) {
        startField(key)
        writer.string(value)
    }

    /// An integer on the key's line.
    public mutating func field(_ key: String, _ value: Int) {
        startField(key)
        writer.int(value)
    }

    /// A producer on the key's line (its `Encodable` form; it has no hand-written line).
    public mutating func field(_ key: String, _ value: Producer) throws { try encodedField(key, value) }

    /// A string map on the key's line (its `Encodable` form).
    public mutating func field(_ key: String, _ value: [String: String]) throws { try encodedField(key, value) }

    /// Input references, one per line (their `Encodable` form; they have no hand-written line).
    public mutating func array(_ key: String, _ elements: [InputReference]) throws {
        startField(key)
        guard !elements.isEmpty else { writer.raw("[]"); return }
        writer.raw("[\n")
        for (position, element) in elements.enumerated() {
            writer.raw("    ")
            writer.resetNesting()
            writer.value(try JSONValueEncoder.encode(element))
            writer.raw(position == elements.count - 1 ? "\n" : ",\n")
        }
        writer.raw("  ]")
    }

    private mutating func encodedField<T: Encodable>(_ key: String, _ value: T) throws {
        startField(key)
        writer.resetNesting()
        writer.value(try JSONValueEncoder.encode(value))
    }

    /// An array, one element per line: `elements[order[0]]`, `elements[order[1]]`, … (all of them in
    /// the order given when `order` is nil). Elements with a hand-written line are written by it directly
    /// (the conformance is looked up once per array, not per element).
    public mutating func array<T: Encodable>(_ key: String, _ elements: [T], order: [Int]?) throws {
        startField(key)
        guard !elements.isEmpty else { writer.raw("[]"); return }
        writer.raw("[\n")
        if let lineType = T.self as? any JSONLineCodable.Type {
            writeLines(lineType, elements, order: order)
        } else {
            // A value type that is not line-codable goes through Codable; only class elements need
            // asking, element by element, what they are.
            let direct = !(T.self is AnyObject.Type)
            let count = order?.count ?? elements.count
            for position in 0..<count {
                writer.raw("    ")
                writer.resetNesting()
                let element = elements[order?[position] ?? position]
                if direct {
                    writer.value(try JSONValueEncoder.encode(element))
                } else {
                    try CanonicalJSON.write(element, to: &writer)
                }
                writer.raw(position == count - 1 ? "\n" : ",\n")
            }
        }
        writer.raw("  ]")
    }

    private mutating func writeLines<T, Line: JSONLineCodable>(_ lineType: Line.Type, _ elements: [T], order: [Int]?) {
        precondition(Line.self == T.self)
        let lines = unsafeBitCast(elements, to: [Line].self)
        let count = order?.count ?? lines.count
        // Each element is lent in place through the buffer pointer (an array's subscript in this generic
        // code would hand out a copy: a retain and release of every string of the record).
        lines.withUnsafeBufferPointer { lines in
            for position in 0..<count {
                let start = writer.count
                writer.raw("    ")
                writer.resetNesting()
                lines[order?[position] ?? position].write(to: &writer)
                writer.raw(position == count - 1 ? "\n" : ",\n")
                // Room for the rest at the first line's length (and a quarter more), so the buffer is not
                // regrown and copied several times on the way.
                if position == 0, count > 1 { writer.reserveCapacity(writer.count + (writer.count - start) * (count - 1) * 5 / 4 + 64) }
            }
        }
    }

    /// The document's bytes, closed, with a trailing newline.
    public mutating func finish() -> Data {
        writer.raw(isFirst ? "}\n" : "\n}\n")
        return writer.data
    }
}
