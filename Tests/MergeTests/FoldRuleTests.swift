import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// The three fold rules, batch order and ties.
@Suite struct FoldRuleTests {
    let reference = T.reference(teams: ["mlb-bos", "mlb-nyy", "mlb-bal"])
    let early = T.instant("2023-03-01T00:00:00Z")
    let late = T.instant("2023-04-01T00:00:00Z")

    func game(start: String, source: String, at time: Instant, schemaVersion: Int = 1) -> Game {
        T.game(
            date: "2023-04-10", away: "mlb-nyy", home: "mlb-bos", start: start, source: source,
            lastModified: time, schemaVersion: schemaVersion)
    }

    @Test func newerRecordReplacesOlderOne() throws {
        let old = game(start: "2023-04-10T23:10:00Z", source: "a", at: early)
        let new = game(start: "2023-04-10T17:05:00Z", source: "a", at: late)
        // Listed newest file first: batch order, not file order, decides.
        let input = MergeInput(
            reference: reference,
            gameBatches: [
                T.batch(source: "a", scrapedAt: late, games: [new]), T.batch(source: "a", scrapedAt: early, games: [old]),
            ])
        let result = try Merger.merge(input)
        #expect(result.store.games[new.id]?.startUTC == T.instant("2023-04-10T17:05:00Z"))
        let counts = try #require(result.counts(.games))
        #expect(counts.read == 2 && counts.applied == 2 && counts.inserted == 1 && counts.replaced == 1)
        #expect(counts.skippedOlder == 0 && counts.addsUp)
    }

    @Test func olderRecordIsSkippedWhenItsLastModifiedIsOlder() throws {
        // One batch declares a newer scrape but carries a record with an older lastModified.
        let stale = game(start: "2023-04-10T23:10:00Z", source: "b", at: early)
        let fresh = game(start: "2023-04-10T17:05:00Z", source: "a", at: late)
        let input = MergeInput(
            reference: reference,
            gameBatches: [
                T.batch(source: "a", scrapedAt: early, games: [fresh]), T.batch(source: "b", scrapedAt: late, games: [stale]),
            ])
        let result = try Merger.merge(input)
        #expect(result.store.games[fresh.id]?.source == "a")
        #expect(result.counts(.games)?.skippedOlder == 1)
        #expect(result.counts(.games)?.applied == 1)
    }

    @Test func equalLastModifiedHigherPriorityWinsWhateverTheOrder() throws {
        let low = game(start: "2023-04-10T23:10:00Z", source: "espn", at: late)
        let high = game(start: "2023-04-10T23:05:00Z", source: "mlb-api", at: late)
        for order in [[0, 1], [1, 0]] {
            let batches = [
                T.batch(source: "espn", scrapedAt: late, priority: 1, games: [low]),
                T.batch(source: "mlb-api", scrapedAt: late, priority: 5, games: [high]),
            ]
            let result = try Merger.merge(MergeInput(reference: reference, gameBatches: order.map { batches[$0] }))
            #expect(result.store.games[high.id]?.source == "mlb-api")
            #expect(result.store.games[high.id]?.startUTC == T.instant("2023-04-10T23:05:00Z"))
            // Highest priority is folded first, so the tie ends as rule 2 says: skippedOlder.
            let counts = try #require(result.counts(.games))
            #expect(counts.applied == 1 && counts.skippedOlder == 1 && counts.replaced == 0)
        }
    }

    @Test func equalLastModifiedAndPrioritySmallerSourceIdWins() throws {
        let fromB = game(start: "2023-04-10T23:10:00Z", source: "bravo", at: late)
        let fromA = game(start: "2023-04-10T23:05:00Z", source: "alpha", at: late)
        let batches = [
            T.batch(source: "bravo", scrapedAt: late, games: [fromB]),
            T.batch(source: "alpha", scrapedAt: late, games: [fromA]),
        ]
        for batchOrder in [batches, batches.reversed()] {
            let result = try Merger.merge(MergeInput(reference: reference, gameBatches: Array(batchOrder)))
            #expect(result.store.games[fromA.id]?.source == "alpha")
            #expect(result.counts(.games)?.skippedOlder == 1)
        }
    }

