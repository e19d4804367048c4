import Foundation
import Yams

extension StrictYAML {
    /// One step of a path into a YAML document: a mapping key or a sequence index.
    public enum PathComponent: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// Where the node at `components` is in the YAML `text`: the value's position, or the key's when
    /// `atKey` is true (for messages about the key itself, e.g. an unknown field). Nil when the text
    /// does not parse or the path is not there. Used to point semantic errors found after decoding
    /// (an unknown id, a duplicate) at their line.
    public static func location(of components: [PathComponent], in text: String, file: String,
                                atKey: Bool = false) -> SourceLocation? {
        guard let root = try? Yams.compose(yaml: text) else { return nil }
        var node = root
        var keyNode: Node?
        for component in components {
            switch component {
            case .index(let index):
                guard let sequence = node.sequence, index >= 0, index < sequence.count else { return nil }
                node = sequence[index]
                keyNode = nil
            case .key(let key):
                guard let pair = node.mapping?.first(where: { $0.key.string == key }) else { return nil }
                keyNode = pair.key
                node = pair.value
            }
        }
        let mark = (atKey ? keyNode?.mark : nil) ?? node.mark
        return SourceLocation(path: file, line: mark?.line, column: mark?.column)
    }
}
