import Foundation
import Yams

/// Decodes a `Decodable` value from a composed YAML node, and records which keys of each mapping the
/// value asked for, so that `StrictYAML` can refuse the keys nobody read.
///
/// It replaces Yams' `YAMLDecoder` on the strict path. Values are read the same way (the same
/// `ScalarConstructible` rules build strings, integers, numbers and booleans, and a null is what Yams
/// calls null), but without Yams' per-value dynamic casts to `ScalarConstructible` and anchor
/// strategies, which made decoding `pipeline/sources.yaml` cost every ingest process about 100 million
/// instructions of protocol-conformance lookups, and without reflecting over the decoded value to find
/// its keys. Keys are matched by their text (a quoted `"1"` is the key `1`); merge keys (`<<`) are not
/// expanded, and a Date or Data is decoded through its own `init(from:)`, not from a YAML timestamp or
/// binary (no strict type has one).
struct YAMLNodeDecoder {
    /// The keys each mapping was asked for, by the mapping's decoding path.
    final class KeyLedger {
        /// Path → keys looked up in the mapping at that path (decode, decodeIfPresent, contains).
        var requested: [String: Set<String>] = [:]
        /// Paths whose mapping was read whole (`allKeys`, e.g. a `[String: X]` dictionary).
        var readWhole: Set<String> = []
    }

    let ledger = KeyLedger()

    func decode<T: Decodable>(_ type: T.Type, from node: Node) throws -> T {
        try NodeDecoder(node: node, codingPath: [], pathID: "", ledger: ledger).decodeValue(type)
    }

    /// The unknown keys of `node` (decoded by this decoder), in document order, as diagnostics.
    func unknownKeys(in node: Node, path: String) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        check(node, pathID: "", keyPath: [], path: path, problems: &problems)
        return problems
    }

    private func check(_ node: Node, pathID: String, keyPath: [String], path: String, problems: inout [Diagnostic]) {
        switch node {
        case .mapping(let mapping):
            // A mapping no keyed container was opened on was not decoded as one (an optional that came
            // out nil, a value read another way): nothing to hold its keys against.
            guard let requested = ledger.requested[pathID] else { return }
            let whole = ledger.readWhole.contains(pathID)
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let scalar) = keyNode else { continue }
                let key = scalar.string
                if whole || requested.contains(key) {
                    check(valueNode, pathID: NodeDecoder.child(pathID, key), keyPath: keyPath + [key], path: path, problems: &problems)
                } else {
                    let at = keyPath.isEmpty ? "" : " in \(keyPath.joined(separator: "."))"
                    problems.append(
                        Diagnostic(
                            .error, at: SourceLocation(path: path, line: keyNode.mark?.line, column: keyNode.mark?.column),
                            "unknown key '\(key)'\(at)", fix: "Use one of: \(requested.sorted().joined(separator: ", "))"))
                }
            }
        case .sequence(let sequence):
            for (index, child) in sequence.enumerated() {
                check(child, pathID: NodeDecoder.child(pathID, index), keyPath: keyPath + ["[\(index)]"], path: path, problems: &problems)
            }
        default:
            return
        }
    }
}

/// A key made by the decoder itself: a list index, or a dictionary's key.
private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init?(intValue: Int) { self.init(index: intValue) }
}

