/// Writes the generated part of a record's body from its declaration: the public memberwise initializer,
/// the canonical line reader and writer (`JSONLineCodable`), and as the options ask, the reader straight
/// from a line's bytes (`JSONDirectDecodable`), the id read alone (`JSONDirectIdentifiable`) and Codable.
struct RecordCodeWriter {
    let record: RecordDeclaration
    private var lines: [String] = []
    private var level = 0

    init(_ record: RecordDeclaration) { self.record = record }

    /// What a field's JSON value is, and so how each codec reads and writes it.
    private enum Shape {
        case string, int, double, bool, instant, date, strings, stringMap
        case enumeration(String), enumerations(String)

        init(_ type: String) {
            switch type {
            case "String": self = .string
            case "Int": self = .int
            case "Double": self = .double
            case "Bool": self = .bool
            case "Instant": self = .instant
            case "LocalDate": self = .date
            case "[String]": self = .strings
            case "[String: String]": self = .stringMap
            default:
                if type.hasPrefix("["), type.hasSuffix("]") {
                    self = .enumerations(String(type.dropFirst().dropLast()))
                } else {
                    // Any other named type is a string enumeration (the compiler refuses anything else).
                    self = .enumeration(type)
                }
            }
        }

        /// `JSONFields`'s reader, required or optional: `f.string("id")`.
        func fieldsRead(_ key: String, optional: Bool) -> String {
            let prefix = optional ? "optional" : ""
            func named(_ name: String) -> String {
                optional ? prefix + name.prefix(1).uppercased() + name.dropFirst() : name
            }
            switch self {
            case .string: return "f.\(named("string"))(\"\(key)\")"
            case .int: return "f.\(named("int"))(\"\(key)\")"
            case .double: return "f.\(named("double"))(\"\(key)\")"
            case .bool: return "f.\(named("bool"))(\"\(key)\")"
            case .instant: return "f.\(named("instant"))(\"\(key)\")"
            case .date: return "f.\(named("date"))(\"\(key)\")"
            case .strings: return "f.\(named("strings"))(\"\(key)\")"
            case .stringMap: return "f.\(named("stringMap"))(\"\(key)\")"
            case .enumeration(let type): return "f.\(named("enumeration"))(\"\(key)\", as: \(type).self)"
            case .enumerations(let type): return "f.\(named("enumerations"))(\"\(key)\", as: \(type).self)"
            }
        }

        /// `JSONDirectReader`'s reader: `r.string()`; nil when the shape has none.
        var directRead: String? {
            switch self {
            case .string: "r.string()"
            case .int: "r.int()"
            case .double: nil
            case .bool: "r.bool()"
            case .instant: "r.instant()"
            case .date: "r.date()"
            case .strings: "r.strings()"
            case .stringMap: "r.stringMap()"
            case .enumeration(let type): "r.enumeration(\(type).rawValues)"
            case .enumerations(let type): "r.enumerations(\(type).rawValues)"
            }
        }

        /// Passes over the value without making it: true when it has the shape.
        var directSkip: String? {
            switch self {
            case .string, .instant, .date, .enumeration: "r.skipString()"
            case .int: "r.int() != nil"
            case .double: nil
            case .bool: "r.bool() != nil"
            case .strings, .enumerations: "r.skipStrings()"
            case .stringMap: "r.skipStringMap()"
            }
        }
    }

    private mutating func line(_ text: String) {
        lines.append(text.isEmpty ? "" : record.indent + String(repeating: "    ", count: level) + text)
    }

    private mutating func block(_ header: String, _ footer: String = "}", _ body: (inout Self) -> Void) {
        line(header)
        level += 1
        body(&self)
        level -= 1
        line(footer)
    }