    @Test func equalTieWithStoreFromEarlierRunStillPicksHigherPriority() throws {
        // Incremental: the store already holds the low-priority record at the same lastModified.
        let low = game(start: "2023-04-10T23:10:00Z", source: "espn", at: late)
        let high = game(start: "2023-04-10T23:05:00Z", source: "mlb-api", at: late)
        let first = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "espn", scrapedAt: late, priority: 1, games: [low])
                ]))
        let previous = PreviousMerge(store: first.store, highWater: [.games: late])
        let batches = [
            T.batch(source: "espn", scrapedAt: late, priority: 1, games: [low]),
            T.batch(source: "mlb-api", scrapedAt: late, priority: 5, games: [high]),
        ]
        let second = try Merger.merge(MergeInput(reference: reference, gameBatches: batches, previous: previous))
        #expect(second.store.games[high.id]?.source == "mlb-api")
        #expect(second.counts(.games)?.replaced == 1)
    }

    @Test func recordFromNewerSchemaIsSkippedIncompatibleAndListed() throws {
        let current = game(start: "2023-04-10T23:10:00Z", source: "a", at: early)
        let future = game(start: "2023-04-10T17:05:00Z", source: "a", at: late, schemaVersion: 3)
        let input = MergeInput(
            reference: reference,
            gameBatches: [
                T.batch(source: "a", scrapedAt: early, games: [current]),
                T.batch(source: "a", scrapedAt: late, games: [future], unreadable: [UnreadableRecord(id: "mlb-2023-x", schemaVersion: 4)]),
            ])
        let result = try Merger.merge(input)
        #expect(result.store.games[current.id]?.startUTC == T.instant("2023-04-10T23:10:00Z"))
        let counts = try #require(result.counts(.games))
        #expect(counts.skippedIncompatible == 2 && counts.read == 3 && counts.addsUp)
        let listed = result.incompatibleRecords
        #expect(listed.map(\.recordId).sorted() == [current.id, "mlb-2023-x"].sorted())
        #expect(listed.allSatisfy { $0.supportedVersion == 2 && $0.schemaVersion > 2 })
        #expect(listed.first { $0.recordId == current.id }?.file == "out/normalize/games/a.json")
    }

    @Test func referenceRecordFromNewerSchemaIsSkippedIncompatible() throws {
        var reference = reference
        var future = T.stadium("future-park")
        future.schemaVersion = 2
        reference.stadiums.append(future)
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: []))
        #expect(result.store.stadiums["future-park"] == nil)
        #expect(result.counts(.stadiums)?.skippedIncompatible == 1)
        #expect(result.incompatibleRecords.first?.id == "incompatible:stadiums:future-park:reference")
    }

    @Test func duplicateIdInOneBatchKeepsTheFirstAndCountsTheSecond() throws {
        let first = game(start: "2023-04-10T23:10:00Z", source: "a", at: late)
        var second = first
        second.startUTC = T.instant("2023-04-10T17:05:00Z")
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "a", scrapedAt: late, games: [first, second])
                ]))
        #expect(result.store.games[first.id]?.startUTC == first.startUTC)
        #expect(result.counts(.games)?.skippedOlder == 1)
    }

    @Test func batchOrderIsScrapedAtThenPriorityDescendingThenSource() {
        func origin(_ source: String, _ time: Instant, _ priority: Int) -> BatchOrigin {
            BatchOrigin(source: source, system: source, scope: "s", scrapedAt: time, priority: priority, path: "p/\(source)")
        }
        let origins = [origin("z", late, 1), origin("a", late, 1), origin("m", late, 9), origin("q", early, 0)]
        let sorted = origins.sorted { MergeRules.folds($0, before: $1) }
        #expect(sorted.map(\.source) == ["q", "m", "a", "z"])
    }

    @Test func recordNamingAnotherSourceThanItsBatchIsRejected() throws {
        let game = game(start: "2023-04-10T23:10:00Z", source: "espn", at: late)
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "nflverse", scrapedAt: late, games: [game])
                ]))
        #expect(result.store.games.isEmpty)
        #expect(result.rejects.first?.reason.contains("names source 'espn'") == true)
    }

    @Test func countsAddUpForEveryKindInFullAndIncrementalRuns() throws {
        let scenario = try ScenarioGenerator.make(seed: 17, runs: 2)
        let first = try Merger.merge(scenario.input(upToRun: 1))
        var input = scenario.fullInput
        let full = try Merger.merge(input)
        input.previous = PreviousMerge(store: first.store, highWater: IncrementalTests.highWater(first))
        let incremental = try Merger.merge(input)
        for result in [first, full, incremental] {
            for kind in EntityKind.foldOrder {
                let counts = try #require(result.counts(kind))
                #expect(
                    counts.read == counts.applied + counts.skippedOlder + counts.skippedIncompatible + counts.rejected
                        + counts.skippedBelowMark,
                    "\(kind) in a \(result.mode) merge")
                #expect(counts.applied == counts.inserted + counts.replaced)
                #expect(counts.stored == result.store.count(of: kind))
            }
            // Every rejected record is in the rejects, every incompatible one in the report.
            #expect(result.rejects.count == EntityKind.foldOrder.reduce(0) { $0 + result.counts($1)!.rejected })
            #expect(result.incompatibleRecords.count == EntityKind.foldOrder.reduce(0) { $0 + result.counts($1)!.skippedIncompatible })
        }
        // A full merge reads every input record once.
        let gameRecords = scenario.fullInput.gameBatches.reduce(0) { $0 + $1.records.count + $1.unreadable.count }
        #expect(full.counts(.games)?.read == gameRecords)
        #expect(full.counts(.games)?.skippedBelowMark == 0)
    }
}