private struct NodeDecoder: Decoder, SingleValueDecodingContainer {
    let node: Node
    let codingPath: [CodingKey]
    /// `codingPath` as one string, the ledger's key.
    let pathID: String
    let ledger: YAMLNodeDecoder.KeyLedger
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func child(_ pathID: String, _ key: String) -> String { pathID + "\u{1F}" + key }
    static func child(_ pathID: String, _ index: Int) -> String { pathID + "\u{1F}#" + String(index) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let mapping) = node else { throw mismatch(Node.Mapping.self) }
        if ledger.requested[pathID] == nil { ledger.requested[pathID] = [] }
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, mapping: mapping))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .sequence(let sequence) = node else { throw mismatch(Node.Sequence.self) }
        return UnkeyedContainer(decoder: self, sequence: sequence)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    func decoder(for child: Node, key: CodingKey, pathID: String) -> NodeDecoder {
        NodeDecoder(node: child, codingPath: codingPath + [key], pathID: pathID, ledger: ledger)
    }

    func mismatch(_ expected: Any.Type) -> DecodingError {
        let reality: String
        switch node {
        case .scalar: reality = "Scalar"
        case .mapping: reality = "Mapping"
        case .sequence: reality = "Sequence"
        case .alias: reality = "Alias"
        }
        return DecodingError.typeMismatch(
            expected,
            DecodingError.Context(codingPath: codingPath, debugDescription: "Expected to decode \(expected) but found \(reality) instead."))
    }

    private func scalar<T>(_ type: T.Type) throws -> Node.Scalar {
        guard case .scalar(let scalar) = node else { throw mismatch(type) }
        return scalar
    }

    private func construct<T>(_ type: T.Type, _ build: (Node.Scalar) -> T?) throws -> T {
        guard let value = build(try scalar(type)) else { throw mismatch(type) }
        return value
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        guard case .scalar(let scalar) = node else { return false }
        // Text that starts with a letter and is not a null word is never null: skip the resolver's regexes.
        if StrictYAML.isPlainString(scalar.string) { return false }
        return NSNull.construct(from: scalar) != nil
    }

    func decode(_ type: Bool.Type) throws -> Bool { try construct(type, Bool.construct) }
    func decode(_ type: String.Type) throws -> String { try construct(type, String.construct) }
    func decode(_ type: Double.Type) throws -> Double { try construct(type, Double.construct) }
    func decode(_ type: Float.Type) throws -> Float { try construct(type, Float.construct) }
    func decode(_ type: Int.Type) throws -> Int { try construct(type, Int.construct) }
    func decode(_ type: Int8.Type) throws -> Int8 { try construct(type, Int8.construct) }
    func decode(_ type: Int16.Type) throws -> Int16 { try construct(type, Int16.construct) }
    func decode(_ type: Int32.Type) throws -> Int32 { try construct(type, Int32.construct) }
    func decode(_ type: Int64.Type) throws -> Int64 { try construct(type, Int64.construct) }
    func decode(_ type: UInt.Type) throws -> UInt { try construct(type, UInt.construct) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try construct(type, UInt8.construct) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try construct(type, UInt16.construct) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try construct(type, UInt32.construct) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try construct(type, UInt64.construct) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    /// A value of any type: strings, integers, booleans and numbers by Yams' rules, everything else
    /// through its own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try decode(String.self) as! T }
        if T.self == Int.self { return try decode(Int.self) as! T }
        if T.self == Bool.self { return try decode(Bool.self) as! T }
        if T.self == Double.self { return try decode(Double.self) as! T }
        // Other standard scalars (Int64, Float, ...) come back through their `init(from:)` to the
        // overloads above. No `as? ScalarConstructible` cast: that lookup is the cost this type avoids,
        // so Yams' own constructions of Date, Data and Decimal are not used (no strict type has them).
        return try T(from: self)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    /// The mapping's keys as text (nil for a key that is not a scalar) and its values, read out once:
    /// a `Decodable` asks for each of its keys up to three times (`contains`, `decodeNil`, `decode`), and
    /// walking Yams' mapping for each ask cost most of decoding a large sources.yaml.
    private let names: [String?]
    private let values: [Node]

    init(decoder: NodeDecoder, mapping: Node.Mapping) {
        self.decoder = decoder
        var names: [String?] = []
        var values: [Node] = []
        names.reserveCapacity(mapping.count)
        values.reserveCapacity(mapping.count)
        for (key, value) in mapping {
            if case .scalar(let scalar) = key { names.append(scalar.string) } else { names.append(nil) }
            values.append(value)
        }
        self.names = names
        self.values = values
    }

    var codingPath: [CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        decoder.ledger.readWhole.insert(decoder.pathID)
        return names.compactMap { $0.flatMap(Key.init(stringValue:)) }
    }

    private func note(_ key: Key) {
        decoder.ledger.requested[decoder.pathID, default: []].insert(key.stringValue)
    }

    private func value(for key: Key) -> Node? {
        note(key)
        let name = key.stringValue
        guard let index = names.firstIndex(where: { $0 == name }) else { return nil }
        return values[index]
    }

    func contains(_ key: Key) -> Bool { value(for: key) != nil }

    private func child(_ key: Key) throws -> NodeDecoder {
        guard let node = value(for: key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return decoder.decoder(for: node, key: key, pathID: NodeDecoder.child(decoder.pathID, key.stringValue))
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    // Every type, like the unkeyed container's: standard scalars other than String, Int, Bool and Double
    // come back through their `init(from:)` to the single-value overloads.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> Decoder { try child(Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> Decoder { try child(key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let sequence: Node.Sequence
    var currentIndex = 0

    var codingPath: [CodingKey] { decoder.codingPath }
    var count: Int? { sequence.count }
    var isAtEnd: Bool { currentIndex >= sequence.count }

    private mutating func next<T>(_ type: T.Type, _ read: (NodeDecoder) throws -> T) throws -> T {
        let key = IndexKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        let child = decoder.decoder(for: sequence[currentIndex], key: key, pathID: NodeDecoder.child(decoder.pathID, currentIndex))
        let value = try read(child)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self,
                DecodingError.Context(
                    codingPath: codingPath + [IndexKey(index: currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        // Like Yams: a null item is consumed, anything else is left for decode.
        let isNull = decoder.decoder(for: sequence[currentIndex], key: IndexKey(index: currentIndex), pathID: "").decodeNil()
        if isNull { currentIndex += 1 }
        return isNull
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decodeValue(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        try next(UnkeyedDecodingContainer.self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> Decoder { try next(Decoder.self) { $0 } }
}
