import Foundation
import Yams

extension StrictYAML {
    /// Where the value at `keyPath` is in a YAML text: mapping keys as strings, list positions as
    /// integers (`["sources", 3, "season"]`). Falls back to the nearest existing parent, then to line 1,
    /// so a semantic check after decoding can still point at the YAML line.
    public static func location(of keyPath: [YAMLPathElement], in text: String, path: String) -> SourceLocation {
        locations(of: [keyPath], in: text, path: path)[0]
    }

    /// `location(of:in:path:)` for many key paths, reading the text once.
    public static func locations(of keyPaths: [[YAMLPathElement]], in text: String, path: String) -> [SourceLocation] {
        guard let root = try? Yams.compose(yaml: text) else { return keyPaths.map { _ in SourceLocation(path: path, line: 1) } }
        return keyPaths.map { location(of: $0, in: root, path: path) }
    }

    private static func location(of keyPath: [YAMLPathElement], in root: Node, path: String) -> SourceLocation {
        let keys: [CodingKey] = keyPath.map { element in
            switch element {
            case .key(let name): return PathKey(stringValue: name)
            case .index(let index): return PathKey(intValue: index)
            }
        }
        guard let node = locate(keys, in: root), let mark = node.mark else { return SourceLocation(path: path, line: 1) }
        return SourceLocation(path: path, line: mark.line, column: mark.column)
    }
}

/// One step of a YAML key path: a mapping key or a list position.
public enum YAMLPathElement: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)
    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .index(value) }
}

private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; self.intValue = nil }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}
