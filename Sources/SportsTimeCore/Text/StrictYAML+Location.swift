import Foundation
import Yams

extension StrictYAML {
    /// Where the value at each key path (`["sources", 3, "season"]`) is in a document already composed,
    /// or its key when `atKey` is true (for messages about the key itself, e.g. an unknown field). Falls
    /// back to the nearest existing parent, then to line 1, so a semantic check made after decoding (an
    /// unknown id, a duplicate) still points at a YAML line.
    public static func locations(
        of keyPaths: [[YAMLPathElement]], in document: YAMLDocument, path: String,
        atKey: Bool = false
    ) -> [SourceLocation] {
        keyPaths.map { location(of: $0, in: document.root, path: path, atKey: atKey) }
    }

    static func location(
        of keyPath: [YAMLPathElement], in root: Node, path: String,
        atKey: Bool
    ) -> SourceLocation {
        var node = root
        var keyNode: Node?
        for element in keyPath {
            switch element {
            case .index(let index):
                guard let sequence = node.sequence, index >= 0, index < sequence.count else { return mark(node, path) }
                node = sequence[index]
                keyNode = nil
            case .key(let key):
                guard let pair = node.mapping?.first(where: { $0.key.string == key }) else { return mark(node, path) }
                keyNode = pair.key
                node = pair.value
            }
        }
        return mark((atKey ? keyNode : nil) ?? node, path)
    }

    private static func mark(_ node: Node, _ path: String) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(path: path, line: 1) }
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
