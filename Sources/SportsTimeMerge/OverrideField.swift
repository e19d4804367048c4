import Foundation
import SportsTimeCore

/// The shape of a value an override may set; decides how the YAML text is read and checked.
public enum OverrideFieldType: Sendable, Hashable {
    case text, integer, number, boolean, instant, date
    case choice([String])
    /// A hex colour in any accepted form, stored as `#RRGGBB`.
    case color
    /// 1...12.
    case month
    /// An IANA zone.
    case timeZone
    case latitude, longitude

    /// The value `text` denotes, or what is wrong with it.
    func parse(_ text: String) -> Result<MergeFieldValue, Refusal> {
        switch self {
        case .text:
            return text.trimmingCharacters(in: .whitespaces).isEmpty
                ? .failure(Refusal("an empty text; write null to clear an optional field")) : .success(.string(text))
        case .integer:
            return Int(text).map { .success(.int($0)) } ?? .failure(Refusal("'\(text)' is not an integer"))
        case .number:
            guard let value = Double(text), value.isFinite else { return .failure(Refusal("'\(text)' is not a number")) }
            return .success(.double(value))
        case .boolean:
            switch text {
            case "true": return .success(.bool(true))
            case "false": return .success(.bool(false))
            default: return .failure(Refusal("'\(text)' is not true or false"))
            }
        case .instant:
            guard let instant = Instant(iso8601: text) else {
                return .failure(Refusal("'\(text)' is not an ISO-8601 instant like 2023-03-30T18:10:00Z"))
            }
            return .success(.string(instant.iso8601))
        case .date:
            guard text.count == 10, let date = LocalDate(iso8601: text) else {
                return .failure(Refusal("'\(text)' is not a date like 2023-03-30"))
            }
            return .success(.string(date.iso8601))
        case .choice(let options):
            return options.contains(text)
                ? .success(.string(text))
                : .failure(Refusal("'\(text)' is not one of \(options.joined(separator: ", "))"))
        case .color:
            return ColorHex.normalize(text).map { .success(.string($0)) }
                ?? .failure(Refusal("'\(text)' is not a hex colour (#RGB, #RRGGBB, RRGGBB or #RRGGBBAA)"))
        case .month:
            guard let month = Int(text), (1...12).contains(month) else { return .failure(Refusal("'\(text)' is not a month 1-12")) }
            return .success(.int(month))
        case .timeZone:
            return ZonedTime.isValidZone(text)
                ? .success(.string(text))
                : .failure(Refusal("'\(text)' is not an IANA time zone like America/New_York"))
        case .latitude, .longitude:
            let limit: Double = self == .latitude ? 90 : 180
            guard let value = Double(text), value.isFinite, abs(value) <= limit else {
                return .failure(Refusal("'\(text)' is not a \(self == .latitude ? "latitude" : "longitude") within ±\(Int(limit))"))
            }
            return .success(.double(value.rounded(toPlaces: 6)))
        }
    }
}

/// One field of a record that an override may patch: its type, what it references, and how to read
/// and write it.
public struct OverrideField<Record> {
    public let type: OverrideFieldType
    /// Whether `null` is allowed (the field is optional).
    public let allowsNull: Bool
    /// The kind whose id the value must be (e.g. a game's `stadiumId`), checked against the merged store.
    public let references: EntityKind?
    let read: (Record) -> MergeFieldValue
    let write: (inout Record, MergeFieldValue) -> Bool

    public init<Value: OverrideValue>(
        type: OverrideFieldType, keyPath: WritableKeyPath<Record, Value>,
        references: EntityKind? = nil
    ) {
        self.type = type
        self.allowsNull = Value.isOptional
        self.references = references
        self.read = { $0[keyPath: keyPath].fieldValue }
        self.write = { record, value in
            guard let typed = Value(fieldValue: value) else { return false }
            record[keyPath: keyPath] = typed
            return true
        }
    }

    /// Parses an override's YAML scalar (`nil` for YAML null) into this field's value.
    func parse(_ text: String?) -> Result<MergeFieldValue, Refusal> {
        guard let text else { return allowsNull ? .success(.null) : .failure(Refusal("null, but the field needs a value")) }
        return type.parse(text)
    }

    public func value(of record: Record) -> MergeFieldValue { read(record) }

    /// Sets the field; false when the value does not fit (cannot happen for values from `parse`).
    public func set(_ value: MergeFieldValue, on record: inout Record) -> Bool { write(&record, value) }

