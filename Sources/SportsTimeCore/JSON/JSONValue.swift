import Foundation

/// A parsed JSON document. Numbers keep their text, so a diff shows them exactly as written and
/// a schema check never sees a float rounded. An object's members are kept sorted by key: lookups are
/// a binary search, equality is member by member, and no hashing is spent on tens of thousands of records.
/// Not `indirect`: arrays and members live in their own array storage already, so a scalar costs no box.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members sorted by key, keys unique (build with `object(_:)` from a dictionary).
    case members([JSONMember])

    /// An object from a dictionary.
    public static func object(_ dictionary: [String: JSONValue]) -> JSONValue {
        .members(dictionary.keys.sorted().map { JSONMember(key: $0, value: dictionary[$0]!) })
    }

    public subscript(key: String) -> JSONValue? {
        guard case .members(let members) = self else { return nil }
        return JSONValue.member(key, in: members)
    }

    /// The value of `key` among members sorted by key (a binary search), nil when absent.
    public static func member(_ key: String, in members: [JSONMember]) -> JSONValue? {
        var low = 0, high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low < members.count && members[low].key == key ? members[low].value : nil
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The object's members as a dictionary (for code off the hot path).
    public var objectValue: [String: JSONValue]? {
        guard case .members(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The number as a Double, when this is a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// Whether this is a number without fraction or exponent (or one whose value is whole).
    public var isInteger: Bool {
        guard case .number(let text) = self else { return false }
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return true }
        guard let value = Double(text) else { return false }
        return value.rounded() == value
    }

    /// This value's bits for a schema's type check: its own type, plus `integer` for whole numbers.
    public var typeBits: UInt8 {
        switch self {
        case .null: return 1
        case .bool: return 2
        case .number: return isInteger ? 4 | 8 : 4
        case .string: return 16
        case .array: return 32
        case .members: return 64
        }
    }

    /// The bit of a JSON Schema type name (`number` also admits integers; see `typeBits`).
    public static func typeBit(named name: String) -> UInt8 {
        switch name {
        case "null": return 1
        case "boolean": return 2
        case "number": return 4
        case "integer": return 8
        case "string": return 16
        case "array": return 32
        case "object": return 64
        default: return 0
        }
    }

    /// JSON Schema's name for the type: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .members: return "object"
        }
    }

    /// Compact JSON text with sorted keys, strings escaped like every artifact (`JSONWriter`).
    public var compactText: String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.text
    }
}

/// One key and value of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public var key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) { self.key = key; self.value = value }
}
