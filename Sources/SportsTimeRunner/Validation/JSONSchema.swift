import Foundation
import SportsTimeCore

/// The subset of JSON Schema (2020-12) that `pipeline/schemas/` uses: `type`, `properties`, `required`,
/// `additionalProperties`, `items`, `enum`, `const`, `pattern`, `minimum`, `maximum`, `minLength`,
/// `minItems`, `format` (`date`, `date-time`), `anyOf`, and local `$ref` into `$defs`. A keyword outside this
/// subset is an error when the schema is loaded, so a schema never silently checks less than it says.
public final class JSONSchema: Sendable {
    let types: [String]?
    let properties: [String: JSONSchema]
    let required: [String]
    let additionalProperties: Additional
    let items: JSONSchema?
    let enumValues: [JSONValue]?
    let constValue: JSONValue?
    let pattern: SchemaPattern?
    let minimum: Double?
    let maximum: Double?
    let minLength: Int?
    let minItems: Int?
    let format: Format?
    let reference: String?
    /// `anyOf`: the value must match at least one of these.
    let anyOf: [JSONSchema]?
    let definitions: [String: JSONSchema]
    /// `properties` sorted by name, for a stable order of messages without sorting each object.
    let sortedProperties: [(name: String, schema: JSONSchema)]
    /// `types` as a bit set of `JSONValue.typeBit`s (integer accepted as its own bit).
    let typeMask: UInt8?
    /// For each `required` key, its index in `sortedProperties` (nil when it is not a property), so an
    /// object's required keys are checked from the walk over its members without looking each one up.
    let requiredIndices: [Int?]

    enum Additional: Sendable {
        case allowed
        case forbidden
        case schema(JSONSchema)
    }

    enum Format: String, Sendable {
        case date
        case dateTime = "date-time"
    }

