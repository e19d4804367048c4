import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimeRunner
@testable import SportsTimeIngest

/// The key tables behind docs/yaml-reference.md and pipeline/schemas/*.yaml.schema.json hold to the readers:
/// every key a reader decodes is documented with the type it decodes, the generated files are committed as
/// generated, and every committed YAML input validates against its schema.
/// `RECORD_GOLDENS=1` (or `make schemas`) rewrites the generated files.
@Suite struct YAMLReferenceTests {
    static var allRecords: [(file: String, record: YAMLRecord)] {
        ReferenceCatalog.references.flatMap { file in file.records.map { (file.title, $0) } }
    }

    @Test func everyTableDocumentsExactlyTheKeysItsReaderDecodes() {
        for (file, record) in Self.allRecords {
            let documented = record.keys.map(\.name)
            #expect(Set(documented).count == documented.count, "\(file): '\(record.name)' documents a key twice")
            let undocumented = Set(record.decodedKeys).subtracting(documented).sorted()
            let unread = Set(documented).subtracting(record.decodedKeys).sorted()
            #expect(
                undocumented.isEmpty,
                "\(file): \(record.swiftType) decodes \(undocumented) but '\(record.name)' does not document them: add each to its key table"
            )
            #expect(unread.isEmpty, "\(file): '\(record.name)' documents \(unread), which \(record.swiftType) does not decode")
        }
    }

    /// A document using every documented key decodes with the real reader (so StrictYAML, which refuses
    /// the keys no value asked for, accepts each), and the decoded value's stored properties are exactly
    /// the documented keys at every level, so a property added without documentation fails here.
    @Test(arguments: ReferenceCatalog.readers)
    func aSampleWithEveryKeyDecodesAndItsReaderAcceptsNoOtherKey(_ reader: DocumentedReader) throws {
        let sample = Sample.value(reader.reference.root)
        let value = try reader.decode(sample.compactText, "sample of \(reader.reference.title)")
        var problems: [String] = []
        Self.compare(value, reader.reference.root, at: "", problems: &problems)
        #expect(problems.isEmpty, "\(reader.reference.title): \(problems.joined(separator: "; "))")

        let schema = try SchemaValidator(schema: Data(try YAMLReferenceRenderer.jsonSchema(reader.reference).utf8))
        #expect(schema.violations(of: sample).map(\.description) == [], "the schema refuses the sample of \(reader.reference.title)")
    }

    /// Stored properties that record how a value was written and are not keys (the decoder never asks
    /// for them, so StrictYAML refuses them as keys).
    static let nonKeyProperties: [String: [String]] = ["OutFile": ["isPath"], "FanoutFile": ["isList"]]

    static func compare(_ value: Any, _ type: YAMLValueType, at path: String, problems: inout [String]) {
        var value = value
        while Mirror(reflecting: value).displayStyle == .optional {
            guard let inner = Mirror(reflecting: value).children.first?.value else { problems.append("\(path): nothing decoded"); return }
            value = inner
        }
        let mirror = Mirror(reflecting: value)
        switch type {
        case .record(let record):
            let typeName = String(describing: Swift.type(of: value))
            guard typeName == record.swiftType else {
                problems.append("\(path): '\(record.name)' decoded as \(typeName), not \(record.swiftType)")
                return
            }
            var children: [String: Any] = [:]
            for child in mirror.children {
                guard let label = child.label else { continue }
                children[label.hasPrefix("_") ? String(label.dropFirst()) : label] = child.value
            }
            for key in nonKeyProperties[typeName] ?? [] { children[key] = nil }
            let documented = Set(record.keys.map(\.name))
            let accepted = Set(children.keys)
            if accepted != documented {
                problems.append(
                    "\(path.isEmpty ? record.name : path): \(record.swiftType) accepts \(accepted.subtracting(documented).sorted()) undocumented, documents \(documented.subtracting(accepted).sorted()) it does not store"
                )
            }
            for key in record.keys {
                guard let child = children[key.name] else { continue }
                compare(child, key.type, at: path.isEmpty ? key.name : "\(path).\(key.name)", problems: &problems)
            }
        case .list(let element):
            for (index, child) in mirror.children.enumerated() {
                compare(child.value, element, at: "\(path)[\(index)]", problems: &problems)
            }
        case .map(let element):
            for pair in mirror.children {
                let parts = Mirror(reflecting: pair.value).children.map(\.value)
                if parts.count == 2 { compare(parts[1], element, at: "\(path).\(parts[0])", problems: &problems) }
            }
        case .either(let alternatives):
            for case .record(let record) in alternatives where String(describing: Swift.type(of: value)) == record.swiftType {
                compare(value, .record(record), at: path, problems: &problems)
            }
        default:
            break
        }
    }

    @Test func theCommittedReferenceAndSchemasAreAsGenerated() throws {
        let recording = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
        for file in try ReferenceCatalog.generated() {
            let url = ReferenceCatalog.root.appendingPathComponent(file.path)
            if recording {
                try Data(file.text.utf8).write(to: url)
                continue
            }
            let committed = try? String(contentsOf: url, encoding: .utf8)
            #expect(committed == file.text, "\(file.path) is not what the key tables give: run make schemas and commit it")
        }
    }

    @Test func generationIsDeterministicAndSchemasLoadInTheRunnersValidator() throws {
        let first = try ReferenceCatalog.generated()
        let second = try ReferenceCatalog.generated()
        #expect(first.map(\.text) == second.map(\.text))
        for file in first where file.path.hasSuffix(".json") {
            _ = try SchemaValidator(schema: Data(file.text.utf8))
            #expect(file.text.hasSuffix("}\n"))
        }
    }

    /// Each committed YAML input names its schema on its first line and validates against it.
    @Test(arguments: ReferenceCatalog.readers)
    func committedFilesNameAndMatchTheirSchema(_ reader: DocumentedReader) throws {
        let reference = reader.reference
        let validator = try SchemaValidator(schema: Data(try YAMLReferenceRenderer.jsonSchema(reference).utf8))
        let paths = try reference.files.flatMap(ReferenceCatalog.files(matching:))
        #expect(!paths.isEmpty, "no committed file matches \(reference.files)")
        for path in paths {
            let text = try ReferenceCatalog.text(path)
            let schemaPath = Self.relative("\(ReferenceCatalog.schemaFolder)/\(reference.schemaFile)", from: path)
            let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            #expect(firstLine == "# yaml-language-server: $schema=\(schemaPath)", "\(path): the first line must name its schema")
            let tree = try #require(try YAMLTree.parse(text, path: path))
            let violations = validator.violations(of: JSONValue(tree)).map(\.description)
            #expect(violations.isEmpty, "\(path) does not match \(reference.schemaFile): \(violations)")
            // The reader accepts the file as committed, first line and all.
            _ = try reader.decode(text, path)
        }
    }

    /// The built-in formats' presets are YAML mappings too: each matches the schema's `mapping`.
    @Test func everyBuiltInPresetMatchesTheMappingSchema() throws {
        let validator = try SchemaValidator(schema: Data(try YAMLReferenceRenderer.jsonSchema(SourcesFile.reference).utf8))
        #expect(!BuiltInFormats.presetYAML.isEmpty)
        for (format, text) in BuiltInFormats.presetYAML.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let preset = JSONValue(try #require(try YAMLTree.parse(text, path: format.rawValue)))
            var source = try #require(Sample.value(.record(SourceSpec.record)).objectValue)
            source["mapping"] = preset
            let violations = validator.violations(of: .object(["sources": .array([.object(source)])])).map(\.description)
            #expect(violations == [], "the \(format.rawValue) preset")
        }
    }

    /// `target` as a path relative to the folder of `file` (both repository-relative).
    static func relative(_ target: String, from file: String) -> String {
        let folder = file.split(separator: "/").dropLast()
        let parts = target.split(separator: "/")
        let common = zip(folder, parts).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: folder.count - common) + parts.dropFirst(common).map(String.init)).joined(separator: "/")
    }

    @Test func schemaPathsAreRelativeToTheFile() {
        #expect(Self.relative("pipeline/schemas/a.json", from: "pipeline/sources.yaml") == "schemas/a.json")
        #expect(Self.relative("pipeline/schemas/a.json", from: "fixtures/requests/x.yaml") == "../../pipeline/schemas/a.json")
    }

    /// Every YAML file under pipeline/ and fixtures/ is one of the documented inputs.
    @Test func everyCommittedYAMLInputIsDocumented() throws {
        let covered = Set(try ReferenceCatalog.references.flatMap { try $0.files.flatMap(ReferenceCatalog.files(matching:)) })
        var found: [String] = []
        for top in ["pipeline", "fixtures"] {
            let base = ReferenceCatalog.root.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                // Scraped files are data a source reads, not configuration.
                if top == "fixtures", relative.hasPrefix("scraped/") { continue }
                found.append("\(top)/\(relative)")
            }
        }
        #expect(!found.isEmpty)
        #expect(found.filter { !covered.contains($0) }.sorted() == [], "YAML inputs without a reference: document their reader")
    }

    /// Every type the sources decode with StrictYAML is a documented reader (a mapping of some file), so a
    /// new YAML input cannot be added without its table.
    @Test func everyStrictlyDecodedTypeIsDocumented() throws {
        let documented = Set(Self.allRecords.map(\.record.swiftType))
        let sources = ReferenceCatalog.root.appendingPathComponent("Sources")
        let pattern = /StrictYAML\.decode\(\[?([A-Za-z_][A-Za-z0-9_.]*)\]?\.self/
        var decoded: Set<String> = []
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for match in text.matches(of: pattern) where String(match.1) != "T" { decoded.insert(String(match.1)) }
        }
        #expect(decoded.count >= 5, "the scan found \(decoded.sorted())")
        #expect(decoded.subtracting(documented).sorted() == [], "read from YAML but in no reference table")
    }

    /// The schemas refuse what the readers refuse: an unknown key, a value outside a closed set, a wrong type.
    @Test func schemasFlagUnknownKeysAndBadValues() throws {
        let sources = try SchemaValidator(schema: Data(try YAMLReferenceRenderer.jsonSchema(ReferenceCatalog.readers[0].reference).utf8))
        let yaml = """
            sources:
              - id: demo
                sport: mlb
                season: "2023"
                system: demo
                files: [a.csv]
                format: csv-maping
                scrapedAt: "2023-03-01T00:00:00Z"
                naiveTimeZone: UTC
                rejectThreshold: "2%"
                priority: high
                placeholderTeam: []
                trust: {date: 2, weather: 1}
                mapping: {header: no, fields: {homeTeam: {form: home}}}
            """
        let tree = try #require(try YAMLTree.parse(yaml, path: "t.yaml"))
        let messages = sources.violations(of: JSONValue(tree)).map(\.description)
        #expect(
            messages == [
                "sources[0].format: \"csv-maping\" is not one of \(SourceFormatNames.quoted)",
                "sources[0].mapping.fields.homeTeam: matches none of the allowed forms: expected string, found object {\"form\":\"home\"}; or unknown field 'form'",
                "sources[0].mapping.header: expected boolean, found string \"no\"",
                "sources[0].priority: expected integer, found string \"high\"",
                "sources[0].trust: unknown field 'weather'",
                "sources[0]: unknown field 'placeholderTeam'",
            ])
    }

    @Test func yamlScalarsAreTypedAsAnEditorTypesThem() throws {
        let tree = try #require(
            try YAMLTree.parse(
                """
                a: 2023
                b: "2023"
                c: 2023-24
                d: 0.5
                e: true
                f: ~
                g: no
                h: [1e3, .5, -7]
                """, path: "t.yaml"))
        #expect(
            tree
                == .mapping([
                    ("a", .number("2023")), ("b", .string("2023")), ("c", .string("2023-24")), ("d", .number("0.5")),
                    ("e", .bool(true)), ("f", .null), ("g", .string("no")),
                    ("h", .list([.number("1e3"), .number("0.5"), .number("-7")])),
                ]))
    }
}

enum SourceFormatNames {
    static var quoted: String { SourceFormat.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }
}
