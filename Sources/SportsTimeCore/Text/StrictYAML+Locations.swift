import Foundation
import Yams

/// Where each mapping key and sequence element of a YAML document is written, by key path, so checks
/// made after decoding (a cycle, a duplicate path) can still name the YAML line and column.
///
/// A key path is a list of components: mapping keys as they are, sequence indices as `[0]`, `[1]`, ….
/// The location of a mapping entry is where its key is written; of a sequence element, where the element starts.
public struct YAMLLocations: Sendable {
    /// The file shown in locations (repository-relative).
    public let path: String
    private let marks: [[String]: Position]
    private let orderedKeys: [[String]: [String]]

    private struct Position: Sendable { var line: Int; var column: Int }

    init(path: String, root: Node) {
        self.path = path
        var marks: [[String]: Position] = [:]
        var orderedKeys: [[String]: [String]] = [:]
        func record(_ keyPath: [String], _ mark: Mark?) {
            if let mark { marks[keyPath] = Position(line: mark.line, column: mark.column) }
        }
        func walk(_ node: Node, _ keyPath: [String]) {
            switch node {
            case .mapping(let mapping):
                var keys: [String] = []
                for (keyNode, valueNode) in mapping {
                    guard let key = keyNode.string else { continue }
                    keys.append(key)
                    record(keyPath + [key], keyNode.mark)
                    walk(valueNode, keyPath + [key])
                }
                orderedKeys[keyPath] = keys
            case .sequence(let sequence):
                for (index, element) in sequence.enumerated() {
                    record(keyPath + ["[\(index)]"], element.mark)
                    walk(element, keyPath + ["[\(index)]"])
                }
            default:
                break
            }
        }
        record([], root.mark)
        walk(root, [])
        self.marks = marks
        self.orderedKeys = orderedKeys
    }

    /// The location of `keyPath`, or of its nearest ancestor that has one (line 1 at worst).
    public func location(_ keyPath: [String]) -> SourceLocation {
        var candidate = keyPath
        while true {
            if let position = marks[candidate] {
                return SourceLocation(path: path, line: position.line, column: position.column)
            }
            if candidate.isEmpty { return SourceLocation(path: path, line: 1, column: 1) }
            candidate.removeLast()
        }
    }

    /// The keys of the mapping at `keyPath` in document order (empty when it is not a mapping).
    public func keys(_ keyPath: [String]) -> [String] { orderedKeys[keyPath] ?? [] }
}

extension StrictYAML {
    /// Decodes strictly like `decode(_:from:path:)` and also returns where every key and element is
    /// written, for errors found after decoding.
    public static func decodeWithLocations<T: Decodable>(_ type: T.Type, from text: String, path: String) throws -> (T, YAMLLocations) {
        let value = try decode(type, from: text, path: path)
        // `decode` succeeded, so the document composes and is not empty.
        guard let root = try Yams.compose(yaml: text) else {
            throw PipelineError.invalidInput(Diagnostic(
                .error, at: SourceLocation(path: path, line: 1), "the file is empty", fix: "Add the document's content"))
        }
        return (value, YAMLLocations(path: path, root: root))
    }
}
