import Foundation
import Yams

/// Decodes YAML strictly: syntax errors, type errors, missing and unknown keys all become
/// diagnostics that name the file, the YAML line and column, and what to do.
///
/// Unknown keys are the keys nobody read: `YAMLNodeDecoder` records the keys each value looked up
/// while decoding, and a key of a decoded mapping that no value asked for is refused (a `[String: X]`
/// dictionary reads all its keys). A merge key (`<<`) is not expanded, so it is refused too.
public enum StrictYAML {
    public static func decode<T: Decodable>(_ type: T.Type, from text: String, path: String) throws -> T {
        try decodeDocument(type, from: text, path: path).value
    }

    /// `decode(_:from:path:)`, also returning the composed document, for locating values afterwards
    /// (`locations(of:in:path:atKey:)`) without parsing the text again.
    public static func decodeDocument<T: Decodable>(_ type: T.Type, from text: String, path: String) throws
        -> (value: T, document: YAMLDocument)
    {
        try decodeDocument(type, from: text, path: path, narrowing: { $0 })
    }

    /// Entries of a top-level list of mappings (`sources:`) chosen by the text of one of their keys (`id`).
    public struct ListSelection {
        public var list: String
        public var key: String
        /// The texts chosen; nil keeps every entry.
        public var values: Set<String>?

        public init(list: String, key: String, values: Set<String>?) {
            self.list = list; self.key = key; self.values = values
        }
    }

    /// What `decodeDocument(_:from:path:selecting:)` kept of the list.
    public struct ListChoice {
        /// Every entry's key text, in list order (entries without one left out).
        public var declared: [String] = []
        /// The list positions of the entries decoded, in order: the decoded list's i-th entry is entry
        /// `positions[i]` of the document's.
        public var positions: [Int] = []
    }

