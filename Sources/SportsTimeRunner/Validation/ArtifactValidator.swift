import Foundation
import SportsTimeCore

/// What validating one output file found.
public struct ValidatedFile: Sendable, Hashable {
    public var problems: [Diagnostic] = []
    /// Records in an envelope, or lines in a JSON Lines file; nil for other files.
    public var records: Int?
    /// Whether the file is a rejects file (`rejects*.jsonl`), whose lines count as rejected records.
    public var isRejects = false
    /// Whether the file lists rows a filter left out (`filtered*.jsonl`), counted apart from records.
    public var isFiltered = false
    /// The envelope's kind, when it is one.
    public var kind: ArtifactKind?
}

/// Checks a stage's outputs before they are published: every `.json` file is an envelope of a known
/// kind and supported version that matches `pipeline/schemas/<kind>.schema.json`; every `.jsonl` line is
/// a JSON object. Other files (Markdown, HTML, iCalendar, GeoJSON) are published as they are.
public struct ArtifactValidator: Sendable {
    /// The stage whose outputs are checked (named in the fix); nil when unknown.
    public let stage: String?
    /// The schema for a kind, or nil when the repository has none.
    public let schema: @Sendable (ArtifactKind) throws -> SchemaValidator?

    private var writer: String { stage.map { "stage '\($0)'" } ?? "the stage that wrote it" }

    /// The revision of the checking rules below. `ValidationCache` keeps results only for the same
    /// revision: raise it whenever a change here could make a file that passed before fail, or count
    /// differently.
    static let rulesRevision = 1

    /// What `validate(_:path:)` finds for a file that validated cleanly before (`ValidationCache`).
    func validated(path: String, records: Int?, kind: ArtifactKind?) -> ValidatedFile {
        var result = ValidatedFile()
        result.records = records
        result.kind = kind
        if path.hasSuffix(".jsonl") {
            let name = path.split(separator: "/").last ?? ""
            result.isRejects = name.hasPrefix("rejects")
            result.isFiltered = name.hasPrefix("filtered")
        }
        return result
    }

