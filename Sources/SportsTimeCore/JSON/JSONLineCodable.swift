import Foundation

/// A record with a hand-written canonical line: read from a parsed `JSONValue` and written straight into
/// a `JSONWriter`, without Codable. The stages' big record types (raw games, games, lineage) conform;
/// `Envelope` and `EnvelopeReader` use it when a record type has it and Codable (through
/// `JSONValueEncoder`/`JSONValueDecoder`) otherwise.
///
/// A conformer must write exactly the bytes its `Encodable` conformance would (keys in sorted order,
/// absent optionals left out) and read whatever that writes; `JSONLineCodableTests` checks both on every
/// committed artifact.
public protocol JSONLineCodable: JSONLineDecodable {
    func write(to writer: inout JSONWriter)
}

/// A record read from a parsed `JSONValue` without Codable, accepting and refusing exactly what its
/// `Decodable` conformance does (with the same errors). `JSONLineCodable` adds the hand-written line; a
/// type that is only read this way (`Stadium`, whose writing refuses a coordinate that is not a finite
/// number, which a line writer cannot do) is still written through Codable.
public protocol JSONLineDecodable {
    init(json: JSONValue, codingPath: [any CodingKey]) throws
}

/// The members of one JSON object, read by key with `DecodingError`s that name the coding path (so a bad
/// record is reported the same way whichever path read it).
public struct JSONFields {
    public let members: [JSONMember]
    public let codingPath: [any CodingKey]

    public init(_ value: JSONValue, codingPath: [any CodingKey]) throws {
        guard case .members(let members) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: codingPath,
                    debugDescription: "Expected to decode Dictionary<String, Any> but found \(value.typeName) instead."))
        }
        self.members = members
        self.codingPath = codingPath
    }

    /// The value of `key`, nil when absent (members are sorted: a binary search).
    public func value(_ key: String) -> JSONValue? {
        JSONValue.member(key, in: members)
    }

    private func path(_ key: String) -> [any CodingKey] { codingPath + [AnyCodingKey(key)] }

    /// The error of a required key that is absent.
    public func missing(_ key: String) -> DecodingError {
        .keyNotFound(AnyCodingKey(key), .init(codingPath: codingPath, debugDescription: "No value associated with key \(key)."))
    }

    private func required(_ key: String) throws -> JSONValue {
        guard let value = value(key) else { throw missing(key) }
        return value
    }

    private func mismatch<T>(_ type: T.Type, _ key: String, _ value: JSONValue) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: path(key), debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(
            type, .init(codingPath: path(key), debugDescription: "Expected to decode \(type) but found \(value.typeName) instead."))
    }

    /// Absent or null: nil.
    private func optional(_ key: String) -> JSONValue? {
        guard let value = value(key) else { return nil }
        if case .null = value { return nil }
        return value
    }

    public func string(_ key: String) throws -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw mismatch(String.self, key, value) }
        return text
    }

    public func optionalString(_ key: String) throws -> String? {
        guard let value = optional(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(String.self, key, value) }
        return text
    }

    public func int(_ key: String) throws -> Int {
        try integer(key, try required(key))
    }

    public func optionalInt(_ key: String) throws -> Int? {
        guard let value = optional(key) else { return nil }
        return try integer(key, value)
    }

    private func integer(_ key: String, _ value: JSONValue) throws -> Int {
        guard case .number(let text) = value else { throw mismatch(Int.self, key, value) }
        guard let number = Int(text) ?? Double(text).flatMap({ Int(exactly: $0) }) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(key), debugDescription: "Number \(text) is not representable in Swift."))
        }
        return number
    }

    public func double(_ key: String) throws -> Double {
        let value = try required(key)
        guard case .number(let text) = value, let number = Double(text) else { throw mismatch(Double.self, key, value) }
        return number
    }

    public func bool(_ key: String) throws -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, key, value) }
        return flag
    }

    public func optionalBool(_ key: String) throws -> Bool? {
        guard let value = optional(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, key, value) }
        return flag
    }

    public func instant(_ key: String) throws -> Instant {
        try parsedInstant(key, try string(key))
    }

    public func optionalInstant(_ key: String) throws -> Instant? {
        try optionalString(key).map { try parsedInstant(key, $0) }
    }

    private func parsedInstant(_ key: String, _ text: String) throws -> Instant {
        guard let instant = Instant(iso8601: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(key), debugDescription: "'\(text)' is not an ISO-8601 instant like 2026-06-12T23:05:00Z"))
        }
        return instant
    }

    public func date(_ key: String) throws -> LocalDate {
        try parsedDate(key, try string(key))
    }

    public func optionalDate(_ key: String) throws -> LocalDate? {
        try optionalString(key).map { try parsedDate(key, $0) }
    }

    private func parsedDate(_ key: String, _ text: String) throws -> LocalDate {
        guard let date = LocalDate(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(key), debugDescription: "'\(text)' is not a date like 2026-06-12"))
        }
        return date
    }

    public func enumeration<E: RawRepresentable>(_ key: String, as type: E.Type) throws -> E where E.RawValue == String {
        try parsedEnumeration(key, try string(key), type)
    }

    public func optionalEnumeration<E: RawRepresentable>(_ key: String, as type: E.Type) throws -> E? where E.RawValue == String {
        try optionalString(key).map { try parsedEnumeration(key, $0, type) }
    }

    private func parsedEnumeration<E: RawRepresentable>(_ key: String, _ text: String, _ type: E.Type) throws -> E
    where E.RawValue == String {
        guard let value = E(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(key), debugDescription: "Cannot initialize \(E.self) from invalid String value \(text)"))
        }
        return value
    }

    /// An array of a string enumeration's raw values.
    public func optionalEnumerations<E: RawRepresentable>(_ key: String, as type: E.Type) throws -> [E]? where E.RawValue == String {
        try optionalStrings(key)?.map { try parsedEnumeration(key, $0, type) }
    }

    public func optionalStrings(_ key: String) throws -> [String]? {
        guard let value = optional(key) else { return nil }
        guard case .array(let items) = value else { throw mismatch([String].self, key, value) }
        var strings: [String] = []
        strings.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                let itemPath = path(key) + [AnyCodingKey(intValue: index)]
                throw DecodingError.typeMismatch(
                    String.self,
                    .init(codingPath: itemPath, debugDescription: "Expected to decode String but found \(item.typeName) instead."))
            }
            strings.append(text)
        }
        return strings
    }

    public func strings(_ key: String) throws -> [String] {
        _ = try required(key)
        return try optionalStrings(key) ?? []
    }

    public func stringMap(_ key: String) throws -> [String: String] {
        let value = try required(key)
        guard case .members(let members) = value else { throw mismatch([String: String].self, key, value) }
        var map: [String: String] = [:]
        map.reserveCapacity(members.count)
        for member in members {
            guard case .string(let text) = member.value else {
                let memberPath = path(key) + [AnyCodingKey(member.key)]
                throw DecodingError.typeMismatch(
                    String.self,
                    .init(codingPath: memberPath, debugDescription: "Expected to decode String but found \(member.value.typeName) instead.")
                )
            }
            map[member.key] = text
        }
        return map
    }

    /// An array of objects read by a line-codable type.
    public func objects<T: JSONLineCodable>(_ key: String, as type: T.Type) throws -> [T] {
        let value = try required(key)
        guard case .array(let items) = value else { throw mismatch([T].self, key, value) }
        return try items.enumerated().map { try T(json: $1, codingPath: path(key) + [AnyCodingKey(intValue: $0)]) }
    }

    public func objectMap<T: JSONLineCodable>(_ key: String, as type: T.Type) throws -> [String: T] {
        let value = try required(key)
        guard case .members(let members) = value else { throw mismatch([String: T].self, key, value) }
        var map: [String: T] = [:]
        for member in members { map[member.key] = try T(json: member.value, codingPath: path(key) + [AnyCodingKey(member.key)]) }
        return map
    }
}

