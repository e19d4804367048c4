import Foundation

// `team-homes.csv` (optional): a team's home stadium for a date range, where it differs from `home_stadium_id`
// in teams.csv (a temporary home, a relocation), and its alternate homes (a second arena, a displaced stretch).

extension ReferenceLoader {
    static let teamHomeColumns = ["team_id", "stadium_id", "role", "valid_from", "valid_until", "last_modified", "note"]
}

extension ReferenceParser {
    /// `team-homes.csv` is optional: a missing file is no dated homes, not an error.
    mutating func parseTeamHomes(_ data: Data?) -> ReferenceFile<TeamHomeSpell> {
        guard let data else { return ReferenceFile(isUsable: true) }
        return readRows("team-homes.csv", data, columns: ReferenceLoader.teamHomeColumns) { row, fields in
            let teamId = row["team_id"]
            let stadiumId = row["stadium_id"]
            let owner = RowName(what: "team home", name: teamId, place: stadiumId)
            fields.required(row, ["team_id", "stadium_id"], owner: owner)
            let (from, until) = fields.validity(row, owner: owner)
            if row["valid_from"].isEmpty && row["valid_until"].isEmpty {
                fields.fail(
                    row, "\(owner): valid_from and valid_until are both empty",
                    fix: "A home on every date is home_stadium_id in teams.csv; give this row its dates")
            }
            let role = TeamHomeSpell.Role(rawValue: row["role"])
            if role == nil {
                fields.fail(
                    row, "\(owner): role '\(row["role"])' is not home or alternate",
                    fix: "Write home (the team's one home on those dates) or alternate (also a home on those dates)")
            }
            let modified = fields.instant(row, "last_modified", owner: owner)
            guard let modified, let role else { return nil }
            return TeamHomeSpell(
                teamId: teamId, stadiumId: stadiumId, role: role, validFrom: from, validUntil: until, lastModified: modified,
                note: row["note"])
        }
    }

    /// Every dated home names a team and a stadium that exist, and one team's `home` spells do not overlap.
    mutating func checkTeamHomes(_ homes: [LinedRecord<TeamHomeSpell>], _ known: KnownIds) {
        let homesPath = path("team-homes.csv")
        var earlier: [String: [LinedRecord<TeamHomeSpell>]] = [:]
        for item in homes {
            let spell = item.record
            let owner = RowName(what: "team home", name: spell.teamId, place: spell.stadiumId)
            if known.teamIds?.contains(spell.teamId) == false {
                error(
                    homesPath, item.line, "\(owner): team_id '\(spell.teamId)' is not in teams.csv",
                    fix: "Add the team or fix the id")
            }
            if known.stadiumIds?.contains(spell.stadiumId) == false {
                error(
                    homesPath, item.line, "\(owner): stadium_id '\(spell.stadiumId)' is not in stadiums.csv",
                    fix: "Add the stadium or fix the id")
            }
            for other in earlier[spell.teamId, default: []] where spell.role == .home && other.record.overlaps(spell) {
                error(
                    homesPath, item.line,
                    "\(owner) (\(spell.rangeDescription)) overlaps line \(other.line) "
                        + "('\(other.record.stadiumId)', \(other.record.rangeDescription))",
                    fix:
                        "A team has one home on a date: make the ranges of its home rows disjoint (both days are inclusive), or make one of them an alternate home"
                )
            }
            if spell.role == .home { earlier[spell.teamId, default: []].append(item) }
        }
    }
}
