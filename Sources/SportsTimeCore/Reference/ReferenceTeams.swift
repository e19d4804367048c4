import Foundation

// `teams.csv`: one row a team, with its sport, home stadium and (optionally) conference and division.

extension ReferenceLoader {
    static let teamColumns = [
        "id", "sport", "market", "name", "abbreviation", "home_stadium_id", "conference_id",
        "division_id", "last_modified",
    ]
}

extension ReferenceParser {
    mutating func parseTeams(_ data: Data?) -> ReferenceFile<Team> {
        readRows("teams.csv", data, columns: ReferenceLoader.teamColumns) { row, fields in
            let (id, owner) = fields.id(row, "id", what: "team")
            fields.required(row, ["sport", "name", "abbreviation", "home_stadium_id"], owner: owner)
            let modified = fields.instant(row, "last_modified", owner: owner)
            guard let modified else { return nil }
            return Team(
                id: id, sport: row["sport"], market: row["market"], name: row["name"], abbreviation: row["abbreviation"],
                homeStadiumId: row["home_stadium_id"], conferenceId: fields.optional(row, "conference_id"),
                divisionId: fields.optional(row, "division_id"), lastModified: modified, schemaVersion: 1,
                source: ReferenceLoader.recordSource)
        }
    }

    /// A team's home stadium, sport, conference and division exist, fit the sport, and agree with each other.
    mutating func checkTeams(_ teams: [LinedRecord<Team>], _ known: KnownIds) {
        let teamsPath = path("teams.csv")
        for item in teams {
            let t = item.record
            if let stadiumIds = known.stadiumIds, !stadiumIds.contains(t.homeStadiumId) {
                error(
                    teamsPath, item.line, "team '\(t.id)': home_stadium_id '\(t.homeStadiumId)' is not in stadiums.csv",
                    fix: "Add the stadium or fix the id")
            }
            checkSport(
                t.sport, known, at: teamsPath, item.line, owner: "team '\(t.id)'",
                fix: "Use one of: \(known.sportList) (dynamic sports are defined in sports.yaml)")
            for (column, id, level) in [
                ("conference_id", t.conferenceId, LeagueStructure.Level.conference),
                ("division_id", t.divisionId, .division),
            ] {
                guard let id else { continue }
                guard let structure = structure(id, known, column: column, at: teamsPath, item.line, owner: "team '\(t.id)'")
                else { continue }
                if structure.level != level || structure.sport != t.sport {
                    error(
                        teamsPath, item.line,
                        "team '\(t.id)': \(column) '\(id)' is a \(structure.sport) \(structure.level.rawValue), not a \(t.sport) \(level.rawValue)",
                        fix: "Use a \(level.rawValue) of the team's sport")
                }
            }
            if let conference = t.conferenceId, let division = t.divisionId,
                let parent = known.structureById[division]?.parentId, known.structureById[conference] != nil,
                parent != conference
            {
                error(
                    teamsPath, item.line,
                    "team '\(t.id)': division '\(division)' belongs to '\(parent)', not to conference '\(conference)'",
                    fix: "Make conference_id and division_id agree")
            }
        }
    }
}
