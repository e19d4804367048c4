import Foundation
import SportsTimeCore

/// Loads `pipeline/sources.yaml`: strict YAML decoding, then checks of every value with the YAML line
/// of each problem. All problems are reported at once.
public enum SourceCatalog {
    /// The checked sources in file order. Throws `PipelineError.invalidInput(s)` (exit 2).
    public static func load(text: String, path: String) throws -> [SourceConfig] {
        let file = try StrictYAML.decode(SourcesFile.self, from: text, path: path)
        var problems: [Diagnostic] = []
        var configs: [SourceConfig] = []
        var seen: [String: Int] = [:]
        var presets: [SourceFormat: MappingSpec] = [:]
        let sourceLocations = StrictYAML.locations(of: file.sources.indices.map { ["sources", .index($0)] }, in: text, path: path)
        for (index, spec) in file.sources.enumerated() {
            func fail(_ message: String, fix: String, _ keys: YAMLPathElement...) { fail(message, fix: fix, path: keys) }
            func fail(_ message: String, fix: String, path keys: [YAMLPathElement]) {
                let location = StrictYAML.location(of: ["sources", .index(index)] + keys, in: text, path: path)
                problems.append(Diagnostic(.error, at: location, "source '\(spec.id)': \(message)", fix: fix))
            }
            if !isSlug(spec.id) { fail("id '\(spec.id)' is not a slug", fix: "Use lowercase letters, digits and '-'", "id") }
            if let first = seen[spec.id] {
                fail("id '\(spec.id)' is declared twice (first as source \(first + 1))", fix: "Give each source its own id", "id")
            }
            seen[spec.id] = seen[spec.id] ?? index
            if !isSlug(spec.sport) { fail("sport '\(spec.sport)' is not a sport id", fix: "Use a lowercase id such as mlb or ufl", "sport") }
            if !isSlug(spec.system) { fail("system '\(spec.system)' is not a slug", fix: "Use a lowercase name such as retrosheet", "system") }
            let seasons = SeasonRange(spec.season)
            if seasons == nil {
                fail("season '\(spec.season)' is not a season", fix: "Write 2023, 2025-26, or a range such as 2022..2025", "season")
            }
            if let scope = spec.scope, !isSlug(scope) { fail("scope '\(scope)' is not a slug", fix: "Use lowercase letters, digits and '-'", "scope") }
            if spec.files.isEmpty { fail("files is empty", fix: "List the files under fixtures/scraped/\(spec.id)/", "files") }
            for (n, file) in spec.files.enumerated() where file.hasPrefix("/") || file.split(separator: "/").contains("..") || file.isEmpty {
                fail("file '\(file)' is not a path inside the source's folder", fix: "Give a relative path or glob without '..'", "files", .index(n))
            }
            let format = SourceFormat(rawValue: spec.format)
            if format == nil {
                fail("unknown format '\(spec.format)'",
                     fix: "Use one of: \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", "))", "format")
            }
            let scrapedAt = Instant(iso8601: spec.scrapedAt)
            if scrapedAt == nil { fail("scrapedAt '\(spec.scrapedAt)' is not an ISO instant", fix: "Write it like 2025-11-07T12:00:00Z", "scrapedAt") }
            let zone = NaiveZone(spec.naiveTimeZone)
            if zone == nil {
                fail("naiveTimeZone '\(spec.naiveTimeZone)' is not an IANA zone", fix: "Use a zone such as America/New_York, UTC, or venue", "naiveTimeZone")
            }
            let threshold = RejectThreshold(spec.rejectThreshold)
            if threshold == nil {
                fail("rejectThreshold '\(spec.rejectThreshold)' is neither a count nor a fraction",
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
                    fail(problem.message, fix: problem.fix, path: problem.keys)
                }
            }
            if let seasons, !seasons.isSingle, mapping.fields?.season == nil {
                fail("season '\(spec.season)' is a range but the rows' season is not mapped",
                     fix: "Map fields.season, or declare one season", "season")
            }
            var trust: [FieldGroup: Int] = [:]
            for (name, rank) in (spec.trust ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let group = FieldGroup(rawValue: name) else {
                    fail("trust names '\(name)', which is not a field group",
                         fix: "Use one of: \(FieldGroup.allCases.map(\.rawValue).joined(separator: ", "))", "trust")
                    continue
                }
                trust[group] = rank
            }
            if let allow = spec.allowShrink, allow.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                fail("allowShrink.reason is empty", fix: "Say why the source may list fewer games than merge published (or remove allowShrink)",
                     "allowShrink", "reason")
            }
            guard let seasons, let format, let scrapedAt, let zone, let threshold else { continue }
            configs.append(SourceConfig(
                id: spec.id, sport: spec.sport, seasons: seasons, system: spec.system,
                scope: spec.scope ?? "\(spec.sport)-\(seasons.scopeSuffix)", files: spec.files, format: format,
                mapping: mapping, filters: spec.filters ?? [], scrapedAt: scrapedAt, naiveTimeZone: zone,
                rejectThreshold: threshold, priority: spec.priority, trust: trust,
                placeholderTeams: spec.placeholderTeams ?? format.defaultPlaceholderTeams,
                location: sourceLocations[index],
                allowShrinkReason: spec.allowShrink.map { $0.reason.trimmingCharacters(in: .whitespacesAndNewlines) }))
        }
        if !problems.isEmpty {
            throw problems.count == 1 ? PipelineError.invalidInput(problems[0]) : PipelineError.invalidInputs(problems)
        }
        return configs
    }

    static func isSlug(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, CharacterSet.lowercaseLetters.contains(first) || CharacterSet.decimalDigits.contains(first)
        else { return false }
        return text.unicodeScalars.allSatisfy { ($0.isASCII && (CharacterSet.lowercaseLetters.contains($0) || CharacterSet.decimalDigits.contains($0))) || $0 == "-" }
            && !text.hasSuffix("-")
    }
}
