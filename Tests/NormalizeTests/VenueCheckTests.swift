import SportsTimeCore
import SportsTimeNormalize
import Testing

@Suite struct VenueCheckTests {
    typealias G = RawFixture

    /// Like the real NHL 2023-24 file: the abbreviations are right, but every venue is "Honda Center".
    private func corruptNHLBatch() throws -> RawBatch {
        let pairs = [
            ("FLA", "EDM"), ("EDM", "FLA"), ("CAR", "FLA"), ("LAK", "EDM"), ("UTA", "CAR"),
            ("EDM", "CAR"), ("FLA", "LAK"), ("CAR", "EDM"), ("ANA", "LAK"), ("LAK", "CAR"),
        ]
        var games = pairs.enumerated().map { index, pair in
            G.game(
                "\(index + 1)", source: "nhl-2023-24-corrupt", sport: "nhl", season: "2023-24", home: pair.0,
                away: pair.1, venue: "Honda Center", startUTC: "2024-01-\(10 + index)T03:00:00Z",
                date: "2024-01-\(10 + index)", dateZone: "UTC")
        }
        // Preseason games are not checked, but a refused batch rejects them too.
        games.append(
            G.game(
                "11", source: "nhl-2023-24-corrupt", sport: "nhl", season: "2023-24", kind: .preseason,
                home: "EDM", away: "ANA", venue: "Honda Center", date: "2023-09-25"))
        // So is a record that did not resolve.
        games.append(
            G.game(
                "12", source: "nhl-2023-24-corrupt", sport: "nhl", season: "2023-24", home: "Anaheim",
                away: "Kraken", venue: "Honda Center", date: "2023-10-01"))
        return try G.batch("nhl-2023-24-corrupt", system: "nhl-api", sport: "nhl", season: "2023-24", games: games)
    }

    private func healthyMLBBatch() throws -> RawBatch {
        try G.batch(
            "retro", system: "retrosheet",
            games: [
                G.game("1", source: "retro", home: "BOS", away: "NYA", date: "2024-05-01"),
                G.game("2", source: "retro", home: "CHN", away: "LAN", date: "2024-05-01"),
            ])
    }

    @Test func aMostlyInconsistentBatchIsRefusedAndTheOthersContinue() throws {
        let result = try normalize(batches: [try corruptNHLBatch(), try healthyMLBBatch()], reference: TestReference.data)
        let corrupt = try #require(result.batches.first { $0.source == "nhl-2023-24-corrupt" })
        #expect(corrupt.isRefused)
        #expect(corrupt.games.isEmpty)
        #expect(corrupt.rejects.count == 12)
        #expect(corrupt.inputCount == 12)
        let refusal = try #require(corrupt.refusal)
        #expect(refusal.severity == .warning)
        #expect(
            refusal.description.hasPrefix(
                "fixtures/scraped/nhl-2023-24-corrupt/games.csv:1: warning: 9 of 10 regular-season and postseason games (90 %) "
                    + "are at a venue that is not the home team's (e.g. EDM at FLA on 2024-01-10 at 'Honda Center' "
                    + "(honda-center), the home of nhl-ana, not of nhl-fla (amerant-bank-arena), "
                    + "fixtures/scraped/nhl-2023-24-corrupt/games.csv:1)."))
        #expect(refusal.description.hasSuffix("The file looks corrupt; fix the scrape or remove the source."))
        #expect(corrupt.rejects.allSatisfy { $0.reason.hasPrefix("batch refused: 9 of 10 ") })
        #expect(result.diagnostics.contains(refusal))
        // No unresolved names from a refused batch: the whole file is in doubt, not its names.
        #expect(result.unresolved.isEmpty)