    static func string(_ keyPath: WritableKeyPath<Record, String>, references: EntityKind? = nil) -> Self {
        Self(type: .text, keyPath: keyPath, references: references)
    }
    static func optionalString(_ keyPath: WritableKeyPath<Record, String?>, references: EntityKind? = nil) -> Self {
        Self(type: .text, keyPath: keyPath, references: references)
    }
    static func int(_ keyPath: WritableKeyPath<Record, Int>) -> Self { Self(type: .integer, keyPath: keyPath) }
    static func optionalInt(_ keyPath: WritableKeyPath<Record, Int?>) -> Self { Self(type: .integer, keyPath: keyPath) }
    static func bool(_ keyPath: WritableKeyPath<Record, Bool>) -> Self { Self(type: .boolean, keyPath: keyPath) }
    static func optionalInstant(_ keyPath: WritableKeyPath<Record, Instant?>) -> Self { Self(type: .instant, keyPath: keyPath) }
    static func date(_ keyPath: WritableKeyPath<Record, LocalDate>) -> Self { Self(type: .date, keyPath: keyPath) }
    static func optionalDate(_ keyPath: WritableKeyPath<Record, LocalDate?>) -> Self { Self(type: .date, keyPath: keyPath) }
    static func choice<Value: OverrideChoice>(_ keyPath: WritableKeyPath<Record, Value>) -> Self {
        Self(type: .choice(Value.choices.map(\.rawValue)), keyPath: keyPath)
    }
}

/// A Swift type an override value converts to and from.
public protocol OverrideValue {
    init?(fieldValue: MergeFieldValue)
    var fieldValue: MergeFieldValue { get }
    static var isOptional: Bool { get }
}

extension OverrideValue {
    public static var isOptional: Bool { false }
}

extension String: OverrideValue {
    public init?(fieldValue: MergeFieldValue) {
        guard case .string(let value) = fieldValue else { return nil }
        self = value
    }
    public var fieldValue: MergeFieldValue { .string(self) }
}

extension Int: OverrideValue {
    public init?(fieldValue: MergeFieldValue) {
        guard case .int(let value) = fieldValue else { return nil }
        self = value
    }
    public var fieldValue: MergeFieldValue { .int(self) }
}

extension Double: OverrideValue {
    public init?(fieldValue: MergeFieldValue) {
        switch fieldValue {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        default: return nil
        }
    }
    public var fieldValue: MergeFieldValue { .double(self) }
}

extension Bool: OverrideValue {
    public init?(fieldValue: MergeFieldValue) {
        guard case .bool(let value) = fieldValue else { return nil }
        self = value
    }
    public var fieldValue: MergeFieldValue { .bool(self) }
}

extension Instant: OverrideValue {
    public init?(fieldValue: MergeFieldValue) {
        guard case .string(let text) = fieldValue, let value = Instant(iso8601: text) else { return nil }
        self = value
    }
    public var fieldValue: MergeFieldValue { .string(iso8601) }
}

extension LocalDate: OverrideValue {
    public init?(fieldValue: MergeFieldValue) {
        guard case .string(let text) = fieldValue, let value = LocalDate(iso8601: text) else { return nil }
        self = value
    }
    public var fieldValue: MergeFieldValue { .string(iso8601) }
}

extension Optional: OverrideValue where Wrapped: OverrideValue {
    public init?(fieldValue: MergeFieldValue) {
        if case .null = fieldValue { self = .none; return }
        guard let value = Wrapped(fieldValue: fieldValue) else { return nil }
        self = .some(value)
    }
    public var fieldValue: MergeFieldValue { self?.fieldValue ?? .null }
    public static var isOptional: Bool { true }
}

/// A string-backed enum an override can set by its raw value.
public protocol OverrideChoice: OverrideValue, RawRepresentable where RawValue == String {
    /// The values allowed, in the order messages list them.
    static var choices: [Self] { get }
}

extension OverrideChoice {
    public init?(fieldValue: MergeFieldValue) {
        guard case .string(let text) = fieldValue, let value = Self(rawValue: text) else { return nil }
        self = value
    }
    public var fieldValue: MergeFieldValue { .string(rawValue) }
}

extension GameKind: OverrideChoice {
    public static var choices: [GameKind] { allCases }
}
/// An override sets `startKnowledge` to day, night or unknown (which clears the start); an exact start is
/// set by giving `startUTC`.
extension StartKnowledge: OverrideChoice {
    public static var choices: [StartKnowledge] { [.unknown, .day, .night] }
}
extension GameStatus: OverrideChoice {
    public static var choices: [GameStatus] { allCases }
}
extension LeagueStructure.Level: OverrideChoice {
    public static var choices: [LeagueStructure.Level] { [.league, .conference, .division] }
}
