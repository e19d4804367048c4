import Foundation
import SportsTimeCore

// The documented keys of an override file `fixtures/overrides/*.yaml` (docs/yaml-reference.md, the editor
// schema pipeline/schemas/overrides.schema.json). A key added to OverrideDocument or OverrideEntry must be
// added to its CodingKeys here and documented in its table: the reference tests fail otherwise.

extension OverrideDocument {
    enum CodingKeys: String, CodingKey, CaseIterable { case overrides, retiredSources }
}

extension RetiredSourceEntry {
    enum CodingKeys: String, CodingKey, CaseIterable { case source, reason }
}

extension OverrideEntry {
    enum CodingKeys: String, CodingKey, CaseIterable { case entity, id, set, reason }
}

extension OverrideParser {
    /// The fields an override may set on a record of `kind`, sorted; `?` marks those `null` clears.
    static func patchableFields(of kind: EntityKind) -> [String] {
        func names<Record>(_ fields: [String: OverrideField<Record>]) -> [String] {
            fields.keys.sorted().map { fields[$0]!.allowsNull ? "\($0)?" : $0 }
        }
        switch kind {
        case .sports: return names(Sport.overrideFields)
        case .stadiums: return names(Stadium.overrideFields)
        case .teams: return names(Team.overrideFields)
        case .games: return names(Game.overrideFields)
        case .leagueStructures: return names(LeagueStructure.overrideFields)
        case .teamAliases: return names(TeamAlias.overrideFields)
        case .stadiumAliases: return names(StadiumAlias.overrideFields)
        }
    }

    /// The reference of an override file.
    public static let reference: YAMLFileReference = {
        let fields = EntityKind.foldOrder.map { "\($0.overrideName): \(patchableFields(of: $0).joined(separator: ", "))" }
            .joined(separator: "; ")
        let entry = YAMLRecord(
            "override", reader: OverrideEntry.self, codingKeys: OverrideEntry.CodingKeys.self,
            summary: "One patch: which record, which fields, and why. Applied after the merge's newest-wins fold, every run.",
            keys: [
                .required("entity", .choice(EntityKind.foldOrder.map(\.overrideName)), "Which kind of record."),
                .required("id", .string, "The record's canonical id (`mlb-2023-2023-03-30-bal-at-bos`, `fenway-park`)."),
                .required(
                    "set", .map(.scalar),
                    "Field: value, one or more; values are read by the field's type (instants ISO-8601, dates YYYY-MM-DD, true/false, numbers, `null` to clear a field marked ?). Fields per entity — \(fields)."
                ),
                .required("reason", .string, "Why the data is fixed by hand, and where the right value comes from."),
            ])
        let retired = YAMLRecord(
            "retired-source", reader: RetiredSourceEntry.self, codingKeys: RetiredSourceEntry.CodingKeys.self,
            summary: "A source taken out of pipeline/sources.yaml on purpose, and why.",
            keys: [
                .required("source", .string, "The id the source had in pipeline/sources.yaml (`nfl-espn-2012-2021`)."),
                .required("reason", .string, "Why it was removed (replaced by another scrape, withdrawn, ...)."),
            ])
        return YAMLFileReference(
            title: "fixtures/overrides/*.yaml",
            files: ["fixtures/overrides/*.yaml"],
            schemaFile: "overrides.schema.json",
            readBy: "`sportstime-merge` (Sources/SportsTimeMerge/OverrideParser.swift)",
            summary: "Hand data fixes: field-level patches of merged records, each with its reason (format: fixtures/overrides/README.md).",
            root: .record(
                YAMLRecord(
                    "overrides-file", reader: OverrideDocument.self, codingKeys: OverrideDocument.CodingKeys.self,
                    summary: "The file's top level.",
                    keys: [
                        .optional("overrides", .list(.record(entry)), default: "none", "The patches."),
                        .optional(
                            "retiredSources", .list(.record(retired)), default: "none",
                            "Sources removed from pipeline/sources.yaml on purpose: merge may then drop the games and rows only they gave, which it otherwise refuses to lose."
                        ),
                    ])))
    }()
}
