import Foundation

/// The documented keys of one YAML input (`pipeline/sources.yaml`, a plan request, ...), declared by
/// the module that reads it, next to the reader's `CodingKeys`. `docs/yaml-reference.md` and the
/// editor schemas in `pipeline/schemas/` are generated from these tables
/// (`make schemas`), and tests hold each table to its reader's keys, so the reference cannot drift.
public struct YAMLFileReference: Sendable {
    /// The file as the user knows it: `pipeline/sources.yaml`, `fixtures/requests/<id>.yaml`.
    public var title: String
    /// Repository-relative globs of the committed files it describes (one `*` at most per name).
    public var files: [String]
    /// The schema's file name in `pipeline/schemas/`.
    public var schemaFile: String
    /// Which program reads it, and where its reader is.
    public var readBy: String
    /// What the file is for, in a sentence or two.
    public var summary: String
    /// The document's top-level value.
    public var root: YAMLValueType

    public init(
        title: String, files: [String], schemaFile: String, readBy: String, summary: String,
        root: YAMLValueType
    ) {
        self.title = title; self.files = files; self.schemaFile = schemaFile; self.readBy = readBy
        self.summary = summary; self.root = root
    }

    /// Every mapping reachable from the root, each once, in the order first met (depth first).
    public var records: [YAMLRecord] {
        var seen: Set<String> = []
        var result: [YAMLRecord] = []
        func visit(_ type: YAMLValueType) {
            switch type {
            case .list(let element), .map(let element), .closedMap(_, let element): visit(element)
            case .either(let alternatives): alternatives.forEach(visit)
            case .record(let record):
                guard seen.insert(record.name).inserted else { return }
                result.append(record)
                record.keys.forEach { visit($0.type) }
            default: break
            }
        }
        visit(root)
        return result
    }
}

/// The type of a YAML value, as the reader accepts it.
public indirect enum YAMLValueType: Sendable {
    case string
    /// A string matching a regular expression (ECMAScript syntax, as JSON Schema uses), e.g. a time `HH:MM`.
    case matching(String, example: String)
    /// An ISO-8601 instant such as `2023-03-01T00:00:00Z`.
    case instant
    /// A calendar date `YYYY-MM-DD`.
    case date
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    case number(minimum: Double? = nil, maximum: Double? = nil)
    case boolean
    /// Any scalar: a string, number, `true`/`false` or `null` (its meaning decided by another key).
    case scalar
    /// One of a closed set of strings.
    case choice([String])
    case list(YAMLValueType)
    /// A mapping from names the user chooses to values of one type.
    case map(YAMLValueType)
    /// A mapping whose keys are some of a closed set of names, each to a value of one type.
    case closedMap([String], YAMLValueType)
    /// A mapping with fixed keys.
    case record(YAMLRecord)
    /// Any of the alternatives (a column name or a mapping, a list or a mapping, ...).
    case either([YAMLValueType])
}

/// A mapping with fixed keys: one reader struct.
public struct YAMLRecord: Sendable {
    /// Its name in the reference and in the schema's `$defs` (`source`, `mapping`, `stage`).
    public var name: String
    public var summary: String
    public var keys: [YAMLKey]
    /// The keys the reader decodes (its `CodingKeys`), held equal to `keys` by the reference tests.
    public var decodedKeys: [String]
    /// The Swift type that decodes it, for tests that decode the tables' samples with the real reader.
    public var swiftType: String

    /// A record whose reader decodes exactly the cases of `codingKeys`.
    public init<Reader, Keys: CodingKey & CaseIterable>(
        _ name: String, reader: Reader.Type, codingKeys: Keys.Type,
        summary: String, keys: [YAMLKey]
    ) {
        self.init(name, reader: reader, decodedKeys: Keys.allCases.map(\.stringValue), summary: summary, keys: keys)
    }

    /// A record whose reader decodes by hand: `decodedKeys` are the keys it reads.
    public init<Reader>(_ name: String, reader: Reader.Type, decodedKeys: [String], summary: String, keys: [YAMLKey]) {
        self.name = name; self.summary = summary; self.keys = keys; self.decodedKeys = decodedKeys
        self.swiftType = String(describing: reader)
    }
}

/// One documented key of a mapping.
public struct YAMLKey: Sendable {
    public var name: String
    public var type: YAMLValueType
    public var isRequired: Bool
    /// What an absent key means, as text (`true`, `` `<sport>-<season>` ``, `the format's preset`).
    public var defaultValue: String?
    /// One or two sentences; the first is shown on hover in an editor.
    public var description: String

    public static func required(_ name: String, _ type: YAMLValueType, _ description: String) -> YAMLKey {
        YAMLKey(name: name, type: type, isRequired: true, defaultValue: nil, description: description)
    }

    public static func optional(
        _ name: String, _ type: YAMLValueType, default defaultValue: String? = nil,
        _ description: String
    ) -> YAMLKey {
        YAMLKey(name: name, type: type, isRequired: false, defaultValue: defaultValue, description: description)
    }
}
