import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// Soft delete by newer batches of the same system and scope.
@Suite struct SoftDeleteTests {
    let reference = T.reference(teams: ["mlb-bos", "mlb-nyy", "mlb-bal", "mlb-tor"])
    let march = T.instant("2020-03-01T00:00:00Z")
    let july = T.instant("2020-07-10T00:00:00Z")
    let august = T.instant("2020-08-01T00:00:00Z")

    func game(_ date: String, _ away: String, _ home: String, source: String, at time: Instant) -> Game {
        T.game(season: "2020", date: date, away: away, home: home, source: source, lastModified: time)
    }

    /// Shaped like Retrosheet 2020: an original schedule, then a revised one that keeps a few games and
    /// lists new ones. (The real files are in `RetrosheetScenarioTests`; the e2e run from the scraped
    /// fixtures through ingest and normalize is checked by integration.)
    @Test func revisedScheduleDeprecatesDroppedGamesAndKeepsThem() throws {
        let kept = game("2020-07-24", "mlb-nyy", "mlb-bos", source: "retro-orig", at: march)
        let dropped = [
            game("2020-03-26", "mlb-bal", "mlb-bos", source: "retro-orig", at: march),
            game("2020-03-27", "mlb-tor", "mlb-nyy", source: "retro-orig", at: march),
        ]
        var keptRevised = kept
        keptRevised.source = "retro-rev"; keptRevised.lastModified = july; keptRevised.sourceIds = ["retro-rev": "x"]
        let added = game("2020-07-25", "mlb-bos", "mlb-tor", source: "retro-rev", at: july)
        let batches = [
            T.batch(source: "retro-orig", system: "retrosheet", scope: "mlb-2020", scrapedAt: march, games: [kept] + dropped),
            T.batch(source: "retro-rev", system: "retrosheet", scope: "mlb-2020", scrapedAt: july, games: [keptRevised, added]),
        ]
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: batches))
        #expect(result.store.games.count == 4) // deprecated, not deleted
        for game in dropped { #expect(result.store.games[game.id]?.deprecatedAt == july) }
        #expect(result.store.games[kept.id]?.deprecatedAt == nil)
        #expect(result.store.games[added.id]?.deprecatedAt == nil)
        #expect(result.store.games[kept.id]?.sourceIds.keys.sorted() == ["retro-orig", "retro-rev"])
        #expect(result.counts(.games)?.deprecated == 2)
    }

    /// A verdict keeps the groups that list a game by number: bits for the first 64, a list beyond.
    @Test func verdictKnowsItsListingGroupsPastSixtyFour() {
        var verdict = SoftDelete.Verdict()
        #expect(!verdict.isListed)
        for group in [0, 3, 63, 64, 70, 70] { verdict.listed(by: group) }
        #expect(verdict.isListed)
        #expect([0, 3, 63, 64, 70].allSatisfy { verdict.isListed(by: $0) })
        #expect(![1, 62, 65, 69, 71, 200].contains { verdict.isListed(by: $0) })
        var beyond = SoftDelete.Verdict()
        beyond.listed(by: 100)
        #expect(beyond.isListed && beyond.isListed(by: 100) && !beyond.isListed(by: 36))
    }

    @Test func gameListedAgainByALaterBatchIsRestored() throws {
        let comeback = game("2020-08-10", "mlb-nyy", "mlb-bos", source: "s", at: march)
        let other = game("2020-08-11", "mlb-nyy", "mlb-bos", source: "s", at: march)
        func relisted(_ g: Game, _ t: Instant) -> Game { var g = g; g.lastModified = t; return g }
        let batches = [
            T.batch(source: "s", scope: "mlb-2020", scrapedAt: march, games: [comeback, other]),
            T.batch(source: "s", scope: "mlb-2020", scrapedAt: july, games: [relisted(other, july)]),
            T.batch(source: "s", scope: "mlb-2020", scrapedAt: august, games: [relisted(comeback, august), relisted(other, august)]),
        ]
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: batches))
        #expect(result.store.games[comeback.id]?.deprecatedAt == nil)
        // Without the August batch it stays deprecated at the July scrape.
        let before = try Merger.merge(MergeInput(reference: reference, gameBatches: Array(batches.prefix(2))))
        #expect(before.store.games[comeback.id]?.deprecatedAt == july)
    }

    @Test func otherScopeOrSystemDoesNotDeprecate() throws {
        let g2020 = game("2020-08-10", "mlb-nyy", "mlb-bos", source: "s2020", at: march)
        let g2021 = T.game(season: "2021", date: "2021-08-10", away: "mlb-nyy", home: "mlb-bos", source: "s2021", lastModified: july)
        let batches = [
            T.batch(source: "s2020", system: "retrosheet", scope: "mlb-2020", scrapedAt: march, games: [g2020]),
            T.batch(source: "s2021", system: "retrosheet", scope: "mlb-2021", scrapedAt: july, games: [g2021]),
            T.batch(source: "espn", system: "espn", scope: "mlb-2020", scrapedAt: august, games: []),
        ]
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: batches))
        #expect(result.store.games.values.allSatisfy { $0.deprecatedAt == nil })
    }

    @Test func gameStillListedByAnotherSystemStaysActive() throws {
        let shared = game("2020-08-10", "mlb-nyy", "mlb-bos", source: "retro", at: march)
        var fromEspn = shared
        fromEspn.source = "espn"; fromEspn.sourceIds = ["espn": "401"]; fromEspn.lastModified = march
        let batches = [
            T.batch(source: "retro", system: "retrosheet", scope: "mlb-2020", scrapedAt: march, games: [shared]),
            T.batch(source: "espn", system: "espn", scope: "mlb-2020", scrapedAt: march, games: [fromEspn]),
            T.batch(source: "retro-rev", system: "retrosheet", scope: "mlb-2020", scrapedAt: july, games: []),
        ]
        let active = try Merger.merge(MergeInput(reference: reference, gameBatches: batches))
        #expect(active.store.games[shared.id]?.deprecatedAt == nil)
        // Once ESPN drops it too, it is deprecated at the later of the two drops.
        let gone = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: batches + [
                    T.batch(source: "espn-later", system: "espn", scope: "mlb-2020", scrapedAt: august, games: [])
                ]))
        #expect(gone.store.games[shared.id]?.deprecatedAt == august)
    }

    @Test func unreadableRecordStillCountsAsListed() throws {
        let g = game("2020-08-10", "mlb-nyy", "mlb-bos", source: "s", at: march)
        let batches = [
            T.batch(source: "s", scope: "mlb-2020", scrapedAt: march, games: [g]),
            T.batch(source: "s", scope: "mlb-2020", scrapedAt: july, games: [], unreadable: [UnreadableRecord(id: g.id, schemaVersion: 2)]),
        ]
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: batches))
        #expect(result.store.games[g.id]?.deprecatedAt == nil)
    }

    /// A re-scrape replaces the source's file, so an incremental merge sees only the newest batch: the
    /// game it no longer lists is deprecated from the store, and restored when a later scrape lists it.
    @Test func incrementalMergeDeprecatesGamesAReplacedBatchDropped() throws {
        let a = game("2020-08-10", "mlb-nyy", "mlb-bos", source: "s", at: march)
        let b = game("2020-08-11", "mlb-nyy", "mlb-bos", source: "s", at: march)
        func at(_ g: Game, _ t: Instant) -> Game { var g = g; g.lastModified = t; return g }
        let run1 = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "s", scope: "mlb-2020", scrapedAt: march, games: [a, b])
                ]))
        let run2 = try Merger.merge(
            MergeInput(
                reference: reference, gameBatches: [T.batch(source: "s", scope: "mlb-2020", scrapedAt: july, games: [at(a, july)])],
                previous: PreviousMerge(store: run1.store, highWater: [.games: march])))
        #expect(run2.store.games[b.id]?.deprecatedAt == july)
        #expect(run2.store.games[a.id]?.deprecatedAt == nil)
        // Still dropped by the next scrape: keeps the first drop time.
        let run3 = try Merger.merge(
            MergeInput(
                reference: reference, gameBatches: [T.batch(source: "s", scope: "mlb-2020", scrapedAt: august, games: [at(a, august)])],
                previous: PreviousMerge(store: run2.store, highWater: [.games: july])))
        #expect(run3.store.games[b.id]?.deprecatedAt == july)
        let september = T.instant("2020-09-01T00:00:00Z")
        let run4 = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(
                        source: "s", scope: "mlb-2020", scrapedAt: september,
                        games: [at(a, september), at(b, september)])
                ],
                previous: PreviousMerge(store: run3.store, highWater: [.games: august])))
        #expect(run4.store.games[b.id]?.deprecatedAt == nil)
        #expect(run4.counts(.games)?.deprecated == 0)
    }

    @Test func batchesWithTheSameScrapeTimeFormOneSnapshot() throws {
        let a = game("2020-08-10", "mlb-nyy", "mlb-bos", source: "al", at: march)
        let b = game("2020-08-11", "mlb-bal", "mlb-tor", source: "nl", at: march)
        let batches = [
            T.batch(source: "al", system: "retrosheet", scope: "mlb-2020", scrapedAt: march, games: [a]),
            T.batch(source: "nl", system: "retrosheet", scope: "mlb-2020", scrapedAt: march, games: [b]),
        ]
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: batches))
        #expect(result.store.games.values.allSatisfy { $0.deprecatedAt == nil })
    }
}