    /// Why a schema cannot be used; `path` is the keyword's location in the schema document.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    static let annotationKeywords: Set<String> = ["$schema", "$id", "$comment", "title", "description", "examples"]
    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "pattern",
        "minimum", "maximum", "minLength", "minItems", "format", "$ref", "$defs", "anyOf",
    ]

    /// Loads a schema document.
    public convenience init(parsing data: Data) throws {
        let value: JSONValue
        do { value = try JSONParser.parse(data) } catch let error as JSONSyntaxError {
            throw Problem(path: "", message: "line \(error.line):\(error.column): \(error.message)")
        }
        try self.init(value, at: "#")
    }

    init(_ value: JSONValue, at path: String) throws {
        guard let object = value.objectValue else {
            if value == .bool(true) {
                types = nil; properties = [:]; required = []; additionalProperties = .allowed; items = nil
                enumValues = nil; constValue = nil; pattern = nil; minimum = nil; maximum = nil; minLength = nil
                minItems = nil; format = nil; reference = nil; anyOf = nil; definitions = [:]
                sortedProperties = []; typeMask = nil; requiredIndices = []
                return
            }
            throw Problem(path: path, message: "a schema must be an object or true")
        }
        for key in object.keys.sorted() where !Self.keywords.contains(key) && !Self.annotationKeywords.contains(key) {
            throw Problem(path: path, message: "keyword '\(key)' is not supported by the runner's validator")
        }
        let keywords = Keywords(object: object, path: path)
        let types = try keywords.types()
        self.types = types
        let properties = try keywords.schemas("properties")
        self.properties = properties
        required = try keywords.strings("required") ?? []
        additionalProperties = try keywords.additionalProperties()
        items = try object["items"].map { try JSONSchema($0, at: "\(path)/items") }
        enumValues = try keywords.enumValues()
        constValue = object["const"]
        pattern = try keywords.pattern()
        minimum = try keywords.number("minimum")
        maximum = try keywords.number("maximum")
        minLength = try keywords.number("minLength").map(Int.init)
        minItems = try keywords.number("minItems").map(Int.init)
        format = try keywords.format()
        reference = try keywords.reference()
        anyOf = try keywords.anyOf()
        definitions = try keywords.schemas("$defs")
        sortedProperties = properties.keys.sorted().map { ($0, properties[$0]!) }
        let sortedNames = sortedProperties.map(\.name)
        requiredIndices = required.map { sortedNames.firstIndex(of: $0) }
        typeMask = types.map { names in names.reduce(UInt8(0)) { $0 | JSONValue.typeBit(named: $1) } }
    }

    /// The keywords of one schema object, each read and checked; `path` is the object's location.
    private struct Keywords {
        let object: [String: JSONValue]
        let path: String

        func strings(_ key: String) throws -> [String]? {
            guard let entry = object[key] else { return nil }
            if let single = entry.stringValue { return [single] }
            guard let list = entry.arrayValue else { throw Problem(path: "\(path)/\(key)", message: "expected a string or a list") }
            return try list.map {
                guard let text = $0.stringValue else { throw Problem(path: "\(path)/\(key)", message: "expected strings") }
                return text
            }
        }

        func number(_ key: String) throws -> Double? {
            guard let entry = object[key] else { return nil }
            guard let value = entry.doubleValue else { throw Problem(path: "\(path)/\(key)", message: "expected a number") }
            return value
        }

        func schemas(_ key: String) throws -> [String: JSONSchema] {
            guard let entry = object[key] else { return [:] }
            guard let map = entry.objectValue else { throw Problem(path: "\(path)/\(key)", message: "expected an object") }
            var result: [String: JSONSchema] = [:]
            for (name, child) in map { result[name] = try JSONSchema(child, at: "\(path)/\(key)/\(name)") }
            return result
        }

        func types() throws -> [String]? {
            let knownTypes: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]
            let types = try strings("type")
            for type in types ?? [] where !knownTypes.contains(type) {
                throw Problem(path: "\(path)/type", message: "unknown type '\(type)'")
            }
            return types
        }

        func additionalProperties() throws -> Additional {
            switch object["additionalProperties"] {
            case nil, .bool(true)?: return .allowed
            case .bool(false)?: return .forbidden
            case let schema?: return .schema(try JSONSchema(schema, at: "\(path)/additionalProperties"))
            }
        }

        func enumValues() throws -> [JSONValue]? {
            guard let list = object["enum"] else { return nil }
            guard let values = list.arrayValue else { throw Problem(path: "\(path)/enum", message: "expected a list") }
            return values
        }

        func pattern() throws -> SchemaPattern? {
            guard let source = object["pattern"] else { return nil }
            guard let text = source.stringValue else { throw Problem(path: "\(path)/pattern", message: "expected a string") }
            do { return try SchemaPattern(text) } catch let problem as SchemaPattern.Problem {
                throw Problem(path: "\(path)/pattern", message: "pattern '\(text)': \(problem.message)")
            }
        }

        func format() throws -> Format? {
            guard let name = object["format"] else { return nil }
            guard let text = name.stringValue, let known = Format(rawValue: text) else {
                throw Problem(path: "\(path)/format", message: "only formats 'date' and 'date-time' are supported")
            }
            return known
        }

        func reference() throws -> String? {
            guard let ref = object["$ref"] else { return nil }
            guard let text = ref.stringValue, text.hasPrefix("#/$defs/") else {
                throw Problem(path: "\(path)/$ref", message: "only local references '#/$defs/NAME' are supported")
            }
            return String(text.dropFirst("#/$defs/".count))
        }

        func anyOf() throws -> [JSONSchema]? {
            guard let list = object["anyOf"] else { return nil }
            guard let alternatives = list.arrayValue, !alternatives.isEmpty else {
                throw Problem(path: "\(path)/anyOf", message: "expected a non-empty list of schemas")
            }
            return try alternatives.enumerated().map { try JSONSchema($0.element, at: "\(path)/anyOf/\($0.offset)") }
        }
    }

    /// Checks every `$ref` names a definition of `root`.
    func checkReferences(root: JSONSchema, at path: String = "#") throws {
        if let reference, root.definitions[reference] == nil {
            throw Problem(path: path, message: "$ref to unknown definition '\(reference)'")
        }
        for (name, child) in properties { try child.checkReferences(root: root, at: "\(path)/properties/\(name)") }
        for (name, child) in definitions { try child.checkReferences(root: root, at: "\(path)/$defs/\(name)") }
        try items?.checkReferences(root: root, at: "\(path)/items")
        for (index, child) in (anyOf ?? []).enumerated() { try child.checkReferences(root: root, at: "\(path)/anyOf/\(index)") }
        if case .schema(let child) = additionalProperties { try child.checkReferences(root: root, at: "\(path)/additionalProperties") }
    }
}

