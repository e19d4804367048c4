import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// One real game, one record: games two sources date differently are matched; every part of a game
/// takes the best stated value; a value a source does not know never erases one another source states.
@Suite struct GameIdentityTests {
    let nfl = T.reference(teams: ["nfl-hou", "nfl-ind", "nfl-pit", "nfl-bal"])
    let nflverseScrape = T.instant("2024-01-08T00:00:00Z")
    let spreadspokeScrape = T.instant("2025-10-01T00:00:00Z")

    /// HOU at IND, 2023 week 18, as the two real rows say it: nflverse (games_2023_week18.csv) Saturday
    /// 2024-01-06 at 20:15 ET; spreadspoke (spreadspoke_scores.csv:548) Sunday 2024-01-07, no time.
    func houAtInd(trustNflverse: Bool) -> MergeInput {
        var nflverse = T.game(
            sport: "nfl", date: "2024-01-06", away: "nfl-hou", home: "nfl-ind", start: "2024-01-07T01:15:00Z",
            status: .final, source: "nflverse", sourceGameId: "2023_18_HOU_IND", lastModified: nflverseScrape)
        nflverse.provenance = "fixtures/scraped/nfl-nflverse-2023-wk18/games_2023_week18.csv:3"
        var spreadspoke = T.game(
            sport: "nfl", date: "2024-01-07", away: "nfl-hou", home: "nfl-ind", status: .final,
            source: "spreadspoke", lastModified: spreadspokeScrape)
        spreadspoke.sourceIds = [:]
        spreadspoke.provenance = "fixtures/scraped/nfl-spreadspoke-2022-2025/spreadspoke_scores.csv:548"
        // PIT at BAL the same Saturday: both sources agree, and it must stay its own game.
        let pit = T.game(
            sport: "nfl", date: "2024-01-06", away: "nfl-pit", home: "nfl-bal", start: "2024-01-06T21:30:00Z",
            status: .final, source: "nflverse", lastModified: nflverseScrape)
        var pitSpread = T.game(
            sport: "nfl", date: "2024-01-06", away: "nfl-pit", home: "nfl-bal", status: .final,
            source: "spreadspoke", lastModified: spreadspokeScrape)
        pitSpread.sourceIds = [:]
        var nflverseBatch = T.batch(
            source: "nflverse", scope: "nfl-2023", scrapedAt: nflverseScrape, priority: 60,
            games: [nflverse, pit])
        if trustNflverse { nflverseBatch.origin.trust = [.date: 2, .start: 2] }
        return MergeInput(
            reference: nfl,
            gameBatches: [
                nflverseBatch,
                T.batch(
                    source: "spreadspoke", scope: "nfl-2022..2025", scrapedAt: spreadspokeScrape, priority: 30,
                    games: [spreadspoke, pitSpread]),
            ])
    }

