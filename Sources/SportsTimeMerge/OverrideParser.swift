import Foundation
import SportsTimeCore

/// One field patch from an override file: set `field` of the `entity` record `recordId` to `value`.
public struct OverridePatch: Sendable, Hashable {
    public var entity: EntityKind
    public var recordId: String
    public var field: String
    public var value: MergeFieldValue
    /// Why the data is fixed by hand (required).
    public var reason: String
    /// Where the field's value is in the override file.
    public var location: SourceLocation
}

/// Reads override files (`fixtures/overrides/*.yaml`, format in its README):
///
/// ```yaml
/// overrides:
///   - entity: game
///     id: mlb-2023-2023-03-30-bal-at-bos
///     set:
///       startUTC: 2023-03-30T18:10:00Z
///       timeTBD: false
///     reason: Retrosheet gives only day/night; first pitch was 2:10 p.m. EDT.
/// ```
///
/// Strict: unknown keys, an unknown entity or field, a field that cannot be patched, a value of the
/// wrong type, a missing reason and two patches of one field are errors with file, line and column.
public enum OverrideParser {
    /// Parses every file (path is repository-relative, shown in messages) and returns the patches,
    /// sorted by entity (fold order), record id and field. Throws every problem at once.
    public static func parse(files: [(path: String, text: String)]) throws -> [OverridePatch] {
        try parse(files: files, decode: decode)
    }

    /// `parse(files:)` and `retiredSources(files:)` together, each file's YAML decoded once for both.
    public static func patchesAndRetiredSources(files: [(path: String, text: String)]) throws
        -> (patches: [OverridePatch], retired: [RetiredSource])
    {
        var documents: [String: OverrideDocument] = [:]
        let patches = try parse(files: files) { text, path in
            let document = try decode(text, path)
            documents[path] = document
            return document
        }
        let retired = try retiredSources(files: files) { text, path in try documents[path] ?? decode(text, path) }
        return (patches, retired)
    }

    /// One override file's document.
    private static func decode(_ text: String, _ path: String) throws -> OverrideDocument {
        try StrictYAML.decode(OverrideDocument.self, from: text, path: path)
    }