/// One place where a document does not match its schema.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// `records[3].startUTC`; empty for the document itself.
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Validates documents against a loaded schema.
public struct SchemaValidator: Sendable {
    public let root: JSONSchema

    public init(schema data: Data) throws {
        root = try JSONSchema(parsing: data)
        try root.checkReferences(root: root)
    }

    /// Up to `limit` violations, in document order of the paths visited.
    public func violations(of value: JSONValue, limit: Int = 20) -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        var path: [PathStep] = []
        check(value, root, path: &path, found: &found, limit: limit)
        return found
    }

    /// One step of the path to a value; the path is spelled out only for a violation.
    enum PathStep {
        case key(String)
        case index(Int)
    }

    static func text(of path: [PathStep]) -> String {
        var text = ""
        for step in path {
            switch step {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    private func check(_ value: JSONValue, _ schema: JSONSchema, path: inout [PathStep], found: inout [SchemaViolation], limit: Int) {
        guard found.count < limit else { return }
        func fail(_ message: String) {
            if found.count < limit { found.append(SchemaViolation(path: Self.text(of: path), message: message)) }
        }
        if let reference = schema.reference, let target = root.definitions[reference] {
            check(value, target, path: &path, found: &found, limit: limit)
        }
        if let mask = schema.typeMask, mask & value.typeBits == 0 {
            fail("expected \(schema.types!.joined(separator: " or ")), found \(value.typeName) \(Self.shown(value))")
            return
        }
        if let constValue = schema.constValue, value != constValue {
            fail("expected \(constValue.compactText), found \(Self.shown(value))")
        }
        if let values = schema.enumValues, !values.contains(value) {
            fail("\(Self.shown(value)) is not one of \(values.map(\.compactText).joined(separator: ", "))")
        }
        if let alternatives = schema.anyOf, let reasons = noneMatched(value, alternatives) {
            fail("matches none of the allowed forms: \(reasons.joined(separator: "; or "))")
        }
        switch value {
        case .string(let text):
            if let minLength = schema.minLength, Self.isShorter(text, than: minLength) { fail("shorter than \(minLength) characters") }
            if let pattern = schema.pattern, !pattern.matches(text) {
                fail("\(Self.shown(value)) does not match pattern \(pattern.source)")
            }
            if let format = schema.format, !Self.matches(text, format) {
                fail("\(Self.shown(value)) is not a \(format == .date ? "date like 2026-06-12" : "UTC instant like 2026-06-12T23:05:00Z")")
            }
        case .number:
            if schema.minimum != nil || schema.maximum != nil, let number = value.doubleValue {
                if let minimum = schema.minimum, number < minimum {
                    fail("\(Self.shown(value)) is less than the minimum \(Self.plain(minimum))")
                }
                if let maximum = schema.maximum, number > maximum {
                    fail("\(Self.shown(value)) is more than the maximum \(Self.plain(maximum))")
                }
            }
        case .array(let elements):
            if let minItems = schema.minItems, elements.count < minItems { fail("has \(elements.count) items, fewer than \(minItems)") }
            if let items = schema.items {
                for (index, element) in elements.enumerated() {
                    path.append(.index(index))
                    check(element, items, path: &path, found: &found, limit: limit)
                    path.removeLast()
                    if found.count >= limit { return }
                }
            }
        case .members(let members):
            checkMembers(members, of: value, schema, path: &path, found: &found, limit: limit)
        default:
            break
        }
    }

    /// Each alternative on its own: nil when one has no violation, else why each does not match.
    private func noneMatched(_ value: JSONValue, _ alternatives: [JSONSchema]) -> [String]? {
        var reasons: [String] = []
        for alternative in alternatives {
            var own: [SchemaViolation] = []
            var ownPath: [PathStep] = []
            check(value, alternative, path: &ownPath, found: &own, limit: 1)
            guard let first = own.first else { return nil }
            reasons.append(first.description)
        }
        return reasons.isEmpty ? nil : reasons
    }

    /// An object's members against `properties`, `required` and `additionalProperties`.
    private func checkMembers(
        _ members: [JSONMember], of value: JSONValue, _ schema: JSONSchema, path: inout [PathStep],
        found: inout [SchemaViolation], limit: Int
    ) {
        // Both lists are sorted by key: walk them together.
        let properties = schema.sortedProperties
        var p = 0
        var unknown: [JSONMember] = []
        // The properties present, as bits of their sorted index (when there are at most 64 of them).
        var present: UInt64 = 0
        for member in members {
            while p < properties.count && properties[p].name < member.key { p += 1 }
            if p < properties.count && properties[p].name == member.key {
                if p < 64 { present |= 1 << UInt64(p) }
                path.append(.key(member.key))
                check(member.value, properties[p].schema, path: &path, found: &found, limit: limit)
                path.removeLast()
            } else {
                unknown.append(member)
            }
        }
        for (key, index) in zip(schema.required, schema.requiredIndices) {
            let isPresent = if let index, index < 64 { present & (1 << UInt64(index)) != 0 } else { value[key] != nil }
            if !isPresent, found.count < limit {
                found.append(SchemaViolation(path: Self.text(of: path), message: "missing required field '\(key)'"))
            }
        }
        for member in unknown {
            switch schema.additionalProperties {
            case .allowed: break
            case .forbidden:
                if found.count < limit {
                    found.append(SchemaViolation(path: Self.text(of: path), message: "unknown field '\(member.key)'"))
                }
            case .schema(let child):
                path.append(.key(member.key))
                check(member.value, child, path: &path, found: &found, limit: limit)
                path.removeLast()
            }
        }
    }

    /// Whether `text` has fewer than `length` characters, without counting them when the bytes decide
    /// (a character is at least one byte; `minLength: 1` is a test for empty text).
    static func isShorter(_ text: String, than length: Int) -> Bool {
        if length <= 0 { return false }
        if length == 1 { return text.isEmpty }
        return text.utf8.count < length || text.count < length
    }

    private static func shown(_ value: JSONValue) -> String {
        let text = value.compactText
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    private static func plain(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// `YYYY-MM-DD` with a real month and day; date-time is `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds).
    static func matches(_ text: String, _ format: JSONSchema.Format) -> Bool {
        var text = text
        return text.withUTF8 { matches($0, format) }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ format: JSONSchema.Format) -> Bool {
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        func isDate() -> Bool {
            guard bytes.count >= 10, let year = digits(0..<4), bytes[4] == 0x2D, let month = digits(5..<7),
                bytes[7] == 0x2D, let day = digits(8..<10), (1...12).contains(month), day >= 1
            else { return false }
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            return day <= lengths[month - 1]
        }
        switch format {
        case .date:
            return bytes.count == 10 && isDate()
        case .dateTime:
            guard bytes.count == 20, isDate(), bytes[10] == UInt8(ascii: "T"), let hour = digits(11..<13),
                bytes[13] == 0x3A, let minute = digits(14..<16), bytes[16] == 0x3A, let second = digits(17..<19),
                bytes[19] == UInt8(ascii: "Z")
            else { return false }
            return hour < 24 && minute < 60 && second < 60
        }
    }
}
