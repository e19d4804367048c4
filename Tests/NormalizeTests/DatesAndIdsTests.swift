import SportsTimeCore
import SportsTimeNormalize
import Testing

/// Local dates, start instants and canonical ids.
@Suite struct DatesAndIdsTests {
    typealias G = RawFixture

    private func run(_ batches: [RawBatch]) throws -> NormalizeResult {
        try normalize(batches: batches, reference: TestReference.data)
    }

    private func onlyGame(_ result: NormalizeResult) throws -> Game {
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        let games = result.batches.flatMap(\.games)
        try #require(games.count == 1)
        return games[0]
    }

    @Test func pacificEveningGameIsTheNextDayInUTC() throws {
        // 7:30 pm PDT on 2024-07-10 is 2024-07-11T02:30Z.
        let utc = try run([
            G.batch(
                "espn-mlb", system: "espn",
                games: [
                    G.game(
                        "1", home: "Dodgers", away: "Giants", venue: "Dodger Stadium", startUTC: "2024-07-11T02:30:00Z",
                        date: "2024-07-11", dateZone: "UTC")
                ])
        ])
        let game = try onlyGame(utc)
        #expect(game.localDate == TestReference.date("2024-07-10"))
        #expect(game.id == "mlb-2024-2024-07-10-sf-at-lad")
        #expect(game.startUTC == TestReference.instant("2024-07-11T02:30:00Z"))
        #expect(game.timeTBD == false)

        // The same game as a naive local time in the venue's zone.
        let local = try run([
            G.batch(
                "mlb-local", system: "club",
                games: [
                    G.game("1", source: "mlb-local", home: "LAD", away: "SF", date: "2024-07-10", localTime: "19:30")
                ])
        ])
        let same = try onlyGame(local)
        #expect(same.id == game.id)
        #expect(same.startUTC == game.startUTC)
        #expect(same.stadiumId == "dodger-stadium")

        // A UTC date with a UTC clock time.
        let utcClock = try run([
            G.batch(
                "utc-clock", system: "espn",
                games: [
                    G.game(
                        "1", source: "utc-clock", home: "Dodgers", away: "Giants", date: "2024-07-11", dateZone: "UTC",
                        localTime: "02:30")
                ])
        ])
        #expect(try onlyGame(utcClock).id == game.id)
    }

    @Test func espnUTCAndNflverseEasternAndSpreadspokeLocalGiveOneId() throws {
        // NFL 2022 week 1, Buffalo at the Rams: Thursday 8:20 pm ET = 5:20 pm PT on 2022-09-08.
        let result = try run([
            G.batch(
                "espn-nfl", system: "espn", sport: "nfl", season: "2022",
                games: [
                    G.game(
                        "401437654", source: "espn-nfl", sport: "nfl", season: "2022", home: "Rams", away: "Bills",
                        venue: "SoFi Stadium", startUTC: "2022-09-09T00:20:00Z", date: "2022-09-09", dateZone: "UTC")
                ]),
            G.batch(
                "nflverse", system: "nflverse", sport: "nfl", season: "2022",
                games: [
                    G.game(
                        "2022_01_BUF_LA", source: "nflverse", sport: "nfl", season: "2022", home: "LA", away: "BUF",
                        venue: "SoFi Stadium", date: "2022-09-08", dateZone: "America/New_York", localTime: "20:20",
                        neutral: false)
                ]),
            G.batch(
                "spreadspoke", system: "spreadspoke", sport: "nfl", season: "2022",
                games: [
                    G.game(
                        "9001", source: "spreadspoke", sport: "nfl", season: "2022", home: "Los Angeles Rams",
                        away: "Buffalo Bills", venue: "SoFi Stadium", date: "2022-09-08", neutral: false)
                ]),
        ])
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        let games = result.batches.flatMap(\.games)
        #expect(games.count == 3)
        #expect(Set(games.map(\.id)) == ["nfl-2022-2022-09-08-buf-at-lar"])
        #expect(Set(games.compactMap(\.startUTC)) == [TestReference.instant("2022-09-09T00:20:00Z")])
        let byBatch = Dictionary(uniqueKeysWithValues: result.batches.map { ($0.source, $0.games[0]) })
        #expect(byBatch["espn-nfl"]?.sourceIds == ["espn-nfl": "401437654"])
        #expect(byBatch["nflverse"]?.sourceIds == ["nflverse": "2022_01_BUF_LA"])
        #expect(byBatch["spreadspoke"]?.timeTBD == true)
        #expect(byBatch["spreadspoke"]?.startUTC == nil)
    }

    @Test func dateOnlyIsTheVenueDate() throws {
        let result = try run([
            G.batch(
                "retro", system: "retrosheet", season: "2023",
                games: [
                    G.game("1", source: "retro", season: "2023", home: "BOS", away: "BAL", date: "2023-03-30")
                ])
        ])
        // BAL is unknown in the test reference: rejected, and the known parts still checked below.
        #expect(result.rejects.map(\.reason) == ["unresolved away team 'BAL'"])
        let fine = try run([
            G.batch(
                "retro", system: "retrosheet", season: "2023",
                games: [
                    G.game("1", source: "retro", season: "2023", home: "BOS", away: "NYA", date: "2023-03-30")
                ])
        ])
        let game = try onlyGame(fine)
        #expect(game.id == "mlb-2023-2023-03-30-nyy-at-bos")
        #expect(game.localDate == TestReference.date("2023-03-30"))
        #expect(game.stadiumId == "fenway-park")
        #expect(game.timeTBD && game.startUTC == nil)
        #expect(game.lastModified == TestReference.instant("2026-01-15T12:00:00Z"))
        #expect(game.source == "retro")
    }