    private static func parse(
        files: [(path: String, text: String)], decode: (String, String) throws -> OverrideDocument
    ) throws -> [OverridePatch] {
        var patches: [OverridePatch] = []
        var problems: [Diagnostic] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            do {
                patches += try parse(text: file.text, path: file.path, decode: decode)
            } catch let error as PipelineError {
                problems += error.diagnostics
            }
        }
        var seen: [String: OverridePatch] = [:]
        for patch in patches {
            let key = "\(patch.entity.rawValue)\u{0}\(patch.recordId)\u{0}\(patch.field)"
            if let first = seen[key] {
                problems.append(
                    Diagnostic(
                        .error, at: patch.location,
                        "\(patch.entity.overrideName) '\(patch.recordId)' field '\(patch.field)' is already overridden at \(first.location)",
                        fix: "Keep one of the two overrides"))
            } else {
                seen[key] = patch
            }
        }
        if !problems.isEmpty {
            let sorted = problems.sorted { ($0.location ?? SourceLocation(path: "")) < ($1.location ?? SourceLocation(path: "")) }
            throw sorted.count == 1 ? PipelineError.invalidInput(sorted[0]) : PipelineError.invalidInputs(sorted)
        }
        return patches.sorted { ($0.entity, $0.recordId, $0.field) < ($1.entity, $1.recordId, $1.field) }
    }

    /// Parses one override file.
    public static func parse(text: String, path: String) throws -> [OverridePatch] {
        try parse(text: text, path: path, decode: decode)
    }

    private static func parse(
        text: String, path: String, decode: (String, String) throws -> OverrideDocument
    ) throws -> [OverridePatch] {
        let document = try decode(text, path)
        var patches: [OverridePatch] = []
        var problems: [Diagnostic] = []
        // Every patch keeps where it is written: the text composed once for all of them.
        let locator = YAMLLocator(text: text, path: path)
        func location(_ components: [YAMLPathElement], atKey: Bool = false) -> SourceLocation {
            atKey ? locator.keyLocation(components) : locator.location(components)
        }
        for (index, entry) in (document.overrides ?? []).enumerated() {
            let at: [YAMLPathElement] = [.key("overrides"), .index(index)]
            guard let kind = EntityKind(overrideName: entry.entity) else {
                problems.append(
                    Diagnostic(
                        .error, at: location(at + [.key("entity")]), "unknown entity '\(entry.entity)'",
                        fix: "Use one of: \(EntityKind.foldOrder.map(\.overrideName).joined(separator: ", "))"))
                continue
            }
            if entry.id.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append(
                    Diagnostic(
                        .error, at: location(at + [.key("id")]), "the override has an empty id",
                        fix: "Give the id of the \(entry.entity) to patch"))
                continue
            }
            let reason = entry.reason.trimmingCharacters(in: .whitespacesAndNewlines)
            if reason.isEmpty {
                problems.append(
                    Diagnostic(
                        .error, at: location(at + [.key("reason")]), "the override of '\(entry.id)' has an empty reason",
                        fix: "Say why the data is fixed by hand, with a source"))
                continue
            }
            if entry.set.isEmpty {
                problems.append(
                    Diagnostic(
                        .error, at: location(at + [.key("set")]), "the override of '\(entry.id)' sets no field",
                        fix: "Add field: value pairs under set, or remove the override"))
                continue
            }
            for field in entry.set.keys.sorted() {
                let fieldPath = at + [.key("set"), .key(field)]
                switch parseValue(entry.set[field]!, field: field, kind: kind) {
                case .success(let value):
                    patches.append(
                        OverridePatch(
                            entity: kind, recordId: entry.id, field: field, value: value,
                            reason: reason, location: location(fieldPath)))
                case .failure(let problem):
                    problems.append(Diagnostic(.error, at: location(fieldPath, atKey: problem.atKey), problem.message, fix: problem.fix))
                }
            }
        }
        if !problems.isEmpty {
            throw problems.count == 1 ? PipelineError.invalidInput(problems[0]) : PipelineError.invalidInputs(problems)
        }
        return patches
    }

    /// The sources the files declare retired (`retiredSources:`), sorted by source. Each needs a source
    /// id and a reason; one source declared twice is an error at the second.
    public static func retiredSources(files: [(path: String, text: String)]) throws -> [RetiredSource] {
        try retiredSources(files: files, decode: decode)
    }

    private static func retiredSources(
        files: [(path: String, text: String)], decode: (String, String) throws -> OverrideDocument
    ) throws -> [RetiredSource] {
        var retired: [String: RetiredSource] = [:]
        var problems: [Diagnostic] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            guard let entries = try decode(file.text, file.path).retiredSources, !entries.isEmpty else { continue }
            let locator = YAMLLocator(text: file.text, path: file.path)
            for (index, entry) in entries.enumerated() {
                let at: [YAMLPathElement] = [.key("retiredSources"), .index(index)]
                func location(_ key: String) -> SourceLocation { locator.location(at + [.key(key)]) }
                let source = entry.source.trimmingCharacters(in: .whitespaces)
                let reason = entry.reason.trimmingCharacters(in: .whitespacesAndNewlines)
                if source.isEmpty {
                    problems.append(
                        Diagnostic(
                            .error, at: location("source"), "a retired source has an empty id",
                            fix: "Give the id the source had in pipeline/sources.yaml"))
                } else if reason.isEmpty {
                    problems.append(
                        Diagnostic(
                            .error, at: location("reason"), "retired source '\(source)' has an empty reason",
                            fix: "Say why the source was removed"))
                } else if let first = retired[source] {
                    problems.append(
                        Diagnostic(
                            .error, at: location("source"), "source '\(source)' is already declared retired at \(first.location)",
                            fix: "Keep one of the two"))
                } else {
                    retired[source] = RetiredSource(source: source, reason: reason, location: location("source"))
                }
            }
        }
        if !problems.isEmpty {
            throw problems.count == 1 ? PipelineError.invalidInput(problems[0]) : PipelineError.invalidInputs(problems)
        }
        return retired.values.sorted { $0.source < $1.source }
    }

    /// Fields every record has that no override may set: they are the record's identity and history.
    static let lockedFields: Set<String> = ["id", "lastModified", "schemaVersion", "source"]

    /// Fields that exist but are part of a record's identity or file placement.
    static func identityFields(of kind: EntityKind) -> Set<String> {
        switch kind {
        case .sports: ["isBuiltIn"]
        case .stadiums: []
        case .teams: ["sport"]
        case .games: ["sport", "season", "sourceIds"]
        case .leagueStructures: ["sport"]
        case .teamAliases: ["teamId", "kind"]
        case .stadiumAliases: ["stadiumId"]
        }
    }

    struct FieldProblem: Error {
        var message: String
        var fix: String
        var atKey: Bool
    }

    static func parseValue(_ scalar: OverrideScalar, field: String, kind: EntityKind) -> Result<MergeFieldValue, FieldProblem> {
        switch kind {
        case .sports: parseValue(scalar, field: field, kind: kind, fields: Sport.overrideFields)
        case .stadiums: parseValue(scalar, field: field, kind: kind, fields: Stadium.overrideFields)
        case .teams: parseValue(scalar, field: field, kind: kind, fields: Team.overrideFields)
        case .games: parseValue(scalar, field: field, kind: kind, fields: Game.overrideFields)
        case .leagueStructures: parseValue(scalar, field: field, kind: kind, fields: LeagueStructure.overrideFields)
        case .teamAliases: parseValue(scalar, field: field, kind: kind, fields: TeamAlias.overrideFields)
        case .stadiumAliases: parseValue(scalar, field: field, kind: kind, fields: StadiumAlias.overrideFields)
        }
    }

    static func parseValue<Record>(
        _ scalar: OverrideScalar, field: String, kind: EntityKind,
        fields: [String: OverrideField<Record>]
    ) -> Result<MergeFieldValue, FieldProblem> {
        guard let spec = fields[field] else {
            let patchable = fields.keys.sorted().joined(separator: ", ")
            if lockedFields.contains(field) || identityFields(of: kind).contains(field) {
                return .failure(
                    FieldProblem(
                        message:
                            "field '\(field)' of a \(kind.overrideName) cannot be overridden: it is part of the record's identity or history",
                        fix: "Fix the source or the reference data instead; patchable fields: \(patchable)", atKey: true))
            }
            return .failure(
                FieldProblem(
                    message: "unknown field '\(field)' for entity \(kind.overrideName)",
                    fix: "Use one of: \(patchable)", atKey: true))
        }
        switch spec.parse(scalar.text) {
        case .success(let value): return .success(value)
        case .failure(let refusal):
            return .failure(
                FieldProblem(
                    message: "field '\(field)' of a \(kind.overrideName): \(refusal.reason)",
                    fix: "Fix the value", atKey: false))
        }
    }
}

/// The YAML document of one override file.
struct OverrideDocument: Decodable {
    var overrides: [OverrideEntry]?
    var retiredSources: [RetiredSourceEntry]?
}

/// A source removed from `pipeline/sources.yaml` on purpose: merge may drop what only it gave.
struct RetiredSourceEntry: Decodable {
    var source: String
    var reason: String
}

/// A source declared retired in an override file, with why (`retiredSources:`).
public struct RetiredSource: Sendable, Hashable {
    public var source: String
    public var reason: String
    public var location: SourceLocation
}

/// One entry: which record, which fields, and why.
struct OverrideEntry: Decodable {
    var entity: String
    var id: String
    var set: [String: OverrideScalar]
    var reason: String
}

/// A YAML scalar kept as written (`nil` for null), so the field's type decides how to read it:
/// untyped YAML would turn `010` into 8 and dates into timestamps.
struct OverrideScalar: Decodable, Hashable {
    var text: String?

    init(text: String?) { self.text = text }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        text = container.decodeNil() ? nil : try container.decode(String.self)
    }
}
