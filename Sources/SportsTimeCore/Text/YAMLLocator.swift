import Foundation
import Yams

/// Finds the line and column of a value in a YAML document, for semantic errors found after decoding
/// (an unknown team id, a date outside a window): `fixtures/requests/x.yaml:7:12: error: ...`.
///
/// Composes the text once and answers many questions; the walk itself is `StrictYAML.location`'s,
/// so every stage points at the same place a type error would, without importing Yams itself.
/// Sendable: the tree is never changed after `compose` built it, and the walk reads only keys, lists
/// and marks (never a tag, which Yams resolves in place on first use).
public struct YAMLLocator: @unchecked Sendable {
    /// One step of a path into the document: a mapping key or a sequence index.
    public typealias Component = YAMLPathElement

    private let root: Node?
    /// The repository-relative path shown in messages.
    public let path: String

    /// Composes `text`; a document that does not compose locates everything at line 1.
    public init(text: String, path: String) {
        self.root = StrictYAML.composeIfBounded(text)
        self.path = path
    }

    /// The location of the value at `components` (the deepest node that exists on the way there).
    public func location(_ components: [Component]) -> SourceLocation {
        guard let root else { return SourceLocation(path: path, line: 1) }
        return StrictYAML.location(of: components, in: root, path: path, atKey: false)
    }

    /// The location of the key itself (not its value) at `components`; falls back to the value.
    public func keyLocation(_ components: [Component]) -> SourceLocation {
        guard let root else { return SourceLocation(path: path, line: 1) }
        return StrictYAML.location(of: components, in: root, path: path, atKey: true)
    }
}
