import SportsTimeCore

/// The canonical store: every kind's records indexed by id.
public struct MergeStore: Sendable, Hashable {
    public var sports: [String: Sport] = [:]
    public var stadiums: [String: Stadium] = [:]
    public var teams: [String: Team] = [:]
    public var games: [String: Game] = [:]
    public var leagueStructures: [String: LeagueStructure] = [:]
    public var teamAliases: [String: TeamAlias] = [:]
    public var stadiumAliases: [String: StadiumAlias] = [:]

    public init() {}

    public init(
        sports: [Sport] = [], stadiums: [Stadium] = [], teams: [Team] = [], games: [Game] = [],
        leagueStructures: [LeagueStructure] = [], teamAliases: [TeamAlias] = [], stadiumAliases: [StadiumAlias] = []
    ) {
        self.sports = Self.index(sports); self.stadiums = Self.index(stadiums); self.teams = Self.index(teams)
        self.games = Self.index(games); self.leagueStructures = Self.index(leagueStructures)
        self.teamAliases = Self.index(teamAliases); self.stadiumAliases = Self.index(stadiumAliases)
    }

    /// Indexes records by id; a later duplicate replaces an earlier one.
    static func index<Record: Identifiable>(_ records: [Record]) -> [String: Record] where Record.ID == String {
        var byId: [String: Record] = [:]
        byId.reserveCapacity(records.count)
        for record in records { byId[record.id] = record }
        return byId
    }

    /// How many records of `kind` the store holds.
    public func count(of kind: EntityKind) -> Int {
        switch kind {
        case .sports: sports.count
        case .stadiums: stadiums.count
        case .teams: teams.count
        case .games: games.count
        case .leagueStructures: leagueStructures.count
        case .teamAliases: teamAliases.count
        case .stadiumAliases: stadiumAliases.count
        }
    }

    /// Whether a record of `kind` with `id` is in the store.
    public func contains(_ id: String, of kind: EntityKind) -> Bool {
        switch kind {
        case .sports: sports.index(forKey: id) != nil
        case .stadiums: stadiums.index(forKey: id) != nil
        case .teams: teams.index(forKey: id) != nil
        case .games: games.index(forKey: id) != nil
        case .leagueStructures: leagueStructures.index(forKey: id) != nil
        case .teamAliases: teamAliases.index(forKey: id) != nil
        case .stadiumAliases: stadiumAliases.index(forKey: id) != nil
        }
    }

    /// The sports the store knows, looked up built-in first.
    public var sportCatalog: SportCatalog { SportCatalog(sports: sports) }
}
