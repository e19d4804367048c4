import SportsTimeCore

/// Games a season has but its sources do not list yet: for each source that declares `expectedGames`, each
/// team's active regular-season games of the source's sport and season in the store, against the number
/// it plays. The NBA 2026-27 file lists 80 of each team's 82 games (the NBA Cup's two are set after group
/// play): 30 games pending, two per team.
enum PendingGames {
    static func report(_ origins: [BatchOrigin], games: some Collection<Game>) -> [MergePendingGames] {
        var seen: Set<String> = []
        var records: [MergePendingGames] = []
        for origin in origins.sorted(by: { $0.source < $1.source }) {
            guard let expectation = origin.expectedGames, seen.insert(origin.scope).inserted else { continue }
            // The season the source's games carry (the scope is named after it, but a scope may be anything).
            guard let sample = games.first(where: { $0.sourceIds[origin.source] != nil }) else { continue }
            var perTeam: [String: Int] = [:]
            var listed = 0
            for game in games
            where game.sport == sample.sport && game.season == sample.season && game.kind == .regular
                && game.deprecatedAt == nil && game.status != .cancelled
            {
                listed += 1
                perTeam[game.homeTeamId, default: 0] += 1
                perTeam[game.awayTeamId, default: 0] += 1
            }
            let expected = expectation.perTeam * perTeam.count / 2
            guard expected > listed else { continue }
            let short = perTeam.filter { $0.value < expectation.perTeam }.mapValues { expectation.perTeam - $0 }
            records.append(
                MergePendingGames(
                    scope: origin.scope, source: origin.source, sport: sample.sport, season: sample.season,
                    perTeam: expectation.perTeam, expected: expected, listed: listed, teams: short,
                    reason: expectation.reason))
        }
        return records
    }
}
