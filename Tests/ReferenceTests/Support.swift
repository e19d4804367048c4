import Foundation
@testable import SportsTimeCore
@testable import SportsTimeIngest
@testable import SportsTimeMerge
@testable import SportsTimePlan
@testable import SportsTimeRunner

/// Every YAML input's reference, with the reader that decodes it (for the sample round trip).
struct DocumentedReader: CustomStringConvertible, Sendable {
    var reference: YAMLFileReference
    var decode: @Sendable (_ text: String, _ path: String) throws -> Any
    var description: String { reference.title }
}

enum ReferenceCatalog {
    /// The order of `docs/yaml-reference.md`.
    static let readers: [DocumentedReader] = [
        DocumentedReader(reference: SourcesFile.reference) { try StrictYAML.decode(SourcesFile.self, from: $0, path: $1) },
        DocumentedReader(reference: PipelineSpec.reference) { try StrictYAML.decode(SpecFile.self, from: $0, path: $1) },
        DocumentedReader(reference: SharedParams.reference) { try SharedParams.parse($0, path: $1).values },
        DocumentedReader(reference: PlanRequest.reference) { try StrictYAML.decode(RequestFile.self, from: $0, path: $1) },
        DocumentedReader(reference: OverrideParser.reference) { try StrictYAML.decode(OverrideDocument.self, from: $0, path: $1) },
        DocumentedReader(reference: ReferenceLoader.sportsReference) {
            try StrictYAML.decode([DynamicSportEntry].self, from: $0, path: $1)
        },
    ]

    static var references: [YAMLFileReference] { readers.map(\.reference) }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let referencePath = "docs/yaml-reference.md"
    static let schemaFolder = "pipeline/schemas"

    /// Every generated file: repository-relative path → bytes.
    static func generated() throws -> [(path: String, text: String)] {
        var files = [(path: referencePath, text: try YAMLReferenceRenderer.markdown(references, schemaFolder: "../\(schemaFolder)"))]
        for reference in references {
            files.append(("\(schemaFolder)/\(reference.schemaFile)", try YAMLReferenceRenderer.jsonSchema(reference)))
        }
        return files
    }

    /// The committed files matching `glob` (repository-relative, at most one `*` in the file name), sorted.
    static func files(matching glob: String) throws -> [String] {
        let folder = (glob as NSString).deletingLastPathComponent
        let pattern = (glob as NSString).lastPathComponent
        guard pattern.contains("*") else {
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(glob).path) ? [glob] : []
        }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
        return names.filter { $0.hasPrefix(parts[0]) && $0.hasSuffix(parts[1]) && $0.count >= parts[0].count + parts[1].count }
            .sorted().map { "\(folder)/\($0)" }
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}

extension JSONValue {
    /// A YAML document as an editor's schema check sees it.
    init(_ tree: YAMLTree) {
        switch tree {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = .number(text)
        case .string(let text): self = .string(text)
        case .list(let items): self = .array(items.map(JSONValue.init))
        case .mapping(let pairs):
            var members: [String: JSONValue] = [:]
            for pair in pairs { members[pair.key] = JSONValue(pair.value) }
            self = .object(members)
        }
    }
}

/// A document that uses every documented key once, with a value of the documented type.
enum Sample {
    static func value(_ type: YAMLValueType) -> JSONValue {
        switch type {
        case .string: return .string("x")
        case .matching(_, let example): return .string(example)
        case .instant: return .string("2023-03-01T00:00:00Z")
        case .date: return .string("2023-06-05")
        case .integer(let minimum, _): return .number(String(minimum ?? 1))
        case .number(let minimum, _): return .number(minimum.map { String(Int($0)) } ?? "1")
        case .boolean: return .bool(true)
        case .scalar: return .string("x")
        case .choice(let values): return .string(values[0])
        case .list(let element): return .array([value(element)])
        case .map(let element): return .object(["name": value(element)])
        case .closedMap(let names, let element): return .object(Dictionary(uniqueKeysWithValues: names.map { ($0, value(element)) }))
        case .record(let record):
            return .object(Dictionary(uniqueKeysWithValues: record.keys.map { ($0.name, value($0.type)) }))
        case .either(let alternatives):
            // The mapping form when there is one: it names the most keys.
            let record = alternatives.first { if case .record = $0 { return true } else { return false } }
            return value(record ?? alternatives[0])
        }
    }
}