extension JSONWriter {
    public mutating func field(_ name: StaticString, _ value: Instant?) { if let value { field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: LocalDate?) { if let value { field(name, value) } }
    public mutating func field<E: RawRepresentable>(_ name: StaticString, _ value: E) where E.RawValue == String {
        field(name, value.rawValue)
    }
    public mutating func field<E: RawRepresentable>(_ name: StaticString, _ value: E?) where E.RawValue == String {
        if let value { field(name, value) }
    }
    /// An array of a string enumeration's values, written as their raw values.
    public mutating func field<E: RawRepresentable>(_ name: StaticString, _ values: [E]?) where E.RawValue == String {
        field(name, values) { $0.rawValue }
    }
}

// MARK: - Records with a hand-written line
//
// The records declared with `// codec:` have their line generated (`make records`); a lineage keeps its
// own, which writes the origins shared by every game of one record once.

extension GameLineage: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            id: try f.string("id"), formerIds: try f.optionalStrings("formerIds"),
            rows: try f.objects("rows", as: LineageRow.self), fields: FieldOrigins(try f.objectMap("fields", as: FieldOrigin.self)))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("fields")
        // A game of one record (nearly every game) has the one origin of every such game: written once.
        if fields == .onlySource { w.encoded(FieldOrigins.onlySourceJSON) } else { fields.write(to: &w) }
        w.field("formerIds", formerIds)
        w.field("id", id)
        w.key("rows")
        w.beginArray()
        for row in rows { row.write(to: &w) }
        w.endArray()
        w.endObject()
    }
}

extension FieldOrigins {
    /// The object of field group → origin, in key order.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        for entry in self {
            w.key(entry.key)
            entry.value.write(to: &w)
        }
        w.endObject()
    }

    /// `onlySource` as written.
    static let onlySourceJSON: [UInt8] = {
        var w = JSONWriter()
        FieldOrigins.onlySource.write(to: &w)
        return w.bytes
    }()
}
