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

    private func required(_ key: String) throws -> JSONValue {
        guard let value = value(key) else {
            throw DecodingError.keyNotFound(
                AnyCodingKey(key), .init(codingPath: codingPath, debugDescription: "No value associated with key \(key)."))
        }
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

    /// A nested object or array of objects read by a line-codable type.
    public func object<T: JSONLineCodable>(_ key: String, as type: T.Type) throws -> T {
        try T(json: try required(key), codingPath: path(key))
    }

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
    /// A nested line-codable record.
    public mutating func field<T: JSONLineCodable>(_ name: StaticString, record: T) { key(name); record.write(to: &self) }
}

// MARK: - The hot record types

extension RawGame: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            id: try f.string("id"), source: try f.string("source"), sport: try f.string("sport"),
            season: try f.string("season"), kind: try f.enumeration("kind", as: GameKind.self),
            sourceGameId: try f.optionalString("sourceGameId"), homeTeam: try f.string("homeTeam"),
            awayTeam: try f.string("awayTeam"), venue: try f.optionalString("venue"), city: try f.optionalString("city"),
            startUTC: try f.optionalInstant("startUTC"), date: try f.date("date"), dateZone: try f.string("dateZone"),
            localTime: try f.optionalString("localTime"), timeTBD: try f.bool("timeTBD"),
            gameNumber: try f.optionalInt("gameNumber"), status: try f.enumeration("status", as: GameStatus.self),
            makeupDate: try f.optionalDate("makeupDate"), neutralSite: try f.optionalBool("neutralSite"),
            provenance: try f.string("provenance"), dayNight: try f.optionalString("dayNight"),
            inferred: try f.optionalEnumerations("inferred", as: InferredField.self))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("awayTeam", awayTeam)
        w.field("city", city)
        w.field("date", date)
        w.field("dateZone", dateZone)
        w.field("dayNight", dayNight)
        w.field("gameNumber", gameNumber)
        w.field("homeTeam", homeTeam)
        w.field("id", id)
        w.field("inferred", inferred)
        w.field("kind", kind)
        w.field("localTime", localTime)
        w.field("makeupDate", makeupDate)
        w.field("neutralSite", neutralSite)
        w.field("provenance", provenance)
        w.field("season", season)
        w.field("source", source)
        w.field("sourceGameId", sourceGameId)
        w.field("sport", sport)
        w.field("startUTC", startUTC)
        w.field("status", status)
        w.field("timeTBD", timeTBD)
        w.field("venue", venue)
        w.endObject()
    }
}