    /// `decodeDocument(_:from:path:)` with only the chosen entries of a top-level list decoded: a reader
    /// that needs one entry of a long list does not decode (or fail on) the others. An entry whose key
    /// is missing or not text is kept, so its problem is reported. The kept nodes have their own lines
    /// and columns, so their problems are located as in the whole document, which is the one returned.
    public static func decodeDocument<T: Decodable>(
        _ type: T.Type, from text: String, path: String, selecting selection: ListSelection
    ) throws -> (value: T, document: YAMLDocument, choice: ListChoice) {
        var choice = ListChoice()
        let (value, document) = try decodeDocument(type, from: text, path: path) { root in
            guard let mapping = root.mapping else { return root }
            var pairs = mapping.map { ($0.key, $0.value) }
            guard let at = pairs.firstIndex(where: { $0.0.string == selection.list }), let entries = pairs[at].1.sequence
            else { return root }
            var kept: [Node] = []
            for (position, entry) in entries.enumerated() {
                let key = entry.mapping?.first(where: { $0.key.string == selection.key })?.value.string
                if let key { choice.declared.append(key) }
                if let values = selection.values, let key, !values.contains(key) { continue }
                kept.append(entry)
                choice.positions.append(position)
            }
            guard selection.values != nil else { return root }
            pairs[at].1 = .sequence(Node.Sequence(kept, entries.tag, entries.style, entries.mark, entries.anchor))
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark, mapping.anchor))
        }
        return (value, document, choice)
    }

    private static func decodeDocument<T: Decodable>(
        _ type: T.Type, from text: String, path: String, narrowing: (Node) -> Node
    ) throws -> (value: T, document: YAMLDocument) {
        guard let composed = try compose(text, path: path) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1), "the file is empty",
                    fix: "Add the document's content"))
        }
        let node = narrowing(composed)
        let decoder = YAMLNodeDecoder()
        let value: T
        do {
            value = try decoder.decode(T.self, from: node)
        } catch let error as DecodingError {
            // A missing key is often a misspelt one (`reson:` for `reason:`): the decoder stops at the
            // missing key before the unknown keys are checked, so name the misspelling, at its line.
            if let misspelt = misspelling(in: error, root: node, path: path) {
                throw PipelineError.invalidInput(misspelt)
            }
            let (codingPath, message) = explain(error)
            let target = locate(codingPath, in: node)
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: target?.mark?.line, column: target?.mark?.column),
                    message, fix: "Fix the value and run again"))
        } catch let error as YamlError {
            throw PipelineError.invalidInput(diagnostic(for: error, path: path))
        }
        // Unknown keys: the keys of a decoded mapping that the value decoded from it never asked for.
        let problems = decoder.unknownKeys(in: node, path: path)
        if !problems.isEmpty {
            throw problems.count == 1 ? PipelineError.invalidInput(problems[0]) : PipelineError.invalidInputs(problems)
        }
        return (value, YAMLDocument(root: composed))
    }

    /// The one entry point from YAML text to a node tree, bounded by `InputLimits`: the file's size,
    /// then (after libyaml composed it, aliases sharing their anchor's node) the node count and the
    /// scalars' bytes with every alias expanded, the nesting depth and the tags. Decoding and every later walk visit the expanded tree, so
    /// the count is checked first, visiting at most `InputLimits.yamlNodes` nodes. nil for an empty document.
    public static func compose(_ text: String, path: String) throws -> Node? {
        let size = text.utf8.count
        guard size <= InputLimits.yamlFileBytes else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the YAML file is \(size) bytes, more than the limit of \(InputLimits.yamlFileBytes)",
                    fix: "Check that this is the intended file; YAML specs and requests are a few kilobytes"))
        }
        let root: Node?
        // Composed with the basic resolver: every plain scalar's tag is `str`, where the default one runs
        // up to seven regular expressions per scalar each time Yams hashes a key to refuse duplicates
        // (three quarters of composing a 100 KB sources.yaml). Nothing here reads resolved tags: the
        // decoder and `YAMLTree` read scalars by their text and style. Duplicate keys are still refused,
        // now by text alone (a plain `1` and a quoted `'1'` are the same key, as the decoder reads them).
        do { root = try Yams.compose(yaml: text, .basic) } catch let error as YamlError {
            throw PipelineError.invalidInput(diagnostic(for: error, path: path))
        }
        guard let root else { return nil }
        var budget = YAMLBudget()
        if let problem = budget.visit(root, depth: 1) {
            let mark = problem.node.mark
            let (message, fix): (String, String)
            switch problem.kind {
            case .tooDeep:
                (message, fix) = (
                    "the YAML nests deeper than \(InputLimits.yamlDepth) levels",
                    "Flatten the document; specs and requests need a few levels"
                )
            case .tooMany:
                (message, fix) = (
                    "the YAML expands to more than \(InputLimits.yamlNodes) values once its aliases are repeated (an anchor &name copied by *name, again and again: a 'billion laughs' document)",
                    "Write the values out instead of repeating anchors through aliases"
                )
            case .tooLarge:
                (message, fix) = (
                    "the YAML's text expands to more than \(InputLimits.yamlExpandedBytes) bytes once its aliases are repeated (an anchor &name holding a long value, copied by *name again and again)",
                    "Write the values out instead of repeating anchors through aliases"
                )
            case .tag(let name):
                (message, fix) = (
                    "the YAML tag '\(Diagnostic.quoted(name))' is not one of the core schema's (str, int, float, bool, null, seq, map)",
                    "Remove the tag; values are read by their text"
                )
            }
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: mark?.line ?? 1, column: mark?.column), message, fix: fix))
        }
        return root
    }

    /// `compose(_:path:)` for readers that only locate a value in text that already decoded: nil when
    /// the text does not compose or is over a limit.
    static func composeIfBounded(_ text: String) -> Node? {
        (try? compose(text, path: "")) ?? nil
    }

    /// The tags a node may be written with: none (`""`, resolved by its text), the non-specific `!`, and the
    /// core schema's. Any other (`!!binary`, `!!python/object`, `!local`) asks for a type nothing here reads.
    private static let coreTags: Set<String> = Set(
        [Tag.Name.implicit, .nonSpecific, .str, .int, .float, .bool, .null, .seq, .map].map(\.rawValue))

    /// The tag `node` was written with, not resolved (`Node.tag` would resolve it, for good: a plain
    /// `true` would then read as the string it resolves to with the basic resolver, not as a boolean).
    private static func writtenTag(_ node: Node) -> String? {
        switch node {
        case .scalar(let scalar): scalar.tag.rawValue
        case .mapping(let mapping): mapping.tag.rawValue
        case .sequence(let sequence): sequence.tag.rawValue
        case .alias: nil
        }
    }

    /// Counts nodes and scalar bytes as decoding will see them (aliases expanded), checks each node's tag,
    /// and stops at the first node past a limit. A count is located at the top-level value being walked
    /// (a top-level key's value or list item): inside an expanded alias every node carries its anchor's
    /// position, not the alias's.
    private struct YAMLBudget {
        var visited = 0
        var bytes = 0
        enum Kind { case tooDeep, tooMany, tooLarge, tag(String) }
        struct Problem { var node: Node; var kind: Kind }

        mutating func visit(_ node: Node, depth: Int, top: Node? = nil) -> Problem? {
            let top = depth == 2 ? node : top
            visited += 1
            if visited > InputLimits.yamlNodes { return Problem(node: top ?? node, kind: .tooMany) }
            if depth > InputLimits.yamlDepth { return Problem(node: node, kind: .tooDeep) }
            if let tag = StrictYAML.writtenTag(node), !StrictYAML.coreTags.contains(tag) { return Problem(node: node, kind: .tag(tag)) }
            switch node {
            case .mapping(let mapping):
                for pair in mapping {
                    if let problem = visit(pair.key, depth: depth + 1, top: top) ?? visit(pair.value, depth: depth + 1, top: top) {
                        return problem
                    }
                }
            case .sequence(let sequence):
                for child in sequence {
                    if let problem = visit(child, depth: depth + 1, top: top) { return problem }
                }
            case .scalar(let scalar):
                bytes += scalar.string.utf8.count
                if bytes > InputLimits.yamlExpandedBytes { return Problem(node: top ?? node, kind: .tooLarge) }
            case .alias:
                break
            }
            return nil
        }
    }

    /// Words Yams' default resolver reads as booleans or null; every other rule (int, float, merge,
    /// null's `~` and empty text, timestamp, value) needs a first character that is not a letter.
    private static let nonStringWords: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
    ]

    /// Whether `Resolver.default` resolves this plain scalar to `str`, decided without its regexes for
    /// text that starts with an ASCII letter and ends with a printable ASCII character (no trailing line
    /// break, which `$` would allow); false means "let Yams decide".
    static func isPlainString(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, first | 0x20 >= 0x61, first | 0x20 <= 0x7A,
            last >= 0x21, last <= 0x7E
        else { return false }
        return utf8.count > 5 || !nonStringWords.contains(text)
    }

    /// The node at a decoding path, for locating an error.
    public static func locate(_ codingPath: [CodingKey], in root: Node) -> Node? {
        var node = root
        for key in codingPath {
            if let index = key.intValue, let sequence = node.sequence {
                guard index < sequence.count else { return node }
                node = sequence[index]
            } else if let mapping = node.mapping {
                guard let child = mapping.first(where: { $0.key.string == key.stringValue })?.value else { return node }
                node = child
            } else {
                return node
            }
        }
        return node
    }

    /// For a missing key, the key of the same mapping that looks like a misspelling of it (an edit distance
    /// of at most a third of its length, at least 2), reported as the unknown key it is.
    static func misspelling(in error: DecodingError, root: Node, path: String) -> Diagnostic? {
        guard case .keyNotFound(let missing, let context) = error,
            let mapping = locate(context.codingPath, in: root)?.mapping
        else { return nil }
        let wanted = missing.stringValue
        let limit = max(2, wanted.count / 3)
        let close = mapping.compactMap { pair -> (Int, Node)? in
            guard let key = pair.key.string, key != wanted else { return nil }
            let distance = editDistance(key.lowercased(), wanted.lowercased())
            return distance <= limit ? (distance, pair.key) : nil
        }.min { $0.0 < $1.0 }
        guard let (_, keyNode) = close, let key = keyNode.string else { return nil }
        let at = context.codingPath.isEmpty ? "" : " in \(codingPathText(context.codingPath))"
        return Diagnostic(
            .error, at: SourceLocation(path: path, line: keyNode.mark?.line, column: keyNode.mark?.column),
            "unknown key '\(key)'\(at), and the required key '\(wanted)' is missing",
            fix: "Rename '\(key)' to '\(wanted)'")
    }

    /// Levenshtein distance over Unicode scalars (keys are short).
    static func editDistance(_ a: String, _ b: String) -> Int {
        EditDistance.between(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    static func explain(_ error: DecodingError) -> ([CodingKey], String) {
        switch error {
        case .keyNotFound(let key, let context):
            let parent = codingPathText(context.codingPath)
            return (context.codingPath, "missing key '\(key.stringValue)'" + (parent.isEmpty ? "" : " in \(parent)"))
        case .typeMismatch(let type, let context):
            return (context.codingPath, "\(codingPathText(context.codingPath)): expected \(typeName(type))")
        case .valueNotFound(let type, let context):
            return (context.codingPath, "\(codingPathText(context.codingPath)): expected \(typeName(type)), found nothing")
        case .dataCorrupted(let context):
            let at = codingPathText(context.codingPath)
            return (context.codingPath, (at.isEmpty ? "" : "\(at): ") + context.debugDescription)
        @unknown default:
            return ([], "\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") || name == "Sequence" { return "a list" }
            if name.hasPrefix("Dictionary") || name == "Mapping" { return "a mapping" }
            return name
        }
    }

    static func diagnostic(for error: YamlError, path: String) -> Diagnostic {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return Diagnostic(
                .error, at: SourceLocation(path: path, line: mark.line, column: mark.column),
                "YAML syntax: \(problem)", fix: "Fix the YAML at that position")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return Diagnostic(
                .error, at: SourceLocation(path: path, line: context.mark.line, column: context.mark.column),
                "duplicate key \(duplicates.sorted().map { "'\($0)'" }.joined(separator: ", "))",
                fix: "Keep one of them")
        case .reader(let problem, let offset, let value, let yaml):
            // A character the YAML reader refuses (a control character, a stray NUL): point at it.
            var line = 1, column = 1
            if let offset, let end = yaml.index(yaml.startIndex, offsetBy: offset, limitedBy: yaml.endIndex) {
                for character in yaml[..<end] {
                    if character.isNewline { line += 1; column = 1 } else { column += 1 }
                }
            }
            let character = value >= 0 ? String(format: " (U+%04X)", Int(value)) : ""
            return Diagnostic(
                .error, at: SourceLocation(path: path, line: line, column: column),
                "YAML: \(problem)\(character)", fix: "Remove the character, and save the file as UTF-8 text")
        default:
            let text = "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
            return Diagnostic(
                .error, at: SourceLocation(path: path, line: 1), "YAML: \(text)",
                fix: "Save the file as UTF-8 YAML")
        }
    }
}

/// A YAML text as composed by `StrictYAML.decodeDocument`, for locating its values.
public struct YAMLDocument {
    let root: Node
}
