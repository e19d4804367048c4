import Foundation

// `league-structures.csv`: the leagues, conferences and divisions of each sport, each level inside the one above.

extension ReferenceLoader {
    static let structureColumns = [
        "id", "sport", "level", "name", "abbreviation", "parent_id", "display_order",
        "last_modified",
    ]
}

extension ReferenceParser {
    mutating func parseStructures(_ data: Data?) -> ReferenceFile<LeagueStructure> {
        readRows("league-structures.csv", data, columns: ReferenceLoader.structureColumns) { row, fields in
            let (id, owner) = fields.id(row, "id", what: "league structure")
            fields.required(row, ["sport", "name"], owner: owner)
            let level = fields.choice(
                row, "level", owner: owner, as: LeagueStructure.Level.self, known: "Use league, conference or division")
            let order = fields.int(row, "display_order", owner: owner)
            let modified = fields.instant(row, "last_modified", owner: owner)
            guard let level, let order, let modified else { return nil }
            return LeagueStructure(
                id: id, sport: row["sport"], level: level, name: row["name"], abbreviation: fields.optional(row, "abbreviation"),
                parentId: fields.optional(row, "parent_id"), displayOrder: order, lastModified: modified, schemaVersion: 1,
                source: ReferenceLoader.recordSource)
        }
    }

    /// A structure's sport is known; a league has no parent, a conference's parent is a league and a division's a
    /// conference, of the same sport.
    mutating func checkStructures(_ structures: [LinedRecord<LeagueStructure>], _ known: KnownIds) {
        let structuresPath = path("league-structures.csv")
        for item in structures {
            let s = item.record
            checkSport(
                s.sport, known, at: structuresPath, item.line, owner: "league structure '\(s.id)'", fix: "Use one of: \(known.sportList)")
            let wantedParent: LeagueStructure.Level? =
                switch s.level {
                case .league: nil
                case .conference: .league
                case .division: .conference
                }
            guard let parentId = s.parentId else {
                if let wantedParent {
                    error(
                        structuresPath, item.line, "league structure '\(s.id)': a \(s.level.rawValue) needs a parent_id",
                        fix: "Set parent_id to its \(wantedParent.rawValue)")
                }
                continue
            }
            guard
                let parent = structure(
                    parentId, known, column: "parent_id", at: structuresPath, item.line, owner: "league structure '\(s.id)'")
            else { continue }
            guard let wantedParent else {
                error(
                    structuresPath, item.line, "league structure '\(s.id)': a league has no parent",
                    fix: "Leave parent_id empty")
                continue
            }
            if parent.level != wantedParent {
                error(
                    structuresPath, item.line,
                    "league structure '\(s.id)': parent '\(parentId)' is a \(parent.level.rawValue), not a \(wantedParent.rawValue)",
                    fix: "A conference belongs to a league and a division to a conference")
            } else if parent.sport != s.sport {
                error(
                    structuresPath, item.line,
                    "league structure '\(s.id)': parent '\(parentId)' belongs to sport '\(parent.sport)', not '\(s.sport)'",
                    fix: "Use a parent of the same sport")
            }
        }
    }
}
