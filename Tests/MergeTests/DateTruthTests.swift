import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// The date, status and neutral flag of a merged game are the ones that hold on the day the game is
/// played: a re-scrape that lost the kickoff column, a UTC date with no time, a postponement recorded
/// by one source and the made-up game by another, a neutral flag one source works out and another states.
@Suite struct DateTruthTests {
    let reference = T.reference(teams: ["nfl-min", "nfl-gb", "nba-lal", "nba-mem", "mlb-ari", "mlb-wsh"])

    /// MIN at GB, the 2012 wild-card game: Saturday 2013-01-05 at 8 PM ET (ESPN game 330105009, kickoff
    /// 2013-01-06T01:00Z; ESPN `games.csv`, spreadspoke line 10800). A later ESPN scrape without the
    /// time column prints only the UTC date, 2013-01-06, which normalize marks as not the stadium's date.
    func minAtGB(rescrapeFirst: Bool = false) -> MergeInput {
        let first = T.instant("2023-06-01T00:00:00Z"), later = T.instant("2024-06-01T00:00:00Z")
        let exact = T.game(
            sport: "nfl", season: "2012", date: "2013-01-05", away: "nfl-min", home: "nfl-gb",
            start: "2013-01-06T01:00:00Z", status: .final, source: "espn-2023", sourceGameId: "330105009",
            lastModified: first)
        var rescrape = T.game(
            sport: "nfl", season: "2012", date: "2013-01-06", away: "nfl-min", home: "nfl-gb", status: .final,
            source: "espn-2024", sourceGameId: "330105009", lastModified: later)
        rescrape.inferred = [.localDate]
        var spreadspoke = T.game(
            sport: "nfl", season: "2012", date: "2013-01-05", away: "nfl-min", home: "nfl-gb", status: .final,
            source: "spreadspoke", lastModified: T.instant("2025-10-01T00:00:00Z"))
        spreadspoke.sourceIds = [:]
        let batches = [
            T.batch(source: "espn-2023", system: "espn", scope: "nfl-2012", scrapedAt: first, games: [exact]),
            T.batch(source: "espn-2024", system: "espn", scope: "nfl-2012", scrapedAt: later, games: [rescrape]),
            T.batch(source: "spreadspoke", scope: "nfl-2012", scrapedAt: T.instant("2025-10-01T00:00:00Z"), games: [spreadspoke]),
        ]
        return MergeInput(reference: reference, gameBatches: rescrapeFirst ? batches.reversed() : batches)
    }

    @Test func aReScrapeThatReDatesAGameIsThatGameByTheSourcesOwnId() throws {
        for reversed in [false, true] {
            let result = try Merger.merge(minAtGB(rescrapeFirst: reversed))
            #expect(result.store.games.count == 1)
            let game = try #require(result.store.games["nfl-2012-2013-01-05-min-at-gb"])
            #expect(game.formerIds == ["nfl-2012-2013-01-06-min-at-gb"])
            // The kickoff the older scrape gave is kept: the later one has none and only a UTC date.
            #expect(game.startKnowledge == .exact && game.startUTC == T.instant("2013-01-06T01:00:00Z"))
            #expect(game.deprecatedAt == nil)
            #expect(result.lineage[game.id]?.fields["date"]?.rule == "newest stated value")
            // A UTC date a day off is not a contradiction.
            #expect(result.conflicts.isEmpty)
            #expect(result.countsAddUp)
        }
    }

