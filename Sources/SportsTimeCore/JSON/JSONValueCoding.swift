import Foundation

// Codable to and from `JSONValue`, for records without a hand-written line format (`JSONLineCodable`)
// and the runner's own small files. Errors are the standard library's `DecodingError`/`EncodingError`
// with coding paths, so `describe(_:)` words them the same for every reader.

/// Encodes any `Encodable` into a `JSONValue` (objects sorted by key).
public enum JSONValueEncoder {
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let box = EncodingBox()
        try encodeValue(value, into: box, path: [])
        return box.resolved
    }
}

/// Decodes any `Decodable` from a `JSONValue`.
public enum JSONValueDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, codingPath: [any CodingKey] = []) throws -> T {
        try T(from: TreeDecoder(value: value, codingPath: codingPath))
    }
}

/// A coding key made from a string or an index (paths in errors, dictionary keys).
public struct AnyCodingKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int?
    public init(stringValue: String) { self.stringValue = stringValue; self.intValue = nil }
    public init(intValue: Int) { self.stringValue = "Index \(intValue)"; self.intValue = intValue }
    public init(_ name: String) { self.init(stringValue: name) }
}

// MARK: - Encoding

/// A value being built; containers are boxes so nested containers can be filled after they are handed out.
final class EncodingBox {
    enum Content {
        case empty
        case value(JSONValue)
        case object([String: EncodingBox])
        case array([EncodingBox])
    }
    var content: Content = .empty

    var resolved: JSONValue {
        switch content {
        case .empty: return .members([])
        case .value(let value): return value
        case .object(let members):
            return .members(members.keys.sorted().map { JSONMember(key: $0, value: members[$0]!.resolved) })
        case .array(let items): return .array(items.map(\.resolved))
        }
    }

    func objectChild(_ key: String) -> EncodingBox {
        var members: [String: EncodingBox]
        if case .object(let existing) = content { members = existing } else { members = [:] }
        let child = EncodingBox()
        members[key] = child
        content = .object(members)
        return child
    }

    func ensureObject() { if case .object = content { return }; content = .object([:]) }
    func ensureArray() { if case .array = content { return }; content = .array([]) }

    func appendChild() -> EncodingBox {
        var items: [EncodingBox]
        if case .array(let existing) = content { items = existing } else { items = [] }
        let child = EncodingBox()
        items.append(child)
        content = .array(items)
        return child
    }

    var count: Int {
        if case .array(let items) = content { return items.count }
        return 0
    }
}

private func jsonValue(encoding double: Double, at path: [any CodingKey]) throws -> JSONValue {
    guard let text = JSONWriter.format(double) else {
        throw EncodingError.invalidValue(double, .init(codingPath: path, debugDescription: "Unable to encode \(double) directly in JSON."))
    }
    return .number(text)
}