    /// Validates `data`; `path` is the file's published path, shown in messages.
    public func validate(_ data: Data, path: String) -> ValidatedFile {
        if path.hasSuffix(".jsonl") { return validateLines(data, path: path) }
        guard path.hasSuffix(".json") else { return ValidatedFile() }
        var result = ValidatedFile()
        func fail(_ message: String, line: Int? = 1, fix: String) {
            result.problems.append(Diagnostic(.error, at: SourceLocation(path: path, line: line), message, fix: fix))
        }
        let rerun = "Fix \(writer) so it writes envelopes, then run it again"
        let document: JSONValue
        do { document = try JSONParser.parse(data) } catch let error as JSONSyntaxError {
            result.problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: error.line, column: error.column),
                    "not valid JSON: \(error.message)", fix: rerun))
            return result
        } catch {
            fail("not valid JSON: \(error)", fix: rerun)
            return result
        }
        guard let kindName = document["kind"]?.stringValue else {
            fail("not a SportsTime envelope (no 'kind')", fix: rerun)
            return result
        }
        guard let kind = ArtifactKind(rawValue: kindName) else {
            fail(
                "kind '\(kindName)' is not a known artifact kind (known: \(ArtifactKind.allCases.map(\.rawValue).joined(separator: ", ")))",
                fix: rerun)
            return result
        }
        result.kind = kind
        guard let version = document["schemaVersion"], version.isInteger, let number = version.doubleValue else {
            fail("envelope has no integer schemaVersion", fix: rerun)
            return result
        }
        guard number >= 1, number <= Double(kind.currentVersion) else {
            fail(
                "schemaVersion \(version.compactText) of \(kind.rawValue) is not one this build supports (1 to \(kind.currentVersion))",
                fix: "Rebuild, or fix \(writer)")
            return result
        }
        let records = document["records"]?.arrayValue
        result.records = records?.count
        let schemaPath = "pipeline/schemas/\(kind.rawValue).schema.json"
        let validator: SchemaValidator?
        do { validator = try schema(kind) } catch {
            fail("\(schemaPath) cannot be used: \(error)", fix: "Fix the schema")
            return result
        }
        guard let validator else {
            fail("no schema for kind \(kind.rawValue)", fix: "Add \(schemaPath)")
            return result
        }
        var recordLines: [Int]?
        result.problems += violations(
            of: document, data: data, path: path, validator: validator, schemaPath: schemaPath, recordLines: &recordLines)
        if let records, let duplicate = duplicateID(in: records, data: data, path: path, recordLines: &recordLines) {
            result.problems.append(duplicate)
        }
        return result
    }

    /// The document's schema violations, at most 20; the same problem in many records is reported
    /// once, with how many more records have it. `recordLines` is filled when a record's line is needed.
    private func violations(
        of document: JSONValue, data: Data, path: String, validator: SchemaValidator, schemaPath: String,
        recordLines: inout [Int]?
    ) -> [Diagnostic] {
        var groups: [(first: SchemaViolation, more: Int)] = []
        var groupIndex: [String: Int] = [:]
        for violation in validator.violations(of: document, limit: 10_000) {
            let key = Self.starred(violation.path) + "\u{0}" + violation.message
            if let index = groupIndex[key] { groups[index].more += 1; continue }
            groupIndex[key] = groups.count
            groups.append((violation, 0))
        }
        var problems: [Diagnostic] = []
        for (violation, more) in groups.prefix(20) {
            var line = 1
            if violation.path.hasPrefix("records["), let close = violation.path.firstIndex(of: "]"),
                let index = Int(violation.path[violation.path.index(violation.path.startIndex, offsetBy: 8)..<close])
            {
                if recordLines == nil { recordLines = Self.recordLines(in: data) }
                if let lines = recordLines, index < lines.count { line = lines[index] }
            }
            let also = more == 0 ? "" : " (and \(Format.count(more)) more record\(more == 1 ? "" : "s") like it)"
            problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: line), violation.description + also,
                    fix: "Fix \(writer), or update \(schemaPath) if the record type changed"))
        }
        return problems
    }

    /// The first record whose id an earlier record has.
    private func duplicateID(in records: [JSONValue], data: Data, path: String, recordLines: inout [Int]?) -> Diagnostic? {
        var seen = Set<String>()
        for (index, record) in records.enumerated() {
            guard let id = record["id"]?.stringValue else { continue }
            if !seen.insert(id).inserted {
                if recordLines == nil { recordLines = Self.recordLines(in: data) }
                return Diagnostic(
                    .error,
                    at: SourceLocation(path: path, line: recordLines.flatMap { index < $0.count ? $0[index] : nil } ?? 1),
                    "records[\(index)]: duplicate id '\(id)'", fix: "Fix \(writer) so every record id is unique in a file")
            }
        }
        return nil
    }

    /// Validates a file of an out with a schema of the stage's own (`schema:` in the spec): a `.json`
    /// file as one document, a `.jsonl` file line by line; other files are published as they are.
    public func validate(_ data: Data, path: String, against schema: SchemaValidator, schemaPath: String) -> ValidatedFile {
        var result = ValidatedFile()
        let fix = "Fix \(writer), or \(schemaPath) if the output's shape changed"
        func check(_ document: JSONValue, line: Int) -> Bool {
            for violation in schema.violations(of: document, limit: 20) {
                result.problems.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: path, line: line),
                        violation.description + " (\(schemaPath))", fix: fix))
                if result.problems.count >= 20 { return false }
            }
            return true
        }
        if path.hasSuffix(".json") {
            do { _ = check(try JSONParser.parse(data), line: 1) } catch let error as JSONSyntaxError {
                result.problems.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: path, line: error.line, column: error.column),
                        "not valid JSON: \(error.message)", fix: fix))
            } catch {
                result.problems.append(Diagnostic(.error, at: SourceLocation(path: path, line: 1), "not valid JSON", fix: fix))
            }
        } else if path.hasSuffix(".jsonl") {
            ByteLines.forEach(data) { number, line in
                if ByteLines.isBlank(line) { return true }
                do { return check(try JSONParser.parse(Data(line)), line: number) } catch let error as JSONSyntaxError {
                    result.problems.append(
                        Diagnostic(
                            .error, at: SourceLocation(path: path, line: number, column: error.column),
                            "not valid JSON: \(error.message)", fix: fix))
                } catch {
                    result.problems.append(Diagnostic(.error, at: SourceLocation(path: path, line: number), "not valid JSON", fix: fix))
                }
                return result.problems.count < 20
            }
        }
        return result
    }

    private func validateLines(_ data: Data, path: String) -> ValidatedFile {
        var result = ValidatedFile()
        result.isRejects = (path.split(separator: "/").last ?? "").hasPrefix("rejects")
        result.isFiltered = (path.split(separator: "/").last ?? "").hasPrefix("filtered")
        var count = 0
        var problems: [Diagnostic] = []
        let fix = "Fix \(writer)"
        ByteLines.forEach(data) { number, line in
            if ByteLines.isBlank(line) { return true }
            count += 1
            do {
                guard case .members = try JSONParser.parse(Data(line)) else {
                    problems.append(
                        Diagnostic(
                            .error, at: SourceLocation(path: path, line: number),
                            "a JSON Lines entry is not an object", fix: fix))
                    return problems.count < 20
                }
            } catch let error as JSONSyntaxError {
                problems.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: path, line: number, column: error.column),
                        "not valid JSON: \(error.message)", fix: fix))
            } catch {
                problems.append(Diagnostic(.error, at: SourceLocation(path: path, line: number), "not valid JSON", fix: fix))
            }
            return problems.count < 20
        }
        result.problems = problems
        result.records = count
        return result
    }

    /// `records[12].sourceIds` → `records[*].sourceIds`.
    static func starred(_ path: String) -> String {
        var out = ""
        var inIndex = false
        for character in path {
            if character == "[" {
                inIndex = true; out += "[*"
            } else if character == "]" {
                inIndex = false; out += "]"
            } else if !inIndex {
                out.append(character)
            }
        }
        return out
    }

    /// The 1-based line each record starts on, for envelopes in the canonical one-record-per-line layout.
    static func recordLines(in data: Data) -> [Int]? {
        var lines: [Int] = []
        var inRecords = false
        ByteLines.forEach(data) { number, line in
            if !inRecords {
                if ByteLines.hasPrefix(line, "  \"records\": []") { inRecords = true; return false }
                if ByteLines.hasPrefix(line, "  \"records\": [") { inRecords = true }
                return true
            }
            if ByteLines.hasPrefix(line, "  ]") { return false }
            lines.append(number)
            return true
        }
        return inRecords ? lines : nil
    }
}

/// Counting records without parsing: envelopes in the canonical layout have one record per line
/// between `"records": [` and `]`; JSON Lines files have one record per line.
public enum RecordCounter {
    /// Records in `data` when `path` is an envelope (`.json`) or JSON Lines (`.jsonl`) file, else nil.
    public static func count(_ data: Data, path: String) -> Int? {
        if path.hasSuffix(".jsonl") {
            var count = 0
            ByteLines.forEach(data) { _, line in
                if !ByteLines.isBlank(line) { count += 1 }
                return true
            }
            return count
        }
        guard path.hasSuffix(".json") else { return nil }
        return ArtifactValidator.recordLines(in: data)?.count
    }
}
