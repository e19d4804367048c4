import Foundation
import Yams

/// Finds the line and column of a value in a YAML document, for semantic errors found after decoding
/// (an unknown team id, a date outside a window): `fixtures/requests/x.yaml:7:12: error: ...`.
///
/// Stages that decode with `StrictYAML` and then check meaning use this so their errors point at the
/// same place a type error would, without importing Yams themselves.
public struct YAMLLocator {
    /// One step of a path into the document: a mapping key or a sequence index.
    public enum Component: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case key(String)
        case index(Int)
        public init(stringLiteral value: String) { self = .key(value) }
        public init(integerLiteral value: Int) { self = .index(value) }
    }

    private let root: Node?
    /// The repository-relative path shown in messages.
    public let path: String

    /// Composes `text`; a document that does not compose locates everything at line 1.
    public init(text: String, path: String) {
        self.root = (try? Yams.compose(yaml: text)) ?? nil
        self.path = path
    }

    /// The location of the value at `components` (the deepest node that exists on the way there).
    public func location(_ components: [Component]) -> SourceLocation {
        guard let root else { return SourceLocation(path: path, line: 1) }
        let keys: [CodingKey] = components.map { component in
            switch component {
            case .key(let key): return LocatorKey(stringValue: key)
            case .index(let index): return LocatorKey(intValue: index)
            }
        }
        let node = StrictYAML.locate(keys, in: root)
        guard let mark = node?.mark else { return SourceLocation(path: path, line: 1) }
        return SourceLocation(path: path, line: mark.line, column: mark.column)
    }

    /// The location of the key itself (not its value) at `components`; falls back to the value.
    public func keyLocation(_ components: [Component]) -> SourceLocation {
        guard let root, case .key(let last)? = components.last else { return location(components) }
        let parentKeys: [CodingKey] = components.dropLast().map { component in
            switch component {
            case .key(let key): return LocatorKey(stringValue: key)
            case .index(let index): return LocatorKey(intValue: index)
            }
        }
        guard let parent = StrictYAML.locate(parentKeys, in: root), let mapping = parent.mapping,
              let keyNode = mapping.first(where: { $0.key.string == last })?.key, let mark = keyNode.mark else {
            return location(components)
        }
        return SourceLocation(path: path, line: mark.line, column: mark.column)
    }
}

private struct LocatorKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; self.intValue = nil }
    init(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
}