/// The real Retrosheet 2020 original and revised schedules.
@Suite struct RetrosheetScenarioTests {
    @Test func revised2020ScheduleIsActiveAndDroppedGamesAreDeprecated() throws {
        let batches = try RetrosheetFixture.season2020()
        #expect(batches[0].records.count == 2430)
        #expect(batches[1].records.count == 900)
        let result = try Merger.merge(MergeInput(reference: RetrosheetFixture.reference, gameBatches: batches))
        let revisedIds = Set(batches[1].records.map(\.id))
        let originalIds = Set(batches[0].records.map(\.id))
        #expect(revisedIds.count == 900 && originalIds.count == 2430)
        let games = result.store.games
        #expect(games.count == originalIds.union(revisedIds).count)
        #expect(games.count == 2430 + 900 - 38)
        let active = games.values.filter { $0.deprecatedAt == nil }
        #expect(Set(active.map(\.id)) == revisedIds)
        let deprecated = games.values.filter { $0.deprecatedAt != nil }
        #expect(deprecated.count == 2430 - 38)
        #expect(deprecated.allSatisfy { $0.deprecatedAt == batches[1].origin.scrapedAt })
        #expect(result.counts(.games)?.deprecated == 2392)
        #expect(result.rejects.isEmpty)
        #expect(result.countsAddUp)
        // The 38 games on both schedules carry both sources' ids, and the revised record won.
        let both = games.values.filter { $0.sourceIds.count == 2 }
        #expect(both.count == 38)
        #expect(both.allSatisfy { $0.source == "retrosheet-2020-revised" })
    }
}
