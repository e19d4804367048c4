import Foundation

/// The curated canonical data of `fixtures/reference/`, loaded and checked by `ReferenceLoader`.
/// Sports include the built-in seven and the dynamic ones defined in data; like every list here, sorted by id.
public struct ReferenceData: Sendable, Hashable {
    public var sports: [Sport]
    public var stadiums: [Stadium]
    public var teams: [Team]
    public var leagueStructures: [LeagueStructure]
    public var teamAliases: [TeamAlias]
    public var stadiumAliases: [StadiumAlias]

    public init(sports: [Sport], stadiums: [Stadium], teams: [Team], leagueStructures: [LeagueStructure],
                teamAliases: [TeamAlias], stadiumAliases: [StadiumAlias]) {
        self.sports = sports; self.stadiums = stadiums; self.teams = teams
        self.leagueStructures = leagueStructures; self.teamAliases = teamAliases; self.stadiumAliases = stadiumAliases
    }
}