    private var fields: [RecordDeclaration.Field] { record.fields }
    private var readsByRule: Bool { !record.readOnlyKeys.isEmpty || fields.contains { $0.ifAbsent != nil } }
    /// Every key a reader accepts, in canonical (sorted) order, with its type.
    private var sortedKeys: [(name: String, type: String)] {
        (fields.map { ($0.name, $0.type) } + record.readOnlyKeys.map { ($0.name, $0.type) })
            .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
    }
    private var sortedFields: [RecordDeclaration.Field] {
        fields.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The lines of the generated part, marker first.
    mutating func body() -> [String] {
        line(GeneratedRegion.begin)
        line("")
        memberwiseInitializer()
        line("")
        lineReader()
        if !record.options.contains("read") {
            line("")
            lineWriter()
        }
        if record.options.contains("direct") || record.options.contains("id") {
            line("")
            line("static let jsonKeys = JSONDirectReader.keyTable([")
            level += 1
            for chunk in chunks(sortedKeys.map { "\"\($0.name)\"," }) { line(chunk) }
            level -= 1
            line("])")
        }
        if record.options.contains("direct") {
            line("")
            directReader()
        }
        if record.options.contains("id") {
            line("")
            directIdReader()
        }
        if record.options.contains("codable") {
            line("")
            codable()
        }
        line("")
        line(GeneratedRegion.end)
        return lines
    }

    /// Comma-separated items packed into lines of at most about 110 characters.
    private func chunks(_ items: [String]) -> [String] {
        var out: [String] = []
        var current = ""
        for item in items {
            if !current.isEmpty, current.count + item.count + 1 > 110 {
                out.append(current)
                current = ""
            }
            current += current.isEmpty ? item : " " + item
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    private func parameter(_ field: RecordDeclaration.Field) -> String {
        if let value = field.defaultValue { return "\(field.name): \(field.type) = \(value)," }
        return field.isOptional ? "\(field.name): \(field.type) = nil," : "\(field.name): \(field.type),"
    }

    /// Every argument as `name: name`, in declaration order.
    private var passAll: [String] { fields.map { "\($0.name): \($0.name)," } }

    private mutating func arguments(_ items: [String]) {
        var items = items
        if let last = items.popLast() { items.append(String(last.dropLast())) }
        for chunk in chunks(items) { line(chunk) }
    }

    private mutating func memberwiseInitializer() {
        line("public init(")
        level += 1
        arguments(fields.map(parameter))
        level -= 1
        block(") {") { w in
            for chunk in w.chunks(w.fields.map { "self.\($0.name) = \($0.name);" }) { w.line(String(chunk.dropLast())) }
            if w.record.options.contains("normalized") { w.line("normalize()") }
        }
    }

    /// `init(json:codingPath:)`: every field read in declaration order (so a record with several problems
    /// reports the first declared), through `JSONFields`, whose errors are Codable's.
    private mutating func lineReader() {
        block("public init(json: JSONValue, codingPath: [any CodingKey]) throws {") { w in
            w.line("let f = try JSONFields(json, codingPath: codingPath)")
            guard w.readsByRule else {
                w.line("try self.init(")
                w.level += 1
                w.arguments(
                    w.fields.map { "\($0.name): \(Shape($0.baseType).fieldsRead($0.name, optional: $0.isOptional))," })
                w.level -= 1
                w.line(")")
                return
            }
            w.readThenInitialize(
                read: { name, type, optional in "try \(Shape(type).fieldsRead(name, optional: optional))" },
                missing: { ["throw f.missing(\"\($0)\")"] })
        }
    }

    /// Every field into a local, in declaration order (an `if absent:` one, and the keys only read, as
    /// optionals), then the `if absent:` rules (or `missing`'s lines when one gives nil too), then the
    /// initializer with them all.
    private mutating func readThenInitialize(
        read: (_ name: String, _ type: String, _ optional: Bool) -> String, missing: (String) -> [String]
    ) {
        for field in fields {
            line("let \(field.name) = \(read(field.name, field.baseType, field.isOptional || field.ifAbsent != nil))")
        }
        for key in record.readOnlyKeys { line("let \(key.name) = \(read(key.name, key.type, true))") }
        for field in fields {
            guard let rule = field.ifAbsent else { continue }
            block("guard let \(field.name) = \(field.name) ?? (\(rule)) else {") { w in
                for text in missing(field.name) { w.line(text) }
            }
        }
        line("self.init(")
        level += 1
        arguments(passAll)
        level -= 1
        line(")")
    }

    /// `write(to:)`: the canonical line, keys in sorted order, absent optionals left out.
    private mutating func lineWriter() {
        block("public func write(to w: inout JSONWriter) {") { w in
            w.line("w.beginObject()")
            for field in w.sortedFields {
                if field.omittedWhenEmpty {
                    w.line("if let \(field.name), !\(field.name).isEmpty { w.field(\"\(field.name)\", \(field.name)) }")
                } else {
                    w.line("w.field(\"\(field.name)\", \(field.name))")
                }
            }
            w.line("w.endObject()")
        }
    }

    /// `directlyDecoded(_:)`: the record read from its line's bytes, or nil to read it the general way.
    private mutating func directReader() {
        block("public static func directlyDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> Self? {") { w in
            w.line("guard var r = JSONDirectReader(bytes), r.beginObject() else { return nil }")
            let keys = w.sortedKeys
            let declarations = keys.map { "\($0.name): \($0.type.hasSuffix("?") ? $0.type : $0.type + "?")," }
            for chunk in w.chunks(declarations) { w.line("var " + String(chunk.dropLast())) }
            w.line("var next = 0")
            w.block("while let key = r.nextKey() {") { w in
                w.line("guard let field = r.index(of: key, in: jsonKeys, from: &next) else { return nil }")
                w.line("switch field {")
                for (index, key) in keys.enumerated() {
                    let optional = key.type.hasSuffix("?")
                    let shape = Shape(optional ? String(key.type.dropLast()) : key.type)
                    let read = shape.directRead ?? "nil"
                    w.line(optional ? "case \(index): if !r.null() { \(key.name) = \(read) }" : "case \(index): \(key.name) = \(read)")
                }
                w.line("default: return nil")
                w.line("}")
                w.line("if r.failed { return nil }")
            }
            var conditions = ["!r.failed"]
            for field in w.fields where !field.isOptional {
                if let rule = field.ifAbsent {
                    conditions.append("let \(field.name) = \(field.name) ?? (\(rule))")
                } else {
                    conditions.append("let \(field.name)")
                }
            }
            w.line("guard")
            w.level += 1
            var items = conditions.map { $0 + "," }
            items[items.count - 1].removeLast()
            for chunk in w.chunks(items) { w.line(chunk) }
            w.level -= 1
            w.line("else { return nil }")
            w.line("return Self(")
            w.level += 1
            w.arguments(w.passAll)
            w.level -= 1
            w.line(")")
        }
    }

    /// `directId(_:)`: only the id read, every other member passed over with its shape checked.
    private mutating func directIdReader() {
        block("public static func directId(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {") { w in
            w.line("guard var r = JSONDirectReader(bytes), r.beginObject() else { return nil }")
            w.line("var next = 0")
            w.line("var id: String?")
            w.block("while let key = r.nextKey() {") { w in
                w.line("guard let field = r.index(of: key, in: jsonKeys, from: &next) else { return nil }")
                w.line("let passed: Bool")
                w.line("switch field {")
                var groups: [(skip: String, indices: [Int])] = []
                for (index, key) in w.sortedKeys.enumerated() {
                    if key.name == "id" {
                        w.line("case \(index): id = r.string(); passed = id != nil")
                        continue
                    }
                    let optional = key.type.hasSuffix("?")
                    let base = Shape(optional ? String(key.type.dropLast()) : key.type).directSkip ?? "false"
                    let skip = optional ? "r.null() || \(base)" : base
                    if let at = groups.firstIndex(where: { $0.skip == skip }) {
                        groups[at].indices.append(index)
                    } else {
                        groups.append((skip, [index]))
                    }
                }
                for group in groups {
                    w.line("case \(group.indices.map(String.init).joined(separator: ", ")): passed = \(group.skip)")
                }
                w.line("default: return nil")
                w.line("}")
                w.line("if !passed { return nil }")
            }
            w.line("return r.failed ? nil : id")
        }
    }

    /// Codable, for a record whose codec notes synthesized Codable would not honour.
    private mutating func codable() {
        block("private enum CodingKeys: String, CodingKey {") { w in
            for chunk in w.chunks((w.fields.map(\.name) + w.record.readOnlyKeys.map(\.name)).map { $0 + "," }) {
                w.line("case " + String(chunk.dropLast(chunk.hasSuffix(",") ? 1 : 0)))
            }
        }
        line("")
        block("public init(from decoder: Decoder) throws {") { w in
            w.line("let c = try decoder.container(keyedBy: CodingKeys.self)")
            w.readThenInitialize(
                read: { name, type, optional in "try c.\(optional ? "decodeIfPresent" : "decode")(\(type).self, forKey: .\(name))" },
                missing: { name in
                    [
                        "throw DecodingError.keyNotFound(", "    CodingKeys.\(name),",
                        "    .init(codingPath: c.codingPath, debugDescription: \"No value associated with key \(name).\"))",
                    ]
                })
        }
        line("")
        block("public func encode(to encoder: Encoder) throws {") { w in
            w.line("var c = encoder.container(keyedBy: CodingKeys.self)")
            for field in w.fields {
                if field.omittedWhenEmpty {
                    w.line("if let \(field.name), !\(field.name).isEmpty { try c.encode(\(field.name), forKey: .\(field.name)) }")
                } else if field.isOptional {
                    w.line("try c.encodeIfPresent(\(field.name), forKey: .\(field.name))")
                } else {
                    w.line("try c.encode(\(field.name), forKey: .\(field.name))")
                }
            }
        }
    }
}
