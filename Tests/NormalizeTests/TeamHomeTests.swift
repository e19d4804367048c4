import Foundation
import SportsTimeCore
import SportsTimeNormalize
import Testing

/// Dated homes (`fixtures/reference/team-homes.csv`): the home team's home on the game's date places venue-less
/// games, picks between stadiums of one name, and decides the neutral flag and the venue check.
@Suite struct TeamHomeTests {
    typealias G = RawFixture

    /// The committed reference, loaded once per test run.
    static let committed: ReferenceData? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try? ReferenceLoader.load(
            from: root.appendingPathComponent("fixtures/reference"),
            displayPath: "fixtures/reference")
    }()

    private func committed() throws -> ReferenceData { try #require(Self.committed) }

    /// Games of `result` by record id.
    private func byRecord(_ result: NormalizeResult) -> [String: Game] {
        var games: [String: Game] = [:]
        for batch in result.batches {
            for game in batch.games {
                if let source = game.sourceIds[batch.source] { games["\(batch.source):\(source)"] = game }
            }
        }
        return games
    }

    // MARK: venue-less games (Retrosheet schedules)

    @Test func venueLessGamesArePlacedAtTheHomeOnTheirDate() throws {
        func game(_ id: String, _ home: String, _ away: String, _ date: String) -> RawGame {
            G.game(id, source: "retro", season: String(date.prefix(4)), home: home, away: away, date: date)
        }
        let games = [
            game("1", "OAK", "TEX", "2024-09-26"), // the last game in Oakland
            game("2", "ATH", "CHN", "2025-03-28"), // Sacramento from 2025
            game("3", "TOR", "NYA", "2021-04-20"), // Dunedin
            game("4", "TOR", "HOU", "2021-06-05"), // Buffalo
            game("5", "TOR", "KCA", "2021-07-30"), // back in Toronto
            game("6", "TOR", "MIA", "2020-08-11"), // Buffalo, 2020
            game("7", "TOR", "TBA", "2019-09-29"), // Toronto before the pandemic
            game("8", "TBA", "COL", "2025-03-28"), // Steinbrenner Field, 2025 only
            game("9", "TBA", "TOR", "2024-04-01"), // Tropicana Field
        ]
        let result = try normalize(
            batches: [try G.batch("retro", system: "retrosheet", games: games)],
            reference: try committed())
        #expect(result.rejects.isEmpty)
        #expect(result.diagnostics.isEmpty)
        let made = byRecord(result)
        let placed = (1...9).map { made["retro:\($0)"].map { "\($0.homeTeamId) \($0.stadiumId)" } ?? "missing" }
        #expect(
            placed == [
                "mlb-ath oakland-coliseum", "mlb-ath sutter-health-park",
                "mlb-tor td-ballpark", "mlb-tor sahlen-field", "mlb-tor rogers-centre", "mlb-tor sahlen-field",
                "mlb-tor rogers-centre",
                "mlb-tb george-m-steinbrenner-field", "mlb-tb tropicana-field",
            ])
        // At its home on that date, a game is not neutral.
        #expect(made.values.allSatisfy { !$0.neutralSite })
        #expect(made["retro:1"]?.id == "mlb-2024-2024-09-26-tex-at-ath")
    }

    @Test func theHomeOnTheLocalDateDecidesWhenThePrintedDateIsUTC() throws {
        // 00:07Z on 05-25 is 20:07 on 05-24 in Dunedin: the last day there. 23:07Z on 05-25 is in Buffalo.
        let games = [
            G.game(
                "1", source: "feed", season: "2021", home: "Toronto Blue Jays", away: "Tampa Bay Rays",
                startUTC: "2021-05-25T00:07:00Z", date: "2021-05-25", dateZone: "UTC"),
            G.game(
                "2", source: "feed", season: "2021", home: "Toronto Blue Jays", away: "Tampa Bay Rays",
                startUTC: "2021-05-25T23:07:00Z", date: "2021-05-25", dateZone: "UTC"),
        ]
        let result = try normalize(
            batches: [try G.batch("feed", system: "feed", season: "2021", games: games)],
            reference: try committed())
        #expect(result.rejects.isEmpty)
        let made = byRecord(result)
        #expect(made["feed:1"]?.stadiumId == "td-ballpark")
        #expect(made["feed:1"]?.localDate == TestReference.date("2021-05-24"))
        #expect(made["feed:2"]?.stadiumId == "sahlen-field")
        #expect(made["feed:2"]?.localDate == TestReference.date("2021-05-25"))
    }

    // MARK: neutral sites and the venue check

    @Test func neutralDetectionUsesTheHomeOnTheGamesDate() throws {
        func game(_ id: String, _ home: String, _ away: String, _ venue: String, _ date: String) -> RawGame {
            G.game(id, source: "club", season: String(date.prefix(4)), home: home, away: away, venue: venue, date: date)
        }
        let mlb = [
            game("1", "Athletics", "Texas Rangers", "Oakland Coliseum", "2024-06-01"), // their home then
            game("2", "Athletics", "Texas Rangers", "Oakland Coliseum", "2025-06-01"), // nobody's home in 2025
            game("3", "Boston Red Sox", "New York Yankees", "Sutter Health Park", "2024-06-01"), // nobody's home
            game("4", "Boston Red Sox", "New York Yankees", "Sutter Health Park", "2025-06-01"), // the A's: neutral here
            game("5", "Toronto Blue Jays", "Boston Red Sox", "Sahlen Field", "2021-06-15"), // their home then
            game("6", "Boston Red Sox", "Toronto Blue Jays", "Sahlen Field", "2021-06-16"), // the away team's home
            game("7", "Boston Red Sox", "Toronto Blue Jays", "Sahlen Field", "2022-06-16"), // nobody's home
            game("8", "Boston Red Sox", "New York Yankees", "Fenway Park", "2022-06-17"),
        ]
        // ESPN gives venues but never a neutral flag.
        let nfl = [
            G.game(
                "1", source: "espn", sport: "nfl", season: "2019", home: "Raiders", away: "Titans",
                venue: "Oakland Coliseum", startUTC: "2019-12-15T21:25:00Z", date: "2019-12-15", dateZone: "UTC"),
            G.game(
                "2", source: "espn", sport: "nfl", season: "2020", home: "Raiders", away: "Colts",
                venue: "Oakland Coliseum", startUTC: "2020-12-13T21:05:00Z", date: "2020-12-13", dateZone: "UTC"),
            G.game(
                "3", source: "espn", sport: "nfl", season: "2020", home: "49ers", away: "Commanders",
                venue: "State Farm Stadium", startUTC: "2020-12-13T21:25:00Z", date: "2020-12-13", dateZone: "UTC"),
        ]
        let result = try normalize(
            batches: [
                try G.batch("club", system: "club", games: mlb),
                try G.batch("espn", system: "espn", sport: "nfl", season: "2019", games: nfl),
            ], reference: try committed())
        #expect(result.rejects.isEmpty)
        let made = byRecord(result)
        #expect(
            (1...8).map { made["club:\($0)"]?.neutralSite }
                == [false, true, true, true, false, false, true, false])
        #expect((1...3).map { made["espn:\($0)"]?.neutralSite } == [false, true, false])

        // A venue that is nobody's home on the date is stored as neutral, with one warning per team and venue.
        #expect(
            result.diagnostics.map(\.description).contains(
                "fixtures/scraped/espn/games.csv:2: warning: 1 nfl-lv home game (2020-12-13) at oakland-coliseum, which is not "
                    + "its home then (allegiant-stadium) and which the source does not flag as neutral; stored as neutral-site game. "
                    + "If it is the team's new or temporary home, add a dated home row to fixtures/reference/team-homes.csv "
                    + "(an alternate row for a second home); for a one-off neutral site nothing is needed."))
        // A third team's home on that date is a neutral site, flagged; the away team's home is kept as a home game of
        // the listed team, flagged too; the same park on a date it was nobody's home is not flagged.
        #expect(
            result.diagnostics.map(\.description).filter { $0.contains(", the home of ") } == [
                "fixtures/scraped/club/games.csv:4: warning: New York Yankees at Boston Red Sox on 2025-06-01 at "
                    + "'Sutter Health Park' (sutter-health-park), the home of mlb-ath, not of mlb-bos (fenway-park); "
                    + "stored as a neutral-site game. If the source is wrong, fix it with an override; if the team played "
                    + "a home game there, add a dated alternate row to fixtures/reference/team-homes.csv.",
                "fixtures/scraped/club/games.csv:6: warning: Toronto Blue Jays at Boston Red Sox on 2021-06-16 at "
                    + "'Sahlen Field' (sahlen-field), the home of mlb-tor, not of mlb-bos (fenway-park); "
                    + "it is the away team's home: kept as a home game of mlb-bos there. If the source swapped the home "
                    + "and away teams, fix the game with an override.",
            ])
    }

    @Test func theCorruptNHLBatchIsStillRefused() throws {
        // Like the real 2023-24 file: right abbreviations, "Honda Center" on every row.
        let pairs = [
            ("FLA", "EDM"), ("EDM", "FLA"), ("CAR", "FLA"), ("LAK", "EDM"), ("BOS", "CAR"),
            ("EDM", "CAR"), ("FLA", "LAK"), ("CAR", "EDM"), ("ANA", "LAK"), ("LAK", "CAR"),
        ]
        let games = pairs.enumerated().map { index, pair in
            G.game(
                "\(index + 1)", source: "nhl-2023-24", sport: "nhl", season: "2023-24", home: pair.0, away: pair.1,
                venue: "Honda Center", startUTC: "2024-01-\(10 + index)T03:00:00Z", date: "2024-01-\(10 + index)",
                dateZone: "UTC")
        }
        let result = try normalize(
            batches: [
                try G.batch(
                    "nhl-2023-24", system: "nhl-schedule", sport: "nhl",
                    season: "2023-24", games: games)
            ],
            reference: try committed())
        let batch = try #require(result.batches.first)
        #expect(batch.isRefused)
        #expect(batch.refusal?.message.hasPrefix("9 of 10 regular-season and postseason games (90 %)") == true)
        #expect(batch.rejects.count == 10 && batch.games.isEmpty)
    }

    // MARK: the resolver's index

    @Test func theResolverAgreesWithTheReferenceAtEverySpellEdge() throws {
        let data = try committed()
        let resolver = AliasResolver(reference: data)
        let teams = Dictionary(uniqueKeysWithValues: data.teams.map { ($0.id, $0) })
        #expect(data.teamHomes.count >= 5)
        // Alternate homes are homes on their dates, never the home a game without a venue is placed at.
        for spell in data.teamHomes where spell.role == .home {
            let team = try #require(teams[spell.teamId])
            let edges = [spell.validFrom, spell.validUntil].compactMap { $0 }
            for date in edges.flatMap({ [$0.adding(days: -1), $0, $0.adding(days: 1)] }) {
                let expected = data.homeStadiumId(of: team, on: date)
                #expect(resolver.homeStadiumId(of: team, on: date) == expected, "\(team.id) \(date)")
                #expect(
                    resolver.homeTeams(of: expected, sport: team.sport, on: date).contains(team.id),
                    "\(team.id) \(date)")
            }
            #expect(resolver.hasDatedHomes(team.id))
        }
        func owners(_ stadium: String, _ sport: String, _ date: String) -> [String] {
            resolver.homeTeams(of: stadium, sport: sport, on: TestReference.date(date))
        }
        #expect(owners("oakland-coliseum", "mlb", "2024-01-01") == ["mlb-ath"])
        #expect(owners("oakland-coliseum", "mlb", "2025-01-01") == [])
        #expect(owners("oakland-coliseum", "nfl", "2019-12-15") == ["nfl-lv"])
        #expect(owners("sutter-health-park", "mlb", "2024-06-01") == [])
        #expect(owners("sutter-health-park", "mlb", "2025-06-01") == ["mlb-ath"])
        #expect(owners("rogers-centre", "mlb", "2021-06-01") == [])
        #expect(owners("rogers-centre", "mlb", "2021-07-30") == ["mlb-tor"])
        #expect(owners("giants-stadium", "nfl", "2005-10-01") == ["nfl-nyg", "nfl-nyj"])
        #expect(owners("state-farm-stadium", "nfl", "2020-12-13") == ["nfl-ari", "nfl-sf"])
        #expect(owners("fenway-park", "mlb", "1999-06-01") == ["mlb-bos"])
        #expect(!resolver.hasDatedHomes("mlb-bos"))
    }

    // MARK: stadiums of one name

    /// Two stadiums named "Memorial Stadium"; the Bears' home is Soldier Field except in 2002.
    static let bears: ReferenceData = {
        var data = TestReference.data
        data.stadiums.append(TestReference.stadium("soldier-field", "Soldier Field", "Chicago", "IL", "America/Chicago"))
        data.teams.append(TestReference.team("nfl", "CHI", "Chicago", "Bears", home: "soldier-field"))
        data.teamHomes = [
            TeamHomeSpell(
                teamId: "nfl-chi", stadiumId: "memorial-stadium-champaign",
                validFrom: TestReference.date("2002-09-08"),
                validUntil: TestReference.date("2002-12-29"),
                lastModified: TestReference.modified, note: "test")
        ]
        return data
    }()

    @Test func aSharedStadiumNameIsDecidedByTheHomeOnTheDate() throws {
        let games = [
            G.game(
                "1", source: "nfl", sport: "nfl", season: "2002", home: "Bears", away: "Bills",
                venue: "Memorial Stadium", date: "2002-10-06"),
            G.game(
                "2", source: "nfl", sport: "nfl", season: "2003", home: "Bears", away: "Bills",
                venue: "Memorial Stadium", date: "2003-10-05"),
            G.game("3", source: "nfl", sport: "nfl", season: "2002", home: "Bears", away: "Bills", date: "2002-12-29"),
            G.game("4", source: "nfl", sport: "nfl", season: "2002", home: "Bears", away: "Bills", date: "2002-12-30"),
        ]
        let result = try normalize(
            batches: [
                try G.batch(
                    "nfl", system: "spreadspoke", sport: "nfl", season: "2002",
                    games: games)
            ],
            reference: Self.bears)
        let made = byRecord(result)
        #expect(made["nfl:1"]?.stadiumId == "memorial-stadium-champaign")
        #expect(made["nfl:1"]?.neutralSite == false)
        // In 2003 neither Memorial Stadium is the Bears' home: ambiguous, rejected and listed.
        #expect(
            result.rejects.map(\.reason)
                == ["ambiguous venue 'Memorial Stadium' (memorial-stadium-champaign, memorial-stadium-lincoln)"])
        #expect(result.unresolved.map(\.value) == ["Memorial Stadium"])
        // Without a venue: the home on the date, inclusive at the spell's last day.
        #expect(made["nfl:3"]?.stadiumId == "memorial-stadium-champaign")
        #expect(made["nfl:4"]?.stadiumId == "soldier-field")
    }
}
