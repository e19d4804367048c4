import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// One canonical game from several sources.
@Suite struct MultiSourceTests {
    let reference = T.reference(teams: ["nfl-kc", "nfl-buf"], extraStadiums: [T.stadium("neutral-field")])
    let monday = T.instant("2023-09-04T00:00:00Z")
    let tuesday = T.instant("2023-09-05T00:00:00Z")

    func game(
        source: String, start: String, stadium: String? = nil, status: GameStatus = .scheduled, at time: Instant,
        sourceGameId: String
    ) -> Game {
        T.game(
            sport: "nfl", date: "2023-09-10", away: "nfl-buf", home: "nfl-kc", start: start, stadium: stadium,
            status: status, source: source, sourceGameId: sourceGameId, lastModified: time)
    }

    @Test func sourceIdsAreUnionedAndNewestWins() throws {
        let espn = game(source: "espn", start: "2023-09-11T00:20:00Z", at: tuesday, sourceGameId: "401547353")
        let nflverse = game(
            source: "nflverse", start: "2023-09-11T00:15:00Z", stadium: "neutral-field", at: monday,
            sourceGameId: "2023_01_BUF_KC")
        let input = MergeInput(
            reference: reference,
            gameBatches: [
                T.batch(source: "espn", scope: "nfl-2023", scrapedAt: tuesday, priority: 1, games: [espn]),
                T.batch(source: "nflverse", scope: "nfl-2023", scrapedAt: monday, priority: 5, games: [nflverse]),
            ])
        let result = try Merger.merge(input)
        let merged = try #require(result.store.games[espn.id])
        #expect(merged.sourceIds == ["espn": "401547353", "nflverse": "2023_01_BUF_KC"])
        #expect(merged.source == "espn" && merged.startUTC == T.instant("2023-09-11T00:20:00Z") && merged.stadiumId == "park-nfl-kc")

        let conflict = try #require(result.conflicts.first)
        #expect(result.conflicts.count == 1)
        #expect(conflict.id == "conflict:\(espn.id)")
        #expect(conflict.classes == [.timeMoved, .venueDiffers])
        #expect(conflict.winner == "espn")
        #expect(conflict.sources.map(\.source) == ["espn", "nflverse"])
        #expect(conflict.sources[1].stadiumId == "neutral-field" && conflict.sources[1].priority == 5)
        #expect(conflict.sources[0].startUTC == T.instant("2023-09-11T00:20:00Z"))
    }

    @Test func sourcesThatAgreeAreNotAConflict() throws {
        let a = game(source: "espn", start: "2023-09-11T00:20:00Z", at: tuesday, sourceGameId: "1")
        let b = game(source: "nflverse", start: "2023-09-11T00:20:00Z", at: monday, sourceGameId: "2")
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "espn", scrapedAt: tuesday, games: [a]), T.batch(source: "nflverse", scrapedAt: monday, games: [b]),
                ]))
        #expect(result.conflicts.isEmpty)
        #expect(result.store.games[a.id]?.sourceIds.count == 2)
    }

    @Test func statusDifferenceIsReportedWithEachSourcesValue() throws {
        let a = game(source: "espn", start: "2023-09-11T00:20:00Z", status: .final, at: tuesday, sourceGameId: "1")
        let b = game(source: "nflverse", start: "2023-09-11T00:20:00Z", status: .postponed, at: monday, sourceGameId: "2")
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "espn", scrapedAt: tuesday, games: [a]), T.batch(source: "nflverse", scrapedAt: monday, games: [b]),
                ]))
        let conflict = try #require(result.conflicts.first)
        #expect(conflict.classes == [.statusContradicts])
        #expect(conflict.sources.map(\.status) == [.final, .postponed])
        #expect(result.store.games[a.id]?.status == .final)
    }

    @Test func sourceValueIsItsNewestRecord() throws {
        // nflverse's older scrape disagreed; its newer scrape agrees with ESPN: no conflict.
        let a = game(source: "espn", start: "2023-09-11T00:20:00Z", at: tuesday, sourceGameId: "1")
        let oldNflverse = game(source: "nflverse", start: "2023-09-10T17:00:00Z", at: monday, sourceGameId: "2")
        let newNflverse = game(source: "nflverse", start: "2023-09-11T00:20:00Z", at: tuesday, sourceGameId: "2")
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "espn", scrapedAt: tuesday, games: [a]),
                    T.batch(source: "nflverse", scrapedAt: monday, games: [oldNflverse]),
                    T.batch(source: "nflverse", scrapedAt: tuesday, games: [newNflverse]),
                ]))
        #expect(result.conflicts.isEmpty)
    }

    @Test func losingSourceIdIsKeptButAnInvalidLoserAddsNothing() throws {
        let winner = game(source: "espn", start: "2023-09-11T00:20:00Z", at: tuesday, sourceGameId: "1")
        let loser = game(source: "nflverse", start: "2023-09-11T00:20:00Z", at: monday, sourceGameId: "2")
        var invalidLoser = game(source: "sportsref", start: "2023-09-11T00:20:00Z", stadium: "atlantis", at: monday, sourceGameId: "3")
        invalidLoser.sourceIds = ["sportsref": "3"]
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "espn", scrapedAt: tuesday, games: [winner]),
                    T.batch(source: "nflverse", scrapedAt: monday, games: [loser]),
                    T.batch(source: "sportsref", scrapedAt: monday, games: [invalidLoser]),
                ]))
        #expect(result.store.games[winner.id]?.sourceIds == ["espn": "1", "nflverse": "2"])
    }
}
