import Foundation
import SportsTimeCore

/// A key path into JSON records: `a.b`, `list.0.name`, `competitors[homeAway=home].team.name`, `weeks[*].games`.
struct JSONPath: Hashable, Sendable {
    enum Step: Hashable, Sendable {
        /// An object key, or an index when the node is an array.
        case name(String)
        /// The array elements whose `key` equals `value`.
        case select(key: String, value: String)
        /// Every element of an array.
        case all
        case index(Int)
    }
    let steps: [Step]
    let text: String

    init(_ text: String) throws {
        self.text = text
        var steps: [Step] = []
        for rawSegment in text.split(separator: ".", omittingEmptySubsequences: false) where !(text.isEmpty) {
            var segment = Substring(rawSegment)
            var name = segment
            var brackets: [Substring] = []
            if let open = segment.firstIndex(of: "[") {
                name = segment[..<open]
                segment = segment[open...]
                while let o = segment.firstIndex(of: "["), let c = segment[o...].firstIndex(of: "]") {
                    brackets.append(segment[segment.index(after: o)..<c])
                    segment = segment[segment.index(after: c)...]
                }
                guard segment.isEmpty else { throw JSONPathError(text: text) }
            }
            if name == "*" { steps.append(.all) } else if !name.isEmpty { steps.append(.name(String(name))) }
            for b in brackets {
                if b == "*" {
                    steps.append(.all)
                } else if let n = Int(b) {
                    steps.append(.index(n))
                } else if let eq = b.firstIndex(of: "=") {
                    steps.append(.select(key: String(b[..<eq]), value: String(b[b.index(after: eq)...])))
                } else {
                    throw JSONPathError(text: text)
                }
            }
            if name.isEmpty && brackets.isEmpty { throw JSONPathError(text: text) }
        }
        self.steps = steps
    }

    struct JSONPathError: Error { var text: String }

    /// Every node the path reaches from `root` (several when it passes `*` or a selection).
    func nodes(from root: JSONNode) -> [JSONNode] {
        var current = [root]
        for step in steps {
            var next: [JSONNode] = []
            for node in current {
                switch (step, node.value) {
                case (.name(let key), .object):
                    if let child = node[key] { next.append(child) }
                case (.name(let key), .array(let items)):
                    if let n = Int(key), n >= 0, n < items.count { next.append(items[n]) }
                case (.index(let n), .array(let items)):
                    if n >= 0, n < items.count { next.append(items[n]) }
                case (.all, .array(let items)):
                    next.append(contentsOf: items)
                case (.all, .object(let members)):
                    next.append(contentsOf: members.map(\.value))
                case (.select(let key, let value), .array(let items)):
                    next.append(contentsOf: items.filter { $0[key]?.text == value })
                default:
                    break
                }
            }
            current = next
        }
        return current
    }

    /// The first value the path reaches, as field text.
    func text(in root: JSONNode) -> String? {
        nodes(from: root).first?.text
    }
}
