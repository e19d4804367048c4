import Foundation

/// The curated canonical data of `fixtures/reference/`, loaded and checked by `ReferenceLoader`.
/// Sports include the built-in seven and the dynamic ones defined in data; like every list here, sorted by id
/// (`teamHomes` by team and first day).
public struct ReferenceData: Sendable, Hashable {
    public var sports: [Sport]
    public var stadiums: [Stadium]
    public var teams: [Team]
    public var leagueStructures: [LeagueStructure]
    public var teamAliases: [TeamAlias]
    public var stadiumAliases: [StadiumAlias]
    /// Dated home stadiums (`team-homes.csv`, optional); outside them a team's `homeStadiumId` applies.
    public var teamHomes: [TeamHomeSpell]

    public init(
        sports: [Sport], stadiums: [Stadium], teams: [Team], leagueStructures: [LeagueStructure],
        teamAliases: [TeamAlias], stadiumAliases: [StadiumAlias], teamHomes: [TeamHomeSpell] = []
    ) {
        self.sports = sports; self.stadiums = stadiums; self.teams = teams
        self.leagueStructures = leagueStructures; self.teamAliases = teamAliases; self.stadiumAliases = stadiumAliases
        self.teamHomes = teamHomes
    }

    /// The team's home stadium on `date`: the stadium of its spell in `teamHomes` that contains the date, else
    /// `team.homeStadiumId`. Spells of one team do not overlap (the loader checks); if hand-built data has
    /// overlapping spells, the first in `TeamHomeSpell.precedes` order wins.
    public func homeStadiumId(of team: Team, on date: LocalDate) -> String {
        var best: TeamHomeSpell?
        for spell in teamHomes where spell.teamId == team.id && spell.role == .home && spell.isValid(on: date) {
            if best.map({ TeamHomeSpell.precedes(spell, $0) }) ?? true { best = spell }
        }
        return best?.stadiumId ?? team.homeStadiumId
    }

    /// Whether `stadiumId` is a home of the team on `date`: its home then, or one of its alternate homes.
    public func isHome(_ stadiumId: String, of team: Team, on date: LocalDate) -> Bool {
        homeStadiumId(of: team, on: date) == stadiumId
            || teamHomes.contains { $0.teamId == team.id && $0.role == .alternate && $0.stadiumId == stadiumId && $0.isValid(on: date) }
    }
}
