import SportsTimeCore

/// Games a season has but its sources do not list yet: for each source that declares `expectedGames`, and
/// each sport and season its games carry, each team's active regular-season games of that season in the
/// store, against the number it plays (the first source by id speaks for a season two of them declare). The NBA 2026-27 file lists 80 of each team's 82 games (the NBA Cup's two are set after group
/// play): 30 games pending, two per team.
enum PendingGames {
    static func report(_ origins: [BatchOrigin], games: some Collection<Game>) -> [MergePendingGames] {
        var records: [String: MergePendingGames] = [:]
        for origin in origins.sorted(by: { $0.source < $1.source }) {
            guard let expectation = origin.expectedGames else { continue }
            // Every season the source's games carry (a source may span several), in order.
            let seasons = Set(games.lazy.filter { $0.sourceIds[origin.source] != nil }.map { "\($0.sport)\u{1F}\($0.season)" })
            for key in seasons.sorted() {
                let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
                let (sport, season) = (parts[0], parts[1])
                guard records["\(sport)-\(season)"] == nil else { continue }
                var perTeam: [String: Int] = [:]
                var listed = 0
                for game in games
                where game.sport == sport && game.season == season && game.kind == .regular && game.deprecatedAt == nil
                    && game.status != .cancelled
                {
                    listed += 1
                    perTeam[game.homeTeamId, default: 0] += 1
                    perTeam[game.awayTeamId, default: 0] += 1
                }
                let expected = expectation.perTeam * perTeam.count / 2
                guard expected > listed else { continue }
                let short = perTeam.filter { $0.value < expectation.perTeam }.mapValues { expectation.perTeam - $0 }
                records["\(sport)-\(season)"] = MergePendingGames(
                    source: origin.source, sport: sport, season: season, perTeam: expectation.perTeam,
                    expected: expected, listed: listed, teams: short, reason: expectation.reason)
            }
        }
        return records.keys.sorted().map { records[$0]! }
    }
}