    @Test func aDateOfAnotherZoneWithoutATimeIsMarkedNotTheStadiumsDate() throws {
        // ESPN's UTC date with no kickoff: the Dodger Stadium date may be the day before.
        let utc = try run([
            G.batch(
                "espn-mlb", system: "espn",
                games: [G.game("1", home: "Dodgers", away: "Giants", venue: "Dodger Stadium", date: "2024-07-11", dateZone: "UTC")])
        ])
        let game = try onlyGame(utc)
        #expect(game.localDate == TestReference.date("2024-07-11") && game.startUTC == nil)
        #expect(game.inferred == [.localDate, .neutralSite])
        // A date of the stadium's own zone (by name or by offset), or one with its time, is stated.
        for (zone, time) in [("venue", nil), ("America/Los_Angeles", nil), ("UTC", "02:30")] as [(String, String?)] {
            let stated = try onlyGame(
                try run([
                    G.batch(
                        "espn-mlb", system: "espn",
                        games: [
                            G.game(
                                "1", home: "Dodgers", away: "Giants", venue: "Dodger Stadium", date: "2024-07-11",
                                dateZone: zone, localTime: time, neutral: false)
                        ])
                ]))
            #expect(stated.inferred == nil, "\(zone)")
        }
    }

    @Test func timeTBDKeepsTheVenueDateAndNoStart() throws {
        // A placeholder midnight-Eastern time at a Mountain venue would fall on the previous local day.
        let result = try run([
            G.batch(
                "nhl", system: "nhl-api", sport: "nhl", season: "2025-26",
                games: [
                    G.game(
                        "1", source: "nhl", sport: "nhl", season: "2025-26", kind: .postseason, home: "UTA", away: "EDM",
                        venue: "Delta Center", startUTC: "2026-06-02T04:00:00Z", date: "2026-06-02", timeTBD: true)
                ])
        ])
        let game = try onlyGame(result)
        #expect(game.localDate == TestReference.date("2026-06-02"))
        #expect(game.startUTC == nil && game.timeTBD)
    }

    @Test func aliasValidityUsesTheLocalDateNotTheUTCDate() throws {
        // 7:05 pm PDT on 2024-09-29 (the last day "Athletics" means Oakland) is 2024-09-30 in UTC.
        let result = try run([
            G.batch(
                "espn-mlb", system: "espn",
                games: [
                    G.game(
                        "1", home: "Athletics", away: "Giants", startUTC: "2024-09-30T02:05:00Z", date: "2024-09-30",
                        dateZone: "UTC")
                ])
        ])
        let game = try onlyGame(result)
        #expect(game.homeTeamId == "mlb-oak")
        #expect(game.stadiumId == "oakland-coliseum")
        #expect(game.id == "mlb-2024-2024-09-29-sf-at-oak")
    }

    @Test func relocatedTeamsPlayAtTheirHomeOfThatDate() throws {
        let result = try run([
            G.batch(
                "espn-mlb", system: "espn",
                games: [
                    G.game("1", home: "Athletics", away: "Giants", date: "2024-09-26"),
                    G.game("2", season: "2025", home: "Athletics", away: "Cubs", date: "2025-03-28"),
                ])
        ])
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        let games = result.batches[0].games
        #expect(games.map(\.id) == ["mlb-2024-2024-09-26-sf-at-oak", "mlb-2025-2025-03-28-chc-at-ath"])
        #expect(games.map(\.stadiumId) == ["oakland-coliseum", "sutter-health-park"])
    }

    @Test func statusMakeupAndKindAreCarriedOver() throws {
        let result = try run([
            G.batch(
                "retro", system: "retrosheet", season: "2023",
                games: [
                    G.game(
                        "1", source: "retro", season: "2023", kind: .postseason, home: "CHN", away: "NYA", date: "2023-04-09",
                        status: .postponed, makeupDate: "2023-04-10")
                ])
        ])
        let game = try onlyGame(result)
        #expect(game.status == .postponed)
        #expect(game.makeupDate == TestReference.date("2023-04-10"))
        #expect(game.kind == .postseason)
    }

    @Test func badTimesAndZonesAreRejectedWithTheirReason() throws {
        let result = try run([
            G.batch(
                "odd", system: "odd", sport: "nhl",
                games: [
                    G.game("1", source: "odd", sport: "nhl", home: "CAR", away: "EDM", date: "2024-01-10", localTime: "7:30 pm"),
                    G.game(
                        "2", source: "odd", sport: "nhl", home: "CAR", away: "EDM", date: "2024-01-11", dateZone: "Mars/Olympus",
                        localTime: "19:00"),
                    G.game("3", source: "odd", sport: "nhl", home: "FRA", away: "EDM", date: "2024-01-12", localTime: "19:00"),
                    G.game("4", source: "odd", sport: "xfl", home: "CAR", away: "EDM", date: "2024-01-13"),
                ])
        ])
        #expect(result.gameCount == 0)
        #expect(
            result.rejects.map(\.reason) == [
                "local time '7:30 pm' is not HH:MM",
                "dateZone 'Mars/Olympus' is not 'venue', 'UTC' or an IANA zone",
                "stadium bad-zone-arena has time zone 'Europe/Frankfurt', which is not an IANA zone",
                "unknown sport 'xfl' (known: mlb, mls, nba, nfl, nhl, nwsl, wnba)",
            ])
        #expect(result.unresolved.isEmpty)
    }
}