extension Game: JSONLineCodable {
    /// Reads version 2, and version 1 records (`timeTBD` instead of `startKnowledge`), like `init(from:)`.
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        let startUTC = try f.optionalInstant("startUTC")
        let knowledge: StartKnowledge
        if let stated = try f.optionalEnumeration("startKnowledge", as: StartKnowledge.self) {
            knowledge = stated
        } else {
            knowledge = try f.bool("timeTBD") || startUTC == nil ? .unknown : .exact
        }
        self.init(
            id: try f.string("id"), sport: try f.string("sport"), season: try f.string("season"),
            kind: try f.enumeration("kind", as: GameKind.self), startUTC: startUTC, localDate: try f.date("localDate"),
            startKnowledge: knowledge, homeTeamId: try f.string("homeTeamId"), awayTeamId: try f.string("awayTeamId"),
            stadiumId: try f.string("stadiumId"), neutralSite: try f.bool("neutralSite"),
            gameNumber: try f.optionalInt("gameNumber"), status: try f.enumeration("status", as: GameStatus.self),
            makeupDate: try f.optionalDate("makeupDate"), sourceIds: try f.stringMap("sourceIds"),
            deprecatedAt: try f.optionalInstant("deprecatedAt"), formerIds: try f.optionalStrings("formerIds"),
            provenance: try f.optionalString("provenance"), inferred: try f.optionalEnumerations("inferred", as: InferredField.self),
            venueAssumed: try f.optionalBool("venueAssumed"), lastModified: try f.instant("lastModified"),
            schemaVersion: try f.int("schemaVersion"), source: try f.string("source"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("awayTeamId", awayTeamId)
        w.field("deprecatedAt", deprecatedAt)
        if let formerIds, !formerIds.isEmpty { w.field("formerIds", formerIds) }
        w.field("gameNumber", gameNumber)
        w.field("homeTeamId", homeTeamId)
        w.field("id", id)
        if let inferred, !inferred.isEmpty { w.field("inferred", inferred) }
        w.field("kind", kind)
        w.field("lastModified", lastModified)
        w.field("localDate", localDate)
        w.field("makeupDate", makeupDate)
        w.field("neutralSite", neutralSite)
        w.field("provenance", provenance)
        w.field("schemaVersion", schemaVersion)
        w.field("season", season)
        w.field("source", source)
        w.field("sourceIds", sourceIds)
        w.field("sport", sport)
        w.field("stadiumId", stadiumId)
        w.field("startKnowledge", startKnowledge)
        w.field("startUTC", startUTC)
        w.field("status", status)
        w.field("venueAssumed", venueAssumed)
        w.endObject()
    }
}

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

extension LineageRow: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            source: try f.string("source"), row: try f.optionalString("row"), batch: try f.string("batch"),
            recordId: try f.string("recordId"), sourceGameId: try f.optionalString("sourceGameId"),
            lastModified: try f.instant("lastModified"), priority: try f.int("priority"),
            localDate: try f.date("localDate"), gameNumber: try f.optionalInt("gameNumber"),
            startUTC: try f.optionalInstant("startUTC"),
            startKnowledge: try f.enumeration("startKnowledge", as: StartKnowledge.self),
            stadiumId: try f.string("stadiumId"), status: try f.enumeration("status", as: GameStatus.self),
            kind: try f.enumeration("kind", as: GameKind.self), inferred: try f.optionalEnumerations("inferred", as: InferredField.self))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("batch", batch)
        w.field("gameNumber", gameNumber)
        w.field("inferred", inferred)
        w.field("kind", kind)
        w.field("lastModified", lastModified)
        w.field("localDate", localDate)
        w.field("priority", priority)
        w.field("recordId", recordId)
        w.field("row", row)
        w.field("source", source)
        w.field("sourceGameId", sourceGameId)
        w.field("stadiumId", stadiumId)
        w.field("startKnowledge", startKnowledge)
        w.field("startUTC", startUTC)
        w.field("status", status)
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

extension FieldOrigin: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(row: try f.int("row"), rule: try f.string("rule"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("row", row)
        w.field("rule", rule)
        w.endObject()
    }
}

// MARK: Reference records
//
// Sports, teams, league structures and aliases are read by every merge, plan and render, and the merge
// writes them all; `Stadium` stays on Codable, which refuses a coordinate that is not a finite number
// when it is written (a line writer cannot fail).

extension Sport: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            id: try f.string("id"), abbreviation: try f.string("abbreviation"), displayName: try f.string("displayName"),
            iconName: try f.string("iconName"), colorHex: try f.string("colorHex"),
            seasonStartMonth: try f.int("seasonStartMonth"), seasonEndMonth: try f.int("seasonEndMonth"),
            isActive: try f.bool("isActive"), isBuiltIn: try f.bool("isBuiltIn"),
            matchWindowDays: try f.optionalInt("matchWindowDays"), lastModified: try f.instant("lastModified"),
            schemaVersion: try f.int("schemaVersion"), source: try f.string("source"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("abbreviation", abbreviation)
        w.field("colorHex", colorHex)
        w.field("displayName", displayName)
        w.field("iconName", iconName)
        w.field("id", id)
        w.field("isActive", isActive)
        w.field("isBuiltIn", isBuiltIn)
        w.field("lastModified", lastModified)
        w.field("matchWindowDays", matchWindowDays)
        w.field("schemaVersion", schemaVersion)
        w.field("seasonEndMonth", seasonEndMonth)
        w.field("seasonStartMonth", seasonStartMonth)
        w.field("source", source)
        w.endObject()
    }
}

extension Team: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            id: try f.string("id"), sport: try f.string("sport"), market: try f.string("market"), name: try f.string("name"),
            abbreviation: try f.string("abbreviation"), homeStadiumId: try f.string("homeStadiumId"),
            conferenceId: try f.optionalString("conferenceId"), divisionId: try f.optionalString("divisionId"),
            lastModified: try f.instant("lastModified"), schemaVersion: try f.int("schemaVersion"),
            source: try f.string("source"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("abbreviation", abbreviation)
        w.field("conferenceId", conferenceId)
        w.field("divisionId", divisionId)
        w.field("homeStadiumId", homeStadiumId)
        w.field("id", id)
        w.field("lastModified", lastModified)
        w.field("market", market)
        w.field("name", name)
        w.field("schemaVersion", schemaVersion)
        w.field("source", source)
        w.field("sport", sport)
        w.endObject()
    }
}

