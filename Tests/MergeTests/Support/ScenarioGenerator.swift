import Foundation
import SportsTimeCore
import SportsTimeTestSupport
@testable import SportsTimeMerge

/// A realistic, seeded, multi-league data set that arrives over several runs: reference rows (some
/// revised later), several sources per league re-scraping their schedules (games added, dropped,
/// moved, postponed), ties on `lastModified`, records from a newer schema, bad references, and
/// overrides.
struct Scenario {
    /// One version of a reference row and the run it arrives in.
    struct Row<Record> {
        var record: Record
        var arrival: Int
    }

    var runs: Int
    var sports: [Row<Sport>] = []
    var stadiums: [Row<Stadium>] = []
    var teams: [Row<Team>] = []
    var structures: [Row<LeagueStructure>] = []
    var teamAliases: [Row<TeamAlias>] = []
    var stadiumAliases: [Row<StadiumAlias>] = []
    var batches: [(batch: RecordBatch<Game>, arrival: Int)] = []
    var overrides: [OverridePatch] = []

    /// What run `k` (1-based) sees: the newest arrived version of each reference row, every batch
    /// arrived so far (batches are never removed: append-only, the contract incremental relies on).
    func input(upToRun k: Int) -> MergeInput {
        func snapshot<Record: Identifiable>(_ rows: [Row<Record>]) -> [Record] where Record.ID == String {
            var newest: [String: Record] = [:]
            var order: [String] = []
            for row in rows where row.arrival <= k {
                if newest[row.record.id] == nil { order.append(row.record.id) }
                newest[row.record.id] = row.record // rows are listed oldest version first
            }
            return order.map { newest[$0]! }
        }
        let reference = ReferenceData(
            sports: BuiltInSport.allCases.map(\.sport) + snapshot(sports), stadiums: snapshot(stadiums),
            teams: snapshot(teams), leagueStructures: snapshot(structures), teamAliases: snapshot(teamAliases),
            stadiumAliases: snapshot(stadiumAliases))
        return MergeInput(
            reference: reference, gameBatches: batches.filter { $0.arrival <= k }.map(\.batch),
            overrides: overrides)
    }

    /// Everything (what a full merge after the last run sees).
    var fullInput: MergeInput { input(upToRun: runs) }
}

enum ScenarioGenerator {
    static let epoch = Instant(iso8601: "2025-01-01T00:00:00Z")!
    static func day(_ n: Int, hour: Int = 0) -> Instant { epoch.adding(seconds: Int64(n * 86_400 + hour * 3600)) }

