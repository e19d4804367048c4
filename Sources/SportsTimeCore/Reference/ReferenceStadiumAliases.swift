import Foundation

// `stadium-aliases.csv`: the other names of a stadium, each valid for a date range and optionally one source
// system. The id of an alias is derived from its fields (`ReferenceLoader.stadiumAliasId`).

extension ReferenceLoader {
    static let stadiumAliasColumns = [
        "stadium_id", "name", "valid_from", "valid_until", "source_system",
        "last_modified", "note",
    ]
}

extension ReferenceParser {
    mutating func parseStadiumAliases(_ data: Data?) -> ReferenceFile<StadiumAlias> {
        readRows("stadium-aliases.csv", data, columns: ReferenceLoader.stadiumAliasColumns) { row, fields in
            let alias = AliasFields(row, &fields, target: "stadium_id", text: "name", what: "stadium alias")
            let id = ReferenceLoader.stadiumAliasId(
                stadiumId: alias.targetId, sourceSystem: alias.sourceSystem, name: alias.text, validFrom: alias.validFrom)
            fields.unique(
                id, row, what: "stadium alias",
                same: "the same stadium_id, source_system, name and valid_from (case, accents and punctuation ignored)")
            guard let modified = alias.lastModified else { return nil }
            return StadiumAlias(
                id: id, stadiumId: alias.targetId, name: alias.text, validFrom: alias.validFrom, validUntil: alias.validUntil,
                sourceSystem: alias.sourceSystem, lastModified: modified, schemaVersion: 1, source: ReferenceLoader.recordSource)
        }
    }

    /// One name for two stadiums on overlapping dates is a warning.
    mutating func warnAmbiguousStadiumAliases(_ aliases: [LinedRecord<StadiumAlias>], path: String) {
        var groups: [String: [LinedRecord<StadiumAlias>]] = [:]
        groups.reserveCapacity(aliases.count)
        for item in aliases { groups[Slug.matchKey(item.record.name), default: []].append(item) }
        for (a, b) in Self.clashes(in: groups) { warnClash(a, b, what: "stadium alias", path: path) }
    }
}