private struct TreeEncoder: Encoder {
    let target: EncodingBox
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(box: EncodingBox, codingPath: [any CodingKey]) { self.target = box; self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        target.ensureObject()
        return KeyedEncodingContainer(KeyedTreeEncoder<Key>(box: target, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        target.ensureArray()
        return UnkeyedTreeEncoder(box: target, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTreeEncoder(box: target, codingPath: codingPath)
    }
}

private func encodeValue<T: Encodable>(_ value: T, into box: EncodingBox, path: [any CodingKey]) throws {
    switch value {
    case let text as String: box.content = .value(.string(text))
    case let flag as Bool: box.content = .value(.bool(flag))
    case let number as Int: box.content = .value(.number(String(number)))
    case let number as Double: box.content = .value(try jsonValue(encoding: number, at: path))
    default: try value.encode(to: TreeEncoder(box: box, codingPath: path))
    }
}

private struct KeyedTreeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: EncodingBox
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.objectChild(key.stringValue).content = .value(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { box.objectChild(key.stringValue).content = .value(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { box.objectChild(key.stringValue).content = .value(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        box.objectChild(key.stringValue).content = .value(try jsonValue(encoding: value, at: codingPath + [key]))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        box.objectChild(key.stringValue).content = .value(try jsonValue(encoding: Double(value), at: codingPath + [key]))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { box.objectChild(key.stringValue).content = .value(.number(String(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        box.objectChild(key.stringValue).content = .value(.number(String(value)))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: box.objectChild(key.stringValue), path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = box.objectChild(key.stringValue)
        child.ensureObject()
        return KeyedEncodingContainer(KeyedTreeEncoder<NestedKey>(box: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = box.objectChild(key.stringValue)
        child.ensureArray()
        return UnkeyedTreeEncoder(box: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(box: box.objectChild("super"), codingPath: codingPath + [AnyCodingKey("super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(box: box.objectChild(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedTreeEncoder: UnkeyedEncodingContainer, ValueSlotEncoder {
    let box: EncodingBox
    var codingPath: [any CodingKey]
    var count: Int { box.count }

    private var nextPath: [any CodingKey] { codingPath + [AnyCodingKey(intValue: count)] }

    /// Each value is a new item, at the index it will have.
    mutating func slot() -> (box: EncodingBox, path: [any CodingKey]) {
        let path = nextPath
        return (box.appendChild(), path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = box.appendChild()
        child.ensureObject()
        return KeyedEncodingContainer(KeyedTreeEncoder<NestedKey>(box: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = box.appendChild()
        child.ensureArray()
        return UnkeyedTreeEncoder(box: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return TreeEncoder(box: box.appendChild(), codingPath: path)
    }
}

private struct SingleTreeEncoder: SingleValueEncodingContainer, ValueSlotEncoder {
    let box: EncodingBox
    var codingPath: [any CodingKey]

    /// The one value fills the box itself.
    func slot() -> (box: EncodingBox, path: [any CodingKey]) { (box, codingPath) }
}

/// The value-encoding methods of the unkeyed and single-value containers, which differ only in the box a
/// value goes into and its coding path (`slot()`, asked once per value).
private protocol ValueSlotEncoder {
    mutating func slot() -> (box: EncodingBox, path: [any CodingKey])
}

extension ValueSlotEncoder {
    mutating func encodeNil() throws { slot().box.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { slot().box.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { slot().box.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws {
        let (box, path) = slot()
        box.content = .value(try jsonValue(encoding: value, at: path))
    }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { slot().box.content = .value(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { slot().box.content = .value(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { try encode(UInt(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(UInt(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(UInt(value)) }
    mutating func encode(_ value: UInt64) throws { try encode(UInt(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let (box, path) = slot()
        try encodeValue(value, into: box, path: path)
    }
}

// MARK: - Decoding

private struct TreeDecoder: Decoder {
    let value: JSONValue
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .members(let members) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: codingPath,
                    debugDescription: "Expected to decode Dictionary<String, Any> but found \(describeKind(value)) instead."))
        }
        return KeyedDecodingContainer(KeyedTreeDecoder<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw DecodingError.typeMismatch(
                [Any].self,
                .init(
                    codingPath: codingPath, debugDescription: "Expected to decode Array<Any> but found \(describeKind(value)) instead."))
        }
        return UnkeyedTreeDecoder(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleTreeDecoder(value: value, codingPath: codingPath)
    }
}

private func describeKind(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .members: return "a dictionary"
    }
}

/// Decodes a scalar or any `Decodable` from one value, with the standard errors.
private func decodeScalar<T: Decodable>(_ type: T.Type, from value: JSONValue, path: [any CodingKey]) throws -> T {
    func mismatch() -> DecodingError {
        if case .null = value {
            return .valueNotFound(T.self, .init(codingPath: path, debugDescription: "Expected \(T.self) value but found null instead."))
        }
        return .typeMismatch(
            T.self, .init(codingPath: path, debugDescription: "Expected to decode \(T.self) but found \(describeKind(value)) instead."))
    }
    if T.self == String.self {
        guard case .string(let text) = value, let result = text as? T else { throw mismatch() }
        return result
    }
    if T.self == Int.self {
        guard case .number(let text) = value else { throw mismatch() }
        guard let number = Int(text) ?? Double(text).flatMap({ Int(exactly: $0) }), let result = number as? T else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Number \(text) is not representable in Swift."))
        }
        return result
    }
    if T.self == Double.self {
        guard case .number(let text) = value, let result = Double(text) as? T else { throw mismatch() }
        return result
    }
    if T.self == Bool.self {
        guard case .bool(let flag) = value, let result = flag as? T else { throw mismatch() }
        return result
    }
    return try T(from: TreeDecoder(value: value, codingPath: path))
}

private func integer<T: FixedWidthInteger>(_ type: T.Type, from value: JSONValue, path: [any CodingKey]) throws -> T {
    let number = try decodeScalar(Int.self, from: value, path: path)
    guard let result = T(exactly: number) else {
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Number \(number) does not fit in \(T.self)."))
    }
    return result
}

private struct KeyedTreeDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [JSONMember]
    var codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func lookup(_ key: String) -> JSONValue? {
        JSONValue.member(key, in: members)
    }

    func contains(_ key: Key) -> Bool { lookup(key.stringValue) != nil }

    func value(for key: Key) throws -> JSONValue {
        guard let value = lookup(key.stringValue) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(for: key) { return true }
        return false
    }

    // One generic `decode` serves every type: Int8…UInt64 and Float come back through their
    // `init(from:)` to the single-value container's overloads, with the same errors and paths.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeScalar(type, from: value(for: key), path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: value(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: value(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TreeDecoder(value: lookup("super") ?? .null, codingPath: codingPath + [AnyCodingKey("super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: lookup(key.stringValue) ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedTreeDecoder: UnkeyedDecodingContainer {
    let items: [JSONValue]
    var codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) { self.items = items; self.codingPath = codingPath }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private var path: [any CodingKey] { codingPath + [AnyCodingKey(intValue: currentIndex)] }

    mutating func next<T>(_ type: T.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any?.self, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        if case .null = items[currentIndex] { currentIndex += 1; return true }
        return false
    }

    // A Float is read as a Double here (an item past the end is reported as a missing Double); every
    // other type goes through the generic `decode`, Int8…UInt64 back through their `init(from:)` to the
    // single-value container's overloads.
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let p = path
        return try decodeScalar(type, from: next(type), path: p)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let p = path
        return try TreeDecoder(value: next([String: Any].self), codingPath: p).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let p = path
        return try TreeDecoder(value: next([Any].self), codingPath: p).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let p = path
        return TreeDecoder(value: try next(Any.self), codingPath: p)
    }
}

private struct SingleTreeDecoder: SingleValueDecodingContainer {
    let value: JSONValue
    var codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeScalar(type, from: value, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try decodeScalar(type, from: value, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decodeScalar(type, from: value, path: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try decodeScalar(type, from: value, path: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, from: value, path: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, from: value, path: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, from: value, path: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, from: value, path: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type, from: value, path: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, from: value, path: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, from: value, path: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, from: value, path: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, from: value, path: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeScalar(type, from: value, path: codingPath) }
}
