import Foundation
import SportsTimeCore

/// Loads `pipeline/sources.yaml`: strict YAML decoding, then checks of every value with the YAML line
/// of each problem. All problems are reported at once.
public enum SourceCatalog {
    /// The checked sources in file order. Throws `PipelineError.invalidInput(s)` (exit 2).
    public static func load(text: String, path: String) throws -> [SourceConfig] {
        try load(text: text, path: path, only: nil).configs
    }

    /// Sources chosen by id from the spec, and the ids the spec declares.
    public struct Selection: Sendable {
        /// The checked sources chosen, in file order.
        public var configs: [SourceConfig]
        /// Every source id the spec declares, in file order (for naming the choices of an unknown one).
        public var declared: [String]
    }

    /// The sources whose ids are in `only` (all when nil), decoded and checked; the other entries are
    /// not decoded (an ingest of one source does not pay for, or fail on, the others' settings; each
    /// source's own stage checks it). An entry whose id cannot be read is always kept, so its problem
    /// is reported. Throws `PipelineError.invalidInput(s)` (exit 2).
    public static func load(text: String, path: String, only: Set<String>?) throws -> Selection {
        let (file, document, choice) = try StrictYAML.decodeDocument(
            SourcesFile.self, from: text, path: path, selecting: .init(list: "sources", key: "id", values: only))
        // The list positions of the entries decoded (messages and locations name those).
        let positions = choice.positions.count == file.sources.count ? choice.positions : Array(file.sources.indices)
        var problems: [Diagnostic] = []
        var configs: [SourceConfig] = []
        var seen: [String: Int] = [:]
        var presets: [SourceFormat: MappingSpec] = [:]
        let lines = TextLines.split(text).map(String.init)
        let sourceLocations = StrictYAML.locations(of: positions.map { ["sources", .index($0)] }, in: document, path: path)
        for (decoded, spec) in file.sources.enumerated() {
            let index = positions[decoded]
            func fail(_ message: String, fix: String, _ keys: YAMLPathElement...) { fail(message, fix: fix, path: keys) }
            func fail(_ message: String, fix: String, path keys: [YAMLPathElement], offset: Int? = nil) {
                var location = StrictYAML.locations(of: [["sources", .index(index)] + keys], in: document, path: path)[0]
                if let offset, let expression = expressionText(spec, keys) {
                    location = expressionLocation(location, expression: expression, offset: offset, lines: lines)
                }
                problems.append(Diagnostic(.error, at: location, "source '\(spec.id)': \(message)", fix: fix))
            }
            if !isSlug(spec.id) { fail("id '\(spec.id)' is not a slug", fix: "Use lowercase letters, digits and '-'", "id") }
            if let first = seen[spec.id] {
                fail("id '\(spec.id)' is declared twice (first as source \(first + 1))", fix: "Give each source its own id", "id")
            }
            seen[spec.id] = seen[spec.id] ?? index
            if !isSlug(spec.sport) {
                fail("sport '\(spec.sport)' is not a sport id", fix: "Use a lowercase id such as mlb or ufl", "sport")
            }
            if !isSlug(spec.system) {
                fail("system '\(spec.system)' is not a slug", fix: "Use a lowercase name such as retrosheet", "system")
            }
            let seasons = SeasonRange(spec.season)
            if seasons == nil {
                fail("season '\(spec.season)' is not a season", fix: "Write 2023, 2025-26, or a range such as 2022..2025", "season")
            }
            if let scope = spec.scope, !isSlug(scope) {
                fail("scope '\(scope)' is not a slug", fix: "Use lowercase letters, digits and '-'", "scope")
            }
            if spec.files.isEmpty { fail("files is empty", fix: "List the files under fixtures/scraped/\(spec.id)/", "files") }
            for (n, file) in spec.files.enumerated() where file.hasPrefix("/") || file.split(separator: "/").contains("..") || file.isEmpty
            {
                fail(
                    "file '\(file)' is not a path inside the source's folder", fix: "Give a relative path or glob without '..'", "files",
                    .index(n))
            }
            for (n, file) in spec.files.enumerated() {
                guard let control = PathText.controlCharacter(in: file) else { continue }
                fail(
                    "file '\(Diagnostic.quoted(file))' has the control character U+\(String(format: "%04X", control.value))",
                    fix: "Name the file without control characters", "files", .index(n))
            }
            let format = SourceFormat(rawValue: spec.format)
            if format == nil {
                fail(
                    "unknown format '\(spec.format)'",
                    fix: "Use one of: \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", "))", "format")
            }
            let scrapedAt = Instant(iso8601: spec.scrapedAt)
            if scrapedAt == nil {
                fail("scrapedAt '\(spec.scrapedAt)' is not an ISO instant", fix: "Write it like 2025-11-07T12:00:00Z", "scrapedAt")
            }
            let zone = NaiveZone(spec.naiveTimeZone)
            if zone == nil {
                fail(
                    "naiveTimeZone '\(spec.naiveTimeZone)' is not an IANA zone", fix: "Use a zone such as America/New_York, UTC, or venue",
                    "naiveTimeZone")
            }
            let threshold = RejectThreshold(spec.rejectThreshold)
            if threshold == nil {
                fail(
                    "rejectThreshold '\(spec.rejectThreshold)' is neither a count nor a fraction",
                    fix: "Write a count (5), a fraction (0.02) or a percentage (2%)", "rejectThreshold")
            }
            var mapping = MappingSpec()
            if let format {
                if format.isGeneric {
                    if spec.mapping == nil { fail("format \(format.rawValue) needs a mapping", fix: "Add mapping.fields", "format") }
                    mapping = spec.mapping ?? MappingSpec()
                } else {
                    do {
                        if presets[format] == nil { presets[format] = try BuiltInFormats.preset(for: format) }
                        mapping = (presets[format] ?? MappingSpec()).overlaid(by: spec.mapping)
                    } catch let error as PipelineError {
                        problems.append(contentsOf: error.diagnostics)
                    }
                }
                for problem in MappingCheck.problems(in: mapping, format: format, filters: spec.filters ?? []) {
                    fail(problem.message, fix: problem.fix, path: problem.keys, offset: problem.offset)
                }
            }
            if let seasons, !seasons.isSingle, mapping.fields?.season == nil {
                fail(
                    "season '\(spec.season)' is a range but the rows' season is not mapped",
                    fix: "Map fields.season, or declare one season", "season")
            }
            var trust: [FieldGroup: Int] = [:]
            for (name, rank) in (spec.trust ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let group = FieldGroup(rawValue: name) else {
                    fail(
                        "trust names '\(name)', which is not a field group",
                        fix: "Use one of: \(FieldGroup.allCases.map(\.rawValue).joined(separator: ", "))", "trust")
                    continue
                }
                trust[group] = rank
            }
            if let allow = spec.allowShrink, allow.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                fail(
                    "allowShrink.reason is empty",
                    fix: "Say why the source may list fewer games than merge published (or remove allowShrink)",
                    "allowShrink", "reason")
            }
            if let expected = spec.expectedGames, expected.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                fail(
                    "expectedGames.reason is empty",
                    fix: "Say why the files list fewer games than the season has (or remove expectedGames)",
                    "expectedGames", "reason")
            }
            guard let seasons, let format, let scrapedAt, let zone, let threshold else { continue }
            configs.append(
                SourceConfig(
                    id: spec.id, sport: spec.sport, seasons: seasons, system: spec.system,
                    scope: spec.scope ?? "\(spec.sport)-\(seasons.scopeSuffix)", files: spec.files, format: format,
                    mapping: mapping, filters: spec.filters ?? [], scrapedAt: scrapedAt, naiveTimeZone: zone,
                    rejectThreshold: threshold, priority: spec.priority, trust: trust,
                    placeholderTeams: spec.placeholderTeams ?? format.defaultPlaceholderTeams,
                    location: sourceLocations[decoded],
                    expressionStarts: expressionStarts(spec, index: index, document: document, path: path, lines: lines),
                    allowShrinkReason: spec.allowShrink.map { $0.reason.trimmingCharacters(in: .whitespacesAndNewlines) },
                    placeholderStarts: Set((spec.placeholderStarts ?? []).map { $0.lowercased() }),
                    placeholderVenues: Set((spec.placeholderVenues ?? SourceFormat.defaultPlaceholderVenues).map { $0.lowercased() }),
                    expectedGames: spec.expectedGames.map { ($0.perTeam, $0.reason.trimmingCharacters(in: .whitespacesAndNewlines)) }))
        }
        if !problems.isEmpty {
            throw problems.count == 1 ? PipelineError.invalidInput(problems[0]) : PipelineError.invalidInputs(problems)
        }
        return Selection(configs: configs, declared: choice.declared)
    }

    /// The expression text at `keys` of a source (`mapping.fields.<name>.expr` or `...cases[i].when`).
    static func expressionText(_ spec: SourceSpec, _ keys: [YAMLPathElement]) -> String? {
        guard keys.count >= 4, keys[0] == "mapping", keys[1] == "fields", case .key(let name) = keys[2],
            let field = spec.mapping?.fields?.all.first(where: { $0.name == name })?.spec
        else { return nil }
        if keys[3] == "expr" { return field.expr }
        if keys[3] == "cases", keys.count >= 5, case .index(let i) = keys[4], let cases = field.cases, i < cases.count {
            return cases[i].when
        }
        return nil
    }

    /// The location of character `offset` of an expression whose YAML value starts at `start`: exact
    /// when the expression is written on that line as it is (plain, or quoted without escapes); else
    /// the value's own location.
    static func expressionLocation(_ start: SourceLocation, expression: String, offset: Int, lines: [String]) -> SourceLocation {
        guard let line = start.line, let column = start.column, line >= 1, line <= lines.count else { return start }
        let chars = Array(lines[line - 1])
        guard column >= 1, column <= chars.count else { return start }
        var first = column - 1
        if chars[first] == "'" || chars[first] == "\"" { first += 1 }
        let target = Array(expression)
        guard first + target.count <= chars.count, Array(chars[first..<(first + target.count)]) == target else { return start }
        return SourceLocation(path: start.path, line: line, column: first + min(offset, target.count) + 1)
    }

    /// Where each expression of a source's mapping starts, keyed `fields.<name>.expr` or
    /// `fields.<name>.cases[<i>].when` (for messages about a column the file lacks).
    static func expressionStarts(_ spec: SourceSpec, index: Int, document: YAMLDocument, path: String, lines: [String]) -> [String:
        SourceLocation]
    {
        var keys: [(String, [YAMLPathElement], String)] = []
        for (name, field) in (spec.mapping?.fields ?? FieldsSpec()).all {
            guard let field else { continue }
            if let expr = field.expr { keys.append(("fields.\(name).expr", ["mapping", "fields", .key(name), "expr"], expr)) }
            for (i, c) in (field.cases ?? []).enumerated() {
                keys.append(("fields.\(name).cases[\(i)].when", ["mapping", "fields", .key(name), "cases", .index(i), "when"], c.when))
            }
        }
        guard !keys.isEmpty else { return [:] }
        let found = StrictYAML.locations(of: keys.map { ["sources", .index(index)] + $0.1 }, in: document, path: path)
        var starts: [String: SourceLocation] = [:]
        for (k, location) in zip(keys, found) {
            starts[k.0] = expressionLocation(location, expression: k.2, offset: 0, lines: lines)
        }
        return starts
    }

    static func isSlug(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first,
            CharacterSet.lowercaseLetters.contains(first) || CharacterSet.decimalDigits.contains(first)
        else { return false }
        return text.unicodeScalars.allSatisfy {
            ($0.isASCII && (CharacterSet.lowercaseLetters.contains($0) || CharacterSet.decimalDigits.contains($0))) || $0 == "-"
        }
            && !text.hasSuffix("-")
    }
}
