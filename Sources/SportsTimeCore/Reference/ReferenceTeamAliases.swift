import Foundation

// `team-aliases.csv`: the names, abbreviations and source codes of a team, each valid for a date range and
// optionally one source system. The id of an alias is derived from its fields (`ReferenceLoader.teamAliasId`).

extension ReferenceLoader {
    static let teamAliasColumns = [
        "team_id", "kind", "value", "valid_from", "valid_until", "source_system",
        "last_modified", "note",
    ]
}

extension ReferenceParser {
    mutating func parseTeamAliases(_ data: Data?) -> ReferenceFile<TeamAlias> {
        var kinds: String { TeamAlias.Kind.allCases.map(\.rawValue).joined(separator: ", ") }
        return readRows("team-aliases.csv", data, columns: ReferenceLoader.teamAliasColumns) { row, fields in
            let alias = AliasFields(row, &fields, target: "team_id", text: "value", what: "team alias")
            guard let kind = fields.choice(row, "kind", owner: alias.owner, as: TeamAlias.Kind.self, known: "Use one of: \(kinds)")
            else { return nil }
            let id = ReferenceLoader.teamAliasId(
                teamId: alias.targetId, kind: kind, sourceSystem: alias.sourceSystem, value: alias.text, validFrom: alias.validFrom)
            fields.unique(
                id, row, what: "team alias",
                same: "the same team_id, kind, source_system, value and valid_from (case, accents and punctuation ignored)")
            guard let modified = alias.lastModified else { return nil }
            return TeamAlias(
                id: id, teamId: alias.targetId, kind: kind, value: alias.text, validFrom: alias.validFrom,
                validUntil: alias.validUntil, sourceSystem: alias.sourceSystem, lastModified: modified, schemaVersion: 1,
                source: ReferenceLoader.recordSource)
        }
    }

    /// One value of one kind and source system naming two teams of a sport on overlapping dates refuses the file;
    /// other overlaps (e.g. a name and an abbreviation) are warnings.
    mutating func warnAmbiguousTeamAliases(_ aliases: [LinedRecord<TeamAlias>], teamSport: [String: String], path: String) {
        var groups: [String: [LinedRecord<TeamAlias>]] = [:]
        groups.reserveCapacity(aliases.count)
        for item in aliases {
            guard let sport = teamSport[item.record.teamId] else { continue }
            // `sport NUL value`, built at its size in one allocation.
            groups[String.joining(sport, 0, Slug.matchKey(item.record.value)), default: []].append(item)
        }
        for (a, b) in Self.clashes(in: groups) {
            guard a.record.kind == b.record.kind, a.record.sourceSystem == b.record.sourceSystem else {
                warnClash(a, b, what: "team alias", path: path)
                continue
            }
            // One value, one kind, one source system, two teams on a date: every game that
            // names it would be unresolved one by one. Refuse the file instead.
            let system = a.record.sourceSystem.map { "source system '\($0)'" } ?? "every source system"
            error(
                path, a.line,
                "team alias '\(a.record.value)' (\(a.record.kind.rawValue), \(system)) names '\(b.record.teamId)' on line \(b.line) "
                    + "and '\(a.record.teamId)' on line \(a.line), on overlapping dates",
                fix:
                    "A value names one team on a date: give the rows dates that do not overlap or different source_system values, or remove one"
            )
        }
    }
}
