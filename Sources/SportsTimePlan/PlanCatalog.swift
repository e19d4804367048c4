import Foundation
import SportsTimeCore

/// The merged store as the planner sees it: sports, stadiums, teams and games, indexed.
///
/// Deprecated (soft-deleted) games are dropped on the way in. Games of inactive sports stay
/// in the catalog (so a must-see id can be explained) but never become candidates.
public struct PlanCatalog: Sendable {
    public let sports: [Sport]
    public let stadiums: [Stadium]
    public let teams: [Team]
    /// Non-deprecated games sorted by local date, then id.
    public let games: [Game]

    let sportById: [String: Sport]
    let stadiumById: [String: Stadium]
    let teamById: [String: Team]
    let gameIndexById: [String: Int]
    /// Team and stadium names as of a date (from the store's dated aliases).
    public let names: NamesOnDate

    /// - Parameters:
    ///   - sports: sports from the store; built-in sports missing from it are added from code.
    public init(
        sports: [Sport], stadiums: [Stadium], teams: [Team], games: [Game], teamAliases: [TeamAlias] = [],
        stadiumAliases: [StadiumAlias] = []
    ) {
        self.names = NamesOnDate(teamAliases: teamAliases, stadiumAliases: stadiumAliases)
        var sportsById: [String: Sport] = [:]
        for sport in BuiltInSport.allCases.map(\.sport) { sportsById[sport.id] = sport }
        for sport in sports { sportsById[sport.id] = sport }
        self.sports = sportsById.values.sorted { $0.id < $1.id }
        self.sportById = sportsById
        self.stadiums = stadiums.sorted { $0.id < $1.id }
        self.stadiumById = Dictionary(stadiums.map { ($0.id, $0) }, uniquingKeysWith: { a, b in a.id <= b.id ? a : b })
        self.teams = teams.sorted { $0.id < $1.id }
        self.teamById = Dictionary(teams.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Games are chosen and ordered by their place in `games` (fields read in place), and copied once.
        var chosen: [String: Int] = [:]
        chosen.reserveCapacity(games.count)
        for i in games.indices {
            if games[i].deprecatedAt != nil { continue }
            // One game per id: the newest record, the later one of equally new records.
            let id = games[i].id
            if let j = chosen[id], games[j].lastModified > games[i].lastModified { continue }
            chosen[id] = i
        }
        let order = chosen.values.sorted { a, b in
            games[a].localDate != games[b].localDate ? games[a].localDate < games[b].localDate : games[a].id < games[b].id
        }
        self.games = order.map { games[$0] }
        var index: [String: Int] = [:]
        index.reserveCapacity(self.games.count)
        for i in self.games.indices { index[self.games[i].id] = i }
        // A game merge re-dated is still found by the ids it had (a request naming the old id).
        for (i, game) in self.games.enumerated() {
            for former in game.formerIds ?? [] where index[former] == nil { index[former] = i }
        }
        self.gameIndexById = index
    }

    public func sport(_ id: String) -> Sport? { sportById[id] }
    public func stadium(_ id: String) -> Stadium? { stadiumById[id] }
    public func team(_ id: String) -> Team? { teamById[id] }
    /// The game with this id, or the game that had it before merge re-dated it (`formerIds`).
    public func game(_ id: String) -> Game? { gameIndexById[id].map { games[$0] } }

    /// Games whose local date lies in `first...last`, in (date, id) order.
    func games(from first: LocalDate, through last: LocalDate) -> ArraySlice<Game> {
        guard first <= last else { return [] }
        var lo = 0, hi = games.count
        while lo < hi { let mid = (lo + hi) / 2; if games[mid].localDate < first { lo = mid + 1 } else { hi = mid } }
        let start = lo
        hi = games.count
        while lo < hi { let mid = (lo + hi) / 2; if games[mid].localDate <= last { lo = mid + 1 } else { hi = mid } }
        return games[start..<lo]
    }
}