extension LeagueStructure: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            id: try f.string("id"), sport: try f.string("sport"), level: try f.enumeration("level", as: Level.self),
            name: try f.string("name"), abbreviation: try f.optionalString("abbreviation"),
            parentId: try f.optionalString("parentId"), displayOrder: try f.int("displayOrder"),
            lastModified: try f.instant("lastModified"), schemaVersion: try f.int("schemaVersion"),
            source: try f.string("source"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("abbreviation", abbreviation)
        w.field("displayOrder", displayOrder)
        w.field("id", id)
        w.field("lastModified", lastModified)
        w.field("level", level)
        w.field("name", name)
        w.field("parentId", parentId)
        w.field("schemaVersion", schemaVersion)
        w.field("source", source)
        w.field("sport", sport)
        w.endObject()
    }
}

extension TeamAlias: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            id: try f.string("id"), teamId: try f.string("teamId"), kind: try f.enumeration("kind", as: Kind.self),
            value: try f.string("value"), validFrom: try f.optionalDate("validFrom"),
            validUntil: try f.optionalDate("validUntil"), sourceSystem: try f.optionalString("sourceSystem"),
            lastModified: try f.instant("lastModified"), schemaVersion: try f.int("schemaVersion"),
            source: try f.string("source"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("id", id)
        w.field("kind", kind)
        w.field("lastModified", lastModified)
        w.field("schemaVersion", schemaVersion)
        w.field("source", source)
        w.field("sourceSystem", sourceSystem)
        w.field("teamId", teamId)
        w.field("validFrom", validFrom)
        w.field("validUntil", validUntil)
        w.field("value", value)
        w.endObject()
    }
}

extension StadiumAlias: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            id: try f.string("id"), stadiumId: try f.string("stadiumId"), name: try f.string("name"),
            validFrom: try f.optionalDate("validFrom"), validUntil: try f.optionalDate("validUntil"),
            sourceSystem: try f.optionalString("sourceSystem"), lastModified: try f.instant("lastModified"),
            schemaVersion: try f.int("schemaVersion"), source: try f.string("source"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("id", id)
        w.field("lastModified", lastModified)
        w.field("name", name)
        w.field("schemaVersion", schemaVersion)
        w.field("source", source)
        w.field("sourceSystem", sourceSystem)
        w.field("stadiumId", stadiumId)
        w.field("validFrom", validFrom)
        w.field("validUntil", validUntil)
        w.endObject()
    }
}

extension Reject: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            file: try f.string("file"), line: try f.optionalInt("line"), reason: try f.string("reason"),
            raw: try f.optionalString("raw"), recordId: try f.optionalString("recordId"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("file", file)
        w.field("line", line)
        w.field("raw", raw)
        w.field("reason", reason)
        w.field("recordId", recordId)
        w.endObject()
    }
}

extension Stadium: JSONLineDecodable {
    /// Read as its synthesized `Decodable` reads it: fields in declaration order (so a record with several
    /// problems reports the same first one) and the coordinates as written (the memberwise initializer
    /// rounds them to six places; the reader does not).
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        let id = try f.string("id"), name = try f.string("name"), city = try f.string("city")
        let region = try f.string("region"), country = try f.string("country")
        let latitude = try f.double("latitude"), longitude = try f.double("longitude")
        let timeZone = try f.string("timeZone")
        let capacity = try f.optionalInt("capacity"), openedYear = try f.optionalInt("openedYear")
        let lastModified = try f.instant("lastModified"), schemaVersion = try f.int("schemaVersion")
        let source = try f.string("source")
        self.init(
            id: id, name: name, city: city, region: region, country: country, latitude: 0, longitude: 0,
            timeZone: timeZone, capacity: capacity, openedYear: openedYear, lastModified: lastModified,
            schemaVersion: schemaVersion, source: source)
        self.latitude = latitude
        self.longitude = longitude
    }
}