        let healthy = try #require(result.batches.first { $0.source == "retro" })
        #expect(!healthy.isRefused)
        #expect(healthy.games.count == 2)
        #expect(result.inputCount == result.gameCount + result.rejects.count)
    }

    @Test func aFewInconsistentGamesAreKeptAndWarnedAbout() throws {
        let games = [
            G.game("1", sport: "nhl", home: "CAR", away: "FLA", venue: "PNC Arena", date: "2024-01-10"),
            G.game("2", sport: "nhl", home: "FLA", away: "CAR", venue: "Amerant Bank Arena", date: "2024-01-12"),
            G.game("3", sport: "nhl", home: "EDM", away: "CAR", venue: "Honda Center", date: "2024-01-14"),
            // Preseason and exhibition games travel: not checked.
            G.game("4", sport: "nhl", kind: .preseason, home: "EDM", away: "ANA", venue: "Honda Center", date: "2023-09-25"),
        ]
        let result = try normalize(
            batches: [try G.batch("nhl", system: "nhl-api", sport: "nhl", games: games)],
            reference: TestReference.data)
        let batch = result.batches[0]
        #expect(!batch.isRefused)
        #expect(batch.games.count == 4)
        let flagged = try #require(batch.games.first { $0.homeTeamId == "nhl-edm" && $0.kind == .regular })
        #expect(flagged.stadiumId == "honda-center")
        // Another team's home, no home of either team: a neutral site, kept at that venue and said.
        #expect(flagged.neutralSite == true)
        let venueWarnings = result.diagnostics.filter { $0.description.contains("stored as a neutral-site game") }
        #expect(venueWarnings.map(\.severity) == [.warning])
        #expect(
            venueWarnings.first?.description.hasPrefix(
                "fixtures/scraped/test/games.csv:3: warning: CAR at EDM on 2024-01-14 at 'Honda Center' (honda-center), "
                    + "the home of nhl-ana, not of nhl-edm (rogers-place); stored as a neutral-site game.") == true)
    }

    @Test func neutralSites() throws {
        let games = [
            // London is home to no MLB team: neutral without the source saying so.
            G.game("1", season: "2019", home: "NYY", away: "BOS", venue: "London Stadium", date: "2019-06-29"),
            // The home team's own park.
            G.game("2", season: "2019", home: "NYY", away: "BOS", venue: "Yankee Stadium", date: "2019-07-01"),
            // No venue: the home team's park, not neutral.
            G.game("3", season: "2019", home: "NYY", away: "BOS", date: "2019-07-02"),
            // The source's neutral flag wins; its "not neutral" does not at a venue no home of either team.
            G.game("4", season: "2019", home: "NYY", away: "BOS", venue: "Yankee Stadium", date: "2019-07-03", neutral: true),
            G.game("5", season: "2019", home: "NYY", away: "BOS", venue: "London Stadium", date: "2019-07-04", neutral: false),
            // Another team's park, flagged neutral by the source: consistent, no warning.
            G.game("6", season: "2019", home: "NYY", away: "BOS", venue: "Wrigley Field", date: "2019-07-05", neutral: true),
        ]
        let result = try normalize(
            batches: [try G.batch("mlb", system: "club", season: "2019", games: games)],
            reference: TestReference.data)
        #expect(result.rejects.isEmpty)
        // London, not flagged by the source, is stored as neutral with one warning that says so.
        #expect(
            result.diagnostics.map(\.description) == [
                "fixtures/scraped/test/games.csv:1: warning: 1 mlb-nyy home game (2019-06-29) at london-stadium, which is not its "
                    + "home then (yankee-stadium) and which the source does not flag as neutral; stored as neutral-site game. "
                    + "If it is the team's new or temporary home, add a dated home row to fixtures/reference/team-homes.csv "
                    + "(an alternate row for a second home); for a one-off neutral site nothing is needed.",
                "fixtures/scraped/test/games.csv:5: warning: 1 mlb-nyy home game (2019-07-04) at london-stadium, which the source "
                    + "says is not neutral, but which is not the team's home then (yankee-stadium) nor any team's; stored as "
                    + "neutral-site game. If the team played there, add a dated row to fixtures/reference/team-homes.csv (home, "
                    + "or alternate for a second home); if the source names the wrong stadium, give the name validity dates in "
                    + "fixtures/reference/stadium-aliases.csv or fix the games with overrides.",
            ])
        let games2 = result.batches[0].games.sorted { $0.localDate < $1.localDate }
        #expect(games2.map(\.neutralSite) == [true, false, false, true, true, true])
        #expect(
            games2.map(\.stadiumId) == [
                "london-stadium", "yankee-stadium", "yankee-stadium", "yankee-stadium",
                "london-stadium", "wrigley-field",
            ])
    }

    /// Yankee Stadium opened in 2009; a 2008 game that a source places there (the old stadium's name,
    /// resolved without validity dates) is kept and warned about.
    @Test func aGameBeforeItsStadiumOpenedIsWarnedAbout() throws {
        var reference = TestReference.data
        for index in reference.stadiums.indices where reference.stadiums[index].id == "yankee-stadium" {
            reference.stadiums[index].openedYear = 2009
        }
        let games = [
            G.game("1", season: "2008", home: "NYY", away: "BOS", venue: "Yankee Stadium", date: "2008-09-21"),
            G.game("2", season: "2008", home: "NYY", away: "BOS", date: "2008-09-20"),
            G.game("3", season: "2009", home: "NYY", away: "BOS", venue: "Yankee Stadium", date: "2009-05-04"),
        ]
        let result = try normalize(batches: [try G.batch("mlb", system: "club", season: "2008", games: games)], reference: reference)
        #expect(result.gameCount == 3)
        #expect(
            result.diagnostics.map(\.description) == [
                "fixtures/scraped/test/games.csv:1: warning: 2 games are at yankee-stadium as 'Yankee Stadium' (2008-09-20 to 2008-09-21), "
                    + "before it opened in 2009; kept at that venue. If the name belonged to an earlier building, add that stadium and "
                    + "give the name validity dates in fixtures/reference/stadium-aliases.csv (or a dated home in team-homes.csv); if the "
                    + "opening year is wrong, fix stadiums.csv."
            ])
    }

    @Test func aRefusalNeedsMoreThanTheShare() throws {
        // Exactly half inconsistent: kept (the rule is "more than half").
        let games = [
            G.game("1", sport: "nhl", home: "CAR", away: "FLA", venue: "Lenovo Center", date: "2024-01-10"),
            G.game("2", sport: "nhl", home: "EDM", away: "CAR", venue: "Honda Center", date: "2024-01-14"),
        ]
        let result = try normalize(
            batches: [try G.batch("nhl", system: "nhl-api", sport: "nhl", games: games)],
            reference: TestReference.data)
        #expect(!result.batches[0].isRefused)
        #expect(result.gameCount == 2)
        let strict = try normalize(
            batches: [try G.batch("nhl", system: "nhl-api", sport: "nhl", games: games)],
            reference: TestReference.data, options: NormalizeOptions(refusalShare: 0.4))
        #expect(strict.batches[0].isRefused)
    }
}
