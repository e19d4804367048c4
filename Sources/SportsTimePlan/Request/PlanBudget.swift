import SportsTimeCore

/// The memory one request may make the planner use, estimated at plan's entry from what the request
/// implies (its candidate games and the arcs between them) before the search builds either, so a
/// request over a huge store is refused with what to narrow instead of running out of memory.
public enum PlanBudget {
    /// Bytes of search state one request may imply. The committed requests imply at most a few megabytes.
    public static let bytes = 256 << 20
    /// Bytes one candidate game costs the search (its record, times, place and list of arcs).
    static let bytesPerCandidate = 512
    /// Bytes one arc costs (five words), counted for every pair of candidates in time order: a trip may
    /// wait days between two games, so nearly every later game is reachable from an earlier one.
    static let bytesPerArc = 40

    /// The candidate games of `request` (the games of its active sports in its window that are playable
    /// and pass its home-team filter: the search's candidates, stadiums not yet checked) and the bytes
    /// of search state they imply.
    public static func estimate(_ request: PlanRequest, catalog: PlanCatalog) -> (candidates: Int, bytes: Int) {
        let sports = Set(request.sports.filter { catalog.sport($0)?.isActive ?? false })
        let homeTeams = Set(request.homeTeamIds), mustSee = Set(request.mustSeeGameIds)
        var count = 0
        for game in catalog.games(from: request.firstDate, through: request.lastDate)
        where sports.contains(game.sport) && game.status.isPlayable
            && (homeTeams.isEmpty || homeTeams.contains(game.homeTeamId) || mustSee.contains(game.id))
        {
            count += 1
        }
        let pairs = count * (count - 1) / 2
        return (count, count * bytesPerCandidate + pairs * bytesPerArc)
    }

    /// The refusal of a request over the budget, located at `location` (its dates), or nil.
    public static func check(_ request: PlanRequest, catalog: PlanCatalog, at location: () -> SourceLocation) -> Diagnostic? {
        let (candidates, bytes) = estimate(request, catalog: catalog)
        guard bytes > Self.bytes else { return nil }
        return Diagnostic(
            .error, at: location(),
            "request '\(request.id)' has \(candidates) candidate games between \(request.firstDate) and \(request.lastDate), "
                + "about \(bytes >> 20) MiB of search state, more than the planner's budget of \(Self.bytes >> 20) MiB",
            fix: "Narrow the request: fewer dates (firstDate, lastDate), fewer sports, or homeTeams for one region's teams")
    }
}
