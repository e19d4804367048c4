import Foundation
import Yams

/// A YAML document's values as an editor's schema check sees them (YAML 1.2 core schema): a plain
/// scalar is `null`, a boolean, an integer or a number when it reads as one, anything quoted is a
/// string. Used to hold committed YAML inputs to their JSON Schemas.
public indirect enum YAMLTree: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer or a number, with its text.
    case number(String)
    case string(String)
    case list([YAMLTree])
    /// Keys in document order.
    case mapping([(key: String, value: YAMLTree)])

    public static func == (lhs: YAMLTree, rhs: YAMLTree) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.list(a), .list(b)): return a == b
        case let (.mapping(a), .mapping(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The document in `text` (bounded by `InputLimits` like every YAML read); nil when it is empty.
    public static func parse(_ text: String, path: String) throws -> YAMLTree? {
        guard let node = try StrictYAML.compose(text, path: path) else { return nil }
        return tree(node)
    }

    private static func tree(_ node: Node) -> YAMLTree {
        switch node {
        case .scalar(let scalar):
            return scalar.style == .plain ? plain(scalar.string) : .string(scalar.string)
        case .sequence(let sequence):
            return .list(sequence.map(tree))
        case .mapping(let mapping):
            return .mapping(mapping.map { (key: $0.key.string ?? "", value: tree($0.value)) })
        case .alias:
            return .null
        }
    }

    /// A plain scalar by the YAML 1.2 core schema (what yaml-language-server checks against a schema).
    static func plain(_ text: String) -> YAMLTree {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if text.wholeMatch(of: /[-+]?[0-9]+/) != nil { return .number(text.hasPrefix("+") ? String(text.dropFirst()) : text) }
        if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil {
            var number = text.hasPrefix("+") ? String(text.dropFirst()) : text
            if number.hasPrefix(".") { number = "0" + number } else if number.hasPrefix("-.") { number = "-0" + number.dropFirst() }
            if number.hasSuffix(".") { number += "0" }
            return .number(number)
        }
        return .string(text)
    }
}