    /// LAL at MEM, 2025-10-31 at 7:30 PM Central (the league feed: tip 2025-11-01T01:30Z); a newer feed
    /// prints the UTC date 2025-11-01 and no time.
    @Test func aDateWithAnExactStartBeatsANewerUTCDateWithoutOne() throws {
        let json = T.game(
            sport: "nba", season: "2025-26", date: "2025-10-31", away: "nba-lal", home: "nba-mem",
            start: "2025-11-01T01:30:00Z", source: "nba-json", sourceGameId: "0022500120",
            lastModified: T.instant("2025-11-07T12:00:00Z"))
        var csv = T.game(
            sport: "nba", season: "2025-26", date: "2025-11-01", away: "nba-lal", home: "nba-mem", source: "nba-csv",
            lastModified: T.instant("2025-11-20T12:00:00Z"))
        csv.inferred = [.localDate]
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "nba-json", scope: "nba-2025-26", scrapedAt: T.instant("2025-11-07T12:00:00Z"), games: [json]),
                    T.batch(source: "nba-csv", scope: "nba-2025-26", scrapedAt: T.instant("2025-11-20T12:00:00Z"), games: [csv]),
                ]))
        let game = try #require(result.store.games["nba-2025-26-2025-10-31-lal-at-mem"])
        #expect(result.store.games.count == 1)
        #expect(game.startKnowledge == .exact && game.startUTC == T.instant("2025-11-01T01:30:00Z"))
        #expect(game.formerIds == ["nba-2025-26-2025-11-01-lal-at-mem"])
        #expect(result.lineage[game.id]?.fields["date"]?.rule == "the only stated value (the others were inferred)")
        #expect(result.conflicts.isEmpty)
    }

    /// The real 2022 Retrosheet row of ARI at WSH, 2022-04-18, postponed and made up on 2022-04-19 as
    /// the second game of a doubleheader; a second source lists the made-up game on its own date.
    @Test func aMadeUpGameIsScheduledOnItsMakeupDateNotPostponed() throws {
        var retrosheet = T.game(
            season: "2022", date: "2022-04-18", away: "mlb-ari", home: "mlb-wsh", status: .postponed, source: "retro",
            lastModified: T.instant("2022-03-01T00:00:00Z"))
        retrosheet.makeupDate = T.date("2022-04-19")
        retrosheet.sourceIds = [:]
        let csv = T.game(
            season: "2022", date: "2022-04-19", away: "mlb-ari", home: "mlb-wsh", number: 2,
            start: "2022-04-19T22:05:00Z", source: "csv", lastModified: T.instant("2022-02-01T00:00:00Z"))
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "retro", scope: "mlb-2022", scrapedAt: T.instant("2022-03-01T00:00:00Z"), games: [retrosheet]),
                    T.batch(source: "csv", scope: "mlb-2022", scrapedAt: T.instant("2022-02-01T00:00:00Z"), games: [csv]),
                ]))
        #expect(result.store.games.count == 1)
        let game = try #require(result.store.games["mlb-2022-2022-04-19-ari-at-wsh-g2"])
        #expect(game.status == .scheduled && game.makeupDate == nil)
        #expect(game.formerIds == ["mlb-2022-2022-04-18-ari-at-wsh"])
        #expect(game.startKnowledge == .exact)
        #expect(result.lineage[game.id]?.fields["date"]?.rule == "played on this date (2022-04-18 postponed)")
        #expect(result.conflicts.isEmpty)
    }

    @Test func aPostponedGameWithNoOtherDateStaysPostponedOnItsDate() throws {
        var retrosheet = T.game(
            season: "2022", date: "2022-04-18", away: "mlb-ari", home: "mlb-wsh", status: .postponed, source: "retro",
            lastModified: T.instant("2022-03-01T00:00:00Z"))
        retrosheet.makeupDate = T.date("2022-04-19")
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "retro", scope: "mlb-2022", scrapedAt: T.instant("2022-03-01T00:00:00Z"), games: [retrosheet])
                ]))
        let game = try #require(result.store.games["mlb-2022-2022-04-18-ari-at-wsh"])
        #expect(game.status == .postponed && game.makeupDate == T.date("2022-04-19"))
    }

    /// Super Bowl LVII at State Farm Stadium: spreadspoke flags it neutral; ESPN, trusted for venues,
    /// names the stadium but has no neutral column (normalize worked out "not neutral").
    @Test func aStatedNeutralFlagBeatsOneTheVenuesSourceWorkedOut() throws {
        let stadium = T.stadium("state-farm-stadium", zone: "America/Phoenix")
        let ref = T.reference(teams: ["nfl-phi", "nfl-kc"], extraStadiums: [stadium])
        var espn = T.game(
            sport: "nfl", season: "2022", date: "2023-02-12", away: "nfl-phi", home: "nfl-kc",
            start: "2023-02-12T23:30:00Z", stadium: "state-farm-stadium", source: "espn",
            lastModified: T.instant("2023-06-01T00:00:00Z"))
        espn.inferred = [.neutralSite]
        var spreadspoke = T.game(
            sport: "nfl", season: "2022", date: "2023-02-12", away: "nfl-phi", home: "nfl-kc", stadium: "state-farm-stadium",
            source: "spreadspoke", lastModified: T.instant("2025-10-01T00:00:00Z"))
        spreadspoke.neutralSite = true
        var espnBatch = T.batch(source: "espn", scope: "nfl-2022", scrapedAt: T.instant("2023-06-01T00:00:00Z"), games: [espn])
        espnBatch.origin.trust = [.venue: 2]
        let result = try Merger.merge(
            MergeInput(
                reference: ref,
                gameBatches: [
                    espnBatch,
                    T.batch(source: "spreadspoke", scope: "nfl-2022", scrapedAt: T.instant("2025-10-01T00:00:00Z"), games: [spreadspoke]),
                ]))
        let game = try #require(result.store.games["nfl-2022-2023-02-12-phi-at-kc"])
        #expect(game.neutralSite)
        let lineage = try #require(result.lineage[game.id])
        #expect(lineage.rows[lineage.fields["venue"]!.row].source == "espn")
        #expect(lineage.rows[lineage.fields["neutralSite"]!.row].source == "spreadspoke")
    }
}