    /// - Parameters:
    ///   - gamesPerLeague: size of each league's schedule pool (4 leagues).
    ///   - runs: how many runs the data arrives over (1 = everything at once).
    static func make(seed: UInt64, gamesPerLeague: Int = 120, runs: Int) throws -> Scenario {
        var rng = SplitMix64(seed: seed)
        var scenario = Scenario(runs: runs)
        func arrival(after earliest: Int = 1) -> Int { Int.random(in: earliest...runs, using: &rng) }

        // Sports: a dynamic one, and a later revision of a built-in.
        let xfl = Sport(
            id: "xfl", abbreviation: "XFL", displayName: "XFL", iconName: "football", colorHex: "#c8102e",
            seasonStartMonth: 2, seasonEndMonth: 5, isActive: true, isBuiltIn: false, lastModified: day(0), source: "reference")
        let xflArrival = arrival()
        scenario.sports.append(.init(record: xfl, arrival: xflArrival))
        var xflRetired = xfl
        xflRetired.isActive = false; xflRetired.lastModified = day(50)
        scenario.sports.append(.init(record: xflRetired, arrival: arrival(after: xflArrival)))
        scenario.sports.append(
            .init(
                record: Sport(
                    id: "bad-colour", abbreviation: "BC", displayName: "Bad", iconName: "x",
                    colorHex: "blue", seasonStartMonth: 1, seasonEndMonth: 2, isActive: true,
                    isBuiltIn: false, lastModified: day(1), source: "reference"), arrival: arrival()))

        // Stadiums: 6 core ones in the first run (overrides point at them), the rest arrive any time;
        // some revised later; one with a bad zone, one from a newer schema.
        let zones = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Toronto"]
        var stadiumIds: [String] = []
        for index in 0..<40 {
            let id = "stadium-\(index)"
            stadiumIds.append(id)
            let stadium = Stadium(
                id: id, name: "Stadium \(index)", city: "City \(index)", region: "R", country: "US",
                latitude: Double.random(in: 25...48, using: &rng), longitude: Double.random(in: -122...(-71), using: &rng),
                timeZone: zones.randomElement(using: &rng)!, capacity: Int.random(in: 15_000...70_000, using: &rng),
                openedYear: Int.random(in: 1912...2024, using: &rng), lastModified: day(Int.random(in: 0...5, using: &rng)),
                source: "reference")
            let first = index < 6 ? 1 : arrival()
            scenario.stadiums.append(.init(record: stadium, arrival: first))
            if Int.random(in: 0..<5, using: &rng) == 0 {
                var revised = stadium
                revised.capacity = (stadium.capacity ?? 0) + 500; revised.lastModified = day(Int.random(in: 20...60, using: &rng))
                scenario.stadiums.append(.init(record: revised, arrival: arrival(after: first)))
            }
        }
        scenario.stadiums.append(
            .init(record: T.stadium("bad-zone-arena", zone: "Europe/Frankfurt", lastModified: day(2)), arrival: arrival()))
        scenario.stadiums.append(.init(record: T.stadium("future-dome", lastModified: day(3), schemaVersion: 2), arrival: arrival()))

        // Teams: 8 per league, home stadiums anywhere (a team may arrive before its stadium: rejected
        // until the stadium comes); some revised; one of an unknown sport.
        let leagues: [(sport: String, season: String, start: String)] = [
            ("mlb", "2025", "2025-04-01"), ("nba", "2025-26", "2025-10-21"), ("nhl", "2025-26", "2025-10-07"),
            ("xfl", "2025", "2025-02-08"),
        ]
        var teamsOf: [String: [String]] = [:]
        var homeOf: [String: String] = [:]
        for league in leagues {
            for index in 0..<8 {
                let id = "\(league.sport)-t\(index)"
                let home = stadiumIds.randomElement(using: &rng)!
                teamsOf[league.sport, default: []].append(id)
                homeOf[id] = home
                let team = Team(
                    id: id, sport: league.sport, market: "Market \(index)", name: "Team \(index)",
                    abbreviation: "T\(index)", homeStadiumId: home, conferenceId: "\(league.sport)-east",
                    divisionId: "\(league.sport)-east-\(index % 2)", lastModified: day(Int.random(in: 0...4, using: &rng)),
                    source: "reference")
                let first = arrival()
                scenario.teams.append(.init(record: team, arrival: first))
                if Int.random(in: 0..<6, using: &rng) == 0 {
                    var revised = team
                    revised.name = "Renamed \(index)"; revised.lastModified = day(Int.random(in: 10...70, using: &rng))
                    scenario.teams.append(.init(record: revised, arrival: arrival(after: first)))
                }
            }
            // League structure: the division ids sort before their parent conference ("-east-0" < "-east"? no:
            // the parent is a prefix), so also add a child whose id sorts before its parent.
            let conference = LeagueStructure(
                id: "\(league.sport)-east", sport: league.sport, level: .conference, name: "East",
                parentId: "\(league.sport)-z-league", displayOrder: 1, lastModified: day(1), source: "reference")
            let leagueRow = LeagueStructure(
                id: "\(league.sport)-z-league", sport: league.sport, level: .league, name: "League",
                displayOrder: 0, lastModified: day(1), source: "reference")
            scenario.structures.append(.init(record: leagueRow, arrival: arrival()))
            scenario.structures.append(.init(record: conference, arrival: arrival()))
            for division in 0..<2 {
                scenario.structures.append(
                    .init(
                        record: LeagueStructure(
                            id: "\(league.sport)-east-\(division)", sport: league.sport, level: .division, name: "Division \(division)",
                            parentId: "\(league.sport)-east", displayOrder: division, lastModified: day(2), source: "reference"),
                        arrival: arrival()))
            }
        }
        scenario.teams.append(.init(record: T.team("cfl-t0", sport: "cfl", stadium: "stadium-0", lastModified: day(1)), arrival: arrival()))
        scenario.structures.append(
            .init(
                record: LeagueStructure(
                    id: "mlb-orphan", sport: "mlb", level: .division, name: "Orphan",
                    parentId: "mlb-nowhere", displayOrder: 9, lastModified: day(1),
                    source: "reference"), arrival: arrival()))
        for (index, team) in teamsOf.values.flatMap({ $0 }).sorted().enumerated() where index % 3 == 0 {
            scenario.teamAliases.append(
                .init(
                    record: TeamAlias(
                        id: "\(team)-sourcecode", teamId: team, kind: .sourceCode, value: team.uppercased(), sourceSystem: "alpha",
                        lastModified: day(Int.random(in: 0...9, using: &rng)), source: "reference"), arrival: arrival()))
        }
        scenario.teamAliases.append(
            .init(
                record: TeamAlias(
                    id: "ghost-alias", teamId: "mlb-ghost", kind: .name, value: "Ghosts",
                    lastModified: day(1), source: "reference"), arrival: arrival()))
        for id in stadiumIds.prefix(10) {
            scenario.stadiumAliases.append(
                .init(
                    record: StadiumAlias(
                        id: "\(id)-old", stadiumId: id, name: "Old \(id)", validUntil: LocalDate(iso8601: "2019-12-31"),
                        lastModified: day(Int.random(in: 0...9, using: &rng)), source: "reference"), arrival: arrival()))
        }

        // Game sources: two systems for MLB (ties on scrape time between them), one each for the others.
        struct Feed { var source: String; var system: String; var sport: String; var priority: Int; var scrapes: [Int] }
        let feeds = [
            Feed(source: "alpha-mlb", system: "alpha", sport: "mlb", priority: 3, scrapes: [10, 20, 30]),
            Feed(source: "beta-mlb", system: "beta", sport: "mlb", priority: 1, scrapes: [10, 25]),
            Feed(source: "gamma-nba", system: "gamma", sport: "nba", priority: 0, scrapes: [12, 22, 40]),
            Feed(source: "delta-nhl", system: "delta", sport: "nhl", priority: 2, scrapes: [15, 35]),
            Feed(source: "xfl-feed", system: "xfl", sport: "xfl", priority: 0, scrapes: [18]),
        ]
        var pools: [String: [Game]] = [:]
        for league in leagues {
            let teams = teamsOf[league.sport]!
            var pool: [Game] = []
            var used: Set<String> = []
            let firstDay = LocalDate(iso8601: league.start)!
            while pool.count < gamesPerLeague {
                let date = firstDay.adding(days: Int.random(in: 0..<150, using: &rng))
                let home = teams.randomElement(using: &rng)!
                var away = teams.randomElement(using: &rng)!
                if away == home {
                    away =
                        Int.random(in: 0..<25, using: &rng) == 0
                        ? "\(league.sport)-ghost" : teams[(teams.firstIndex(of: home)! + 1) % teams.count]
                }
                let number: Int? = Int.random(in: 0..<30, using: &rng) == 0 ? 2 : nil
                let id = Game.makeId(
                    sport: league.sport, season: league.season, localDate: date, awayTeamId: away, homeTeamId: home, gameNumber: number)
                guard used.insert(id).inserted else { continue }
                let start = Instant(utc: date, hour: Int.random(in: 16...26, using: &rng) % 24)
                pool.append(
                    TestRecords.game(
                        id: id, sport: league.sport, season: league.season, date: date, start: start, away: away, home: home,
                        stadium: homeOf[home]!, number: number, lastModified: epoch, source: ""))
            }
            pools[league.sport] = pool
        }
        for feed in feeds {
            let pool = pools[feed.sport]!
            let league = leagues.first { $0.sport == feed.sport }!
            for (scrapeIndex, scrapeDay) in feed.scrapes.enumerated() {
                let scrapedAt = day(scrapeDay)
                var games: [Game] = []
                var unreadable: [UnreadableRecord] = []
                for (index, base) in pool.enumerated() where Int.random(in: 0..<100, using: &rng) < 85 {
                    var game = base
                    game.source = feed.source
                    game.lastModified = scrapedAt
                    game.sourceIds = [feed.source: "\(feed.source)-\(index)"]
                    switch Int.random(in: 0..<40, using: &rng) {
                    case 0: game.status = .postponed; game.makeupDate = game.localDate.adding(days: 1)
                    case 1: game.startUTC = game.startUTC?.adding(seconds: 3600)
                    case 2: game.stadiumId = stadiumIds.randomElement(using: &rng)!; game.neutralSite = true
                    case 3: game.schemaVersion = 2
                    case 4: unreadable.append(UnreadableRecord(id: game.id, schemaVersion: 3)); continue
                    case 5: game.stadiumId = "atlantis"
                    case 6: game.timeTBD = true; game.startUTC = nil
                    default: break
                    }
                    games.append(game)
                }
                games.shuffle(using: &rng)
                let origin = BatchOrigin(
                    source: feed.source, system: feed.system, scope: "\(feed.sport)-\(league.season)",
                    scrapedAt: scrapedAt, priority: feed.priority,
                    path: "out/normalize/games/\(feed.source)@\(scrapeIndex).json")
                scenario.batches.append((RecordBatch(origin: origin, records: games, unreadable: unreadable), arrival()))
            }
        }

        // Overrides: pinned fields on records that exist at some point, and one that never matches.
        let pinned = pools["mlb"]![0].id, moved = pools["nba"]![1].id
        let yaml = """
            overrides:
              - entity: game
                id: \(pinned)
                set: {startUTC: 2025-06-01T23:05:00Z, timeTBD: false}
                reason: Pinned by hand.
              - entity: game
                id: \(moved)
                set: {stadiumId: stadium-1, neutralSite: true}
                reason: Moved to a neutral site.
              - entity: stadium
                id: stadium-2
                set: {capacity: 12345}
                reason: Renovation.
              - entity: sport
                id: xfl
                set: {colorHex: '#000'}
                reason: New branding.
              - entity: game
                id: mlb-2025-2025-01-01-nobody-at-nowhere
                set: {status: cancelled}
                reason: Never matches.
            """
        scenario.overrides = try OverrideParser.parse(files: [("fixtures/overrides/generated.yaml", yaml)])
        return scenario
    }
}