    @Test func aGameTwoSourcesDateDifferentlyIsOneGameWithTheTrustedDateAndItsFormerId() throws {
        let result = try Merger.merge(houAtInd(trustNflverse: true))
        let games = result.store.games.values.filter { $0.homeTeamId == "nfl-ind" }
        #expect(games.count == 1)
        let game = try #require(result.store.games["nfl-2023-2024-01-06-hou-at-ind"])
        #expect(game.formerIds == ["nfl-2023-2024-01-07-hou-at-ind"])
        #expect(game.startKnowledge == .exact && game.startUTC == T.instant("2024-01-07T01:15:00Z"))
        #expect(game.sourceIds == ["nflverse": "2023_18_HOU_IND"])
        #expect(game.provenance == nil && game.inferred == nil)
        #expect(result.store.games["nfl-2023-2024-01-06-pit-at-bal"] != nil && result.store.games.count == 2)

        let conflict = try #require(result.conflicts.first { $0.gameId == game.id })
        #expect(conflict.classes == [.dateMoved])
        #expect(conflict.sources.map(\.recordId) == ["nfl-2023-2024-01-06-hou-at-ind", "nfl-2023-2024-01-07-hou-at-ind"])
        #expect(result.conflictSummary == MergeConflictSummary(dateMoved: 1, matchedAcrossDates: 1))

        let lineage = try #require(result.lineage[game.id])
        #expect(
            lineage.rows.map(\.row) == [
                "fixtures/scraped/nfl-nflverse-2023-wk18/games_2023_week18.csv:3",
                "fixtures/scraped/nfl-spreadspoke-2022-2025/spreadspoke_scores.csv:548",
            ])
        #expect(lineage.fields["date"] == FieldOrigin(row: 0, rule: "trusted source for date (rank 2)"))
        #expect(lineage.fields["status"]?.row == 1) // newest stated
        #expect(result.countsAddUp)
    }

    @Test func withoutTrustTheNewestDateWinsAndAStartOfAnotherDateIsNotCarriedOver() throws {
        let result = try Merger.merge(houAtInd(trustNflverse: false))
        let game = try #require(result.store.games["nfl-2023-2024-01-07-hou-at-ind"])
        #expect(game.formerIds == ["nfl-2023-2024-01-06-hou-at-ind"])
        // The exact start belongs to the Saturday: on the Sunday the start is not known.
        #expect(game.startKnowledge == .unknown && game.startUTC == nil)
        #expect(result.lineage[game.id]?.fields["start"]?.rule == "no source states a start on 2024-01-07")
        #expect(result.store.games.count == 2)
    }

    @Test func aValueASourceDoesNotKnowNeverErasesOneAnotherStates() throws {
        // ESPN (older) states the kickoff and the venue; the newer spreadspoke row states neither.
        let reference = T.reference(teams: ["nfl-det", "nfl-kc"], extraStadiums: [T.stadium("arrowhead")])
        let espn = T.game(
            sport: "nfl", date: "2023-09-07", away: "nfl-det", home: "nfl-kc", start: "2023-09-08T00:20:00Z",
            stadium: "arrowhead", source: "espn", sourceGameId: "401547353", lastModified: T.instant("2024-01-02T00:00:00Z"))
        var spread = T.game(
            sport: "nfl", date: "2023-09-07", away: "nfl-det", home: "nfl-kc", status: .final,
            source: "spreadspoke", lastModified: spreadspokeScrape)
        spread.inferred = [.stadiumId]
        for order in [[0, 1], [1, 0]] {
            let batches = [
                T.batch(source: "espn", scope: "nfl-2023", scrapedAt: T.instant("2024-01-02T00:00:00Z"), games: [espn]),
                T.batch(source: "spreadspoke", scope: "nfl-2023", scrapedAt: spreadspokeScrape, games: [spread]),
            ]
            let result = try Merger.merge(MergeInput(reference: reference, gameBatches: order.map { batches[$0] }))
            let game = try #require(result.store.games[espn.id])
            #expect(game.startUTC == T.instant("2023-09-08T00:20:00Z") && game.startKnowledge == .exact)
            #expect(game.stadiumId == "arrowhead") // stated beats inferred, though older
            #expect(game.status == .final && game.source == "spreadspoke") // the newest record still wins what it states
            #expect(game.sourceIds == ["espn": "401547353", "spreadspoke": "spreadspoke:\(espn.id)"])
            #expect(result.conflicts.isEmpty) // filling an unknown and scheduled → final are not conflicts
            #expect(result.lineage[game.id]?.fields["venue"]?.rule == "the only stated value (the others were inferred)")
        }
    }

    @Test func anExactStartReplacesANewerDayNightFlagItAgreesWith() throws {
        let reference = T.reference(teams: ["mlb-bos", "mlb-nyy"])
        var retro = T.game(
            date: "2023-06-10", away: "mlb-nyy", home: "mlb-bos", source: "retrosheet", lastModified: T.instant("2023-07-01T00:00:00Z"))
        retro.startKnowledge = .day
        let feed = T.game(
            date: "2023-06-10", away: "mlb-nyy", home: "mlb-bos", start: "2023-06-10T17:10:00Z",
            source: "feed", lastModified: T.instant("2023-03-01T00:00:00Z"))
        var night = feed
        night.startUTC = T.instant("2023-06-10T23:10:00Z")
        func merged(_ exact: Game) throws -> MergeResult {
            try Merger.merge(
                MergeInput(
                    reference: reference,
                    gameBatches: [
                        T.batch(source: "retrosheet", scrapedAt: T.instant("2023-07-01T00:00:00Z"), games: [retro]),
                        T.batch(source: "feed", scrapedAt: T.instant("2023-03-01T00:00:00Z"), games: [exact]),
                    ]))
        }
        let agreeing = try merged(feed)
        #expect(agreeing.store.games[feed.id]?.startUTC == T.instant("2023-06-10T17:10:00Z")) // 13:10 EDT is a day game
        #expect(agreeing.conflicts.isEmpty)
        let contradicting = try merged(night)
        #expect(contradicting.store.games[feed.id]?.startKnowledge == .day) // the newer flag says day; 19:10 is not
        #expect(contradicting.store.games[feed.id]?.startUTC == nil)
        #expect(contradicting.conflicts.first?.classes == [.timeMoved])
    }

    @Test func aPostponedGameMovedByOneSourceOnlyIsOneGame() throws {
        // Real row: Retrosheet's revised 2020 schedule has BAL at MIA on 2020-07-27 postponed, made up 2020-08-05.
        let revisedAt = T.instant("2020-10-01T00:00:00Z")
        let revised = try RetrosheetFixture.games(file: "2020REV.TXT", source: "retrosheet", scrapedAt: revisedAt)
        let postponed = try #require(revised.first { $0.id == "mlb-2020-2020-07-27-bal-at-mia" })
        #expect(postponed.status == .postponed && postponed.makeupDate == T.date("2020-08-05"))
        // A feed that only knows the game at its new date (nine days later, beyond the ±3-day window).
        let moved = T.game(
            season: "2020", date: "2020-08-05", away: "mlb-bal", home: "mlb-mia", start: "2020-08-05T22:40:00Z",
            status: .final, source: "feed", lastModified: T.instant("2020-10-02T00:00:00Z"))
        let result = try Merger.merge(
            MergeInput(
                reference: RetrosheetFixture.reference,
                gameBatches: [
                    T.batch(source: "retrosheet", scope: "mlb-2020", scrapedAt: revisedAt, games: revised),
                    T.batch(source: "feed", scope: "mlb-2020", scrapedAt: T.instant("2020-10-02T00:00:00Z"), games: [moved]),
                ]))
        let pairing = result.store.games.values.filter { $0.homeTeamId == "mlb-mia" && $0.awayTeamId == "mlb-bal" }
        let revisedPairing = revised.filter { $0.homeTeamId == "mlb-mia" && $0.awayTeamId == "mlb-bal" }
        #expect(pairing.count == revisedPairing.count) // the feed's game added nothing: it is the postponed one
        let game = try #require(result.store.games[moved.id])
        #expect(game.formerIds == [postponed.id] && game.status == .final)
        // The postponement names the feed's date as its makeup: the sources agree, nothing contradicts.
        #expect(result.conflicts.first { $0.gameId == moved.id } == nil)
        #expect(result.lineage[game.id]?.fields["date"]?.rule.hasPrefix("played on this date (2020-07-27 postponed)") == true)
    }

    @Test func aSeriesPairsByNearestDateAndATieIsReportedNotGuessed() throws {
        let reference = T.reference(teams: ["mlb-bos", "mlb-nyy"])
        let a = T.instant("2023-05-01T00:00:00Z"), b = T.instant("2023-05-02T00:00:00Z")
        func game(_ day: String, _ source: String, _ at: Instant, number: Int? = nil) -> Game {
            T.game(date: day, away: "mlb-nyy", home: "mlb-bos", number: number, source: source, lastModified: at)
        }
        // A: Jun 1, 2, 3; B: Jun 1, 2, 4 — the third game moved a day: three games, not four.
        var result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "a", scrapedAt: a, games: ["2023-06-01", "2023-06-02", "2023-06-03"].map { game($0, "a", a) }),
                    T.batch(source: "b", scrapedAt: b, games: ["2023-06-01", "2023-06-02", "2023-06-04"].map { game($0, "b", b) }),
                ]))
        #expect(
            result.store.games.keys.sorted() == [
                "mlb-2023-2023-06-01-nyy-at-bos", "mlb-2023-2023-06-02-nyy-at-bos",
                "mlb-2023-2023-06-04-nyy-at-bos",
            ])
        #expect(result.store.games["mlb-2023-2023-06-04-nyy-at-bos"]?.formerIds == ["mlb-2023-2023-06-03-nyy-at-bos"])

        // A: Jun 1 and Jun 3; B: Jun 2 only — equally near both: kept apart and reported.
        result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "a", scrapedAt: a, games: [game("2023-06-01", "a", a), game("2023-06-03", "a", a)]),
                    T.batch(source: "b", scrapedAt: b, games: [game("2023-06-02", "b", b)]),
                ]))
        #expect(result.store.games.count == 3)
        let ambiguous = try #require(result.ambiguousMatches.first)
        #expect(ambiguous.gameId == "mlb-2023-2023-06-02-nyy-at-bos")
        #expect(ambiguous.candidates == ["mlb-2023-2023-06-01-nyy-at-bos", "mlb-2023-2023-06-03-nyy-at-bos"])
        #expect(result.conflictSummary?.ambiguousMatches == 1)

        // A doubleheader's second game that B dates the next day pairs by game number.
        result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(
                        source: "a", scrapedAt: a, games: [game("2023-06-05", "a", a, number: 1), game("2023-06-05", "a", a, number: 2)]),
                    T.batch(source: "b", scrapedAt: b, games: [game("2023-06-05", "b", b), game("2023-06-06", "b", b)]),
                ]))
        #expect(result.store.games.keys.sorted() == ["mlb-2023-2023-06-05-nyy-at-bos", "mlb-2023-2023-06-06-nyy-at-bos"])
    }

    @Test func oneSystemsOwnSnapshotsAndFarApartGamesNeverPair() throws {
        let reference = T.reference(teams: ["mlb-bos", "mlb-nyy"])
        let early = T.instant("2023-03-01T00:00:00Z"), late = T.instant("2023-05-01T00:00:00Z")
        let first = T.game(date: "2023-06-01", away: "mlb-nyy", home: "mlb-bos", source: "retro-a", lastModified: early)
        let second = T.game(date: "2023-06-02", away: "mlb-nyy", home: "mlb-bos", source: "retro-b", lastModified: late)
        let far = T.game(date: "2023-06-09", away: "mlb-nyy", home: "mlb-bos", source: "feed", lastModified: late)
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "retro-a", system: "retrosheet", scrapedAt: early, games: [first]),
                    T.batch(source: "retro-b", system: "retrosheet", scrapedAt: late, games: [second]),
                    T.batch(source: "feed", scrapedAt: late, games: [far]),
                ]))
        // The newer snapshot of one system replaces the older one's listing: soft delete, not a match.
        #expect(result.store.games[first.id]?.deprecatedAt == late)
        #expect(result.store.games[second.id]?.deprecatedAt == nil && result.store.games[second.id]?.formerIds == nil)
        #expect(result.store.games[far.id] != nil && result.store.games.count == 3)
        #expect(result.ambiguousMatches.isEmpty)
    }

    @Test func anOverrideNamingAFormerIdStillApplies() throws {
        var input = houAtInd(trustNflverse: true)
        input.overrides = [
            OverridePatch(
                entity: .games, recordId: "nfl-2023-2024-01-07-hou-at-ind", field: "neutralSite",
                value: .bool(true), reason: "test",
                location: SourceLocation(path: "fixtures/overrides/x.yaml", line: 3))
        ]
        let result = try Merger.merge(input)
        #expect(result.store.games["nfl-2023-2024-01-06-hou-at-ind"]?.neutralSite == true)
        #expect(result.overrideOutcomes.first?.status == .applied)
    }

    @Test func aSourceThatLabelsTheSeasonDifferentlyStillMeetsTheOthers() throws {
        let reference = T.reference(teams: ["nba-bos", "nba-nyk"])
        let league = T.game(
            sport: "nba", season: "2025-26", date: "2026-01-10", away: "nba-nyk", home: "nba-bos",
            start: "2026-01-11T00:30:00Z", source: "league", lastModified: T.instant("2025-11-01T00:00:00Z"))
        let other = T.game(
            sport: "nba", season: "2026", date: "2026-01-11", away: "nba-nyk", home: "nba-bos",
            source: "other", lastModified: T.instant("2025-10-01T00:00:00Z"))
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "league", scope: "nba-2025-26", scrapedAt: T.instant("2025-11-01T00:00:00Z"), games: [league]),
                    T.batch(source: "other", scope: "nba-2026", scrapedAt: T.instant("2025-10-01T00:00:00Z"), games: [other]),
                ]))
        #expect(result.store.games.keys.sorted() == [league.id])
        #expect(result.store.games[league.id]?.season == "2025-26" && result.store.games[league.id]?.formerIds == [other.id])
    }
}
