import Foundation
import SportsTimeCore
import SportsTimeTestSupport
import Testing
@testable import SportsTimeMerge

/// Incremental merge (fold only what is at or after the high-water mark) equals a full merge.
@Suite struct IncrementalTests {
    static func highWater(_ result: MergeResult) -> [EntityKind: Instant] {
        var marks: [EntityKind: Instant] = [:]
        for state in result.syncStates { if let kind = EntityKind(rawValue: state.id), let mark = state.highWater { marks[kind] = mark } }
        return marks
    }

    /// Runs the scenario run by run, each incremental on the previous store, and checks after every run
    /// that the store and sync state equal a full merge of the same inputs (and, when `compareBytes`,
    /// that the written files are byte-identical too).
    static func checkIncrementalEqualsFull(_ scenario: Scenario, seed: UInt64, compareBytes: Bool) throws {
        var previous: MergeResult?
        for run in 1...scenario.runs {
            var input = scenario.input(upToRun: run)
            let full = try Merger.merge(input)
            if let previous { input.previous = PreviousMerge(store: previous.store, highWater: highWater(previous)) }
            let incremental = try Merger.merge(input)
            if compareBytes || incremental.store != full.store || incremental.syncStates != full.syncStates {
                let fullFiles = try T.storeFiles(full, input)
                let incrementalFiles = try T.storeFiles(incremental, input)
                #expect(fullFiles.keys.sorted() == incrementalFiles.keys.sorted(), "seed \(seed) run \(run)")
                for path in fullFiles.keys.sorted() where fullFiles[path] != incrementalFiles[path] {
                    Issue.record(
                        "seed \(seed) run \(run): \(path) differs between the incremental and the full merge\n\(firstDifference(fullFiles[path], incrementalFiles[path]))"
                    )
                }
            }
            #expect(incremental.store == full.store, "seed \(seed) run \(run)")
            #expect(incremental.syncStates == full.syncStates, "seed \(seed) run \(run)")
            #expect(incremental.countsAddUp && full.countsAddUp, "seed \(seed) run \(run)")
            if previous != nil { #expect(incremental.mode == .incremental) }
            previous = incremental
        }
    }

    static func firstDifference(_ a: Data?, _ b: Data?) -> String {
        let left = String(decoding: a ?? Data(), as: UTF8.self).split(separator: "\n")
        let right = String(decoding: b ?? Data(), as: UTF8.self).split(separator: "\n")
        for (x, y) in zip(left, right) where x != y { return "full:        \(x)\nincremental: \(y)" }
        return "line counts \(left.count) vs \(right.count)"
    }

    @Test func generatedScenarioSplitsIntoRunsMergeLikeAFullMerge() throws {
        // 60 seeded splits of a ~480-game, 4-league scenario over 2–4 runs.
        for seed in UInt64(1)...60 {
            var rng = SplitMix64(seed: seed &* 7919)
            let scenario = try ScenarioGenerator.make(seed: seed, runs: Int.random(in: 2...4, using: &rng))
            try Self.checkIncrementalEqualsFull(scenario, seed: seed, compareBytes: seed <= 5)
        }
    }

    @Test func generatedScenarioExercisesEveryRule() throws {
        // The property test is only as good as its data: the generated set hits every outcome.
        let scenario = try ScenarioGenerator.make(seed: 42, runs: 3)
        let result = try Merger.merge(scenario.fullInput)
        let games = try #require(result.counts(.games))
        #expect(games.applied > 0 && games.skippedOlder > 0 && games.skippedIncompatible > 0 && games.rejected > 0)
        #expect(games.deprecated > 0 && games.replaced > 0)
        #expect(result.counts(.teams)!.rejected > 0 && result.counts(.stadiums)!.skippedIncompatible > 0)
        #expect(result.counts(.leagueStructures)!.rejected > 0 && result.counts(.sports)!.rejected > 0)
        #expect(!result.conflicts.isEmpty)
        #expect(result.overrideOutcomes.contains { $0.status == .unmatched })
        #expect(result.overrideOutcomes.contains { $0.status == .applied })
        #expect(result.store.sports["xfl"]?.isActive == false && result.store.sports["xfl"]?.colorHex == "#000000")
        // And an incremental run skips work below the mark.
        let first = try Merger.merge(scenario.input(upToRun: 2))
        var input = scenario.fullInput
        input.previous = PreviousMerge(store: first.store, highWater: Self.highWater(first))
        let incremental = try Merger.merge(input)
        #expect(incremental.counts(.games)!.skippedBelowMark > 0)
    }

    @Test func realRetrosheetDataSplitsMergeLikeAFullMerge() throws {
        // Real schedules: 2020 original and revised (one system and scope) and 2023 from two systems
        // (a second, higher-priority feed re-times some games), split at random over 2–3 runs.
        let reference = RetrosheetFixture.reference
        let season2020 = try RetrosheetFixture.season2020()
        let scraped2023 = T.instant("2023-02-01T00:00:00Z")
        let games2023 = try RetrosheetFixture.games(file: "2023SKED.TXT", source: "retrosheet-2023", scrapedAt: scraped2023)
        var second2023: [Game] = []
        var rng = SplitMix64(seed: 2023)
        let retrosheetIds = Set(games2023.map(\.id))
        for (index, game) in games2023.enumerated() where index % 3 != 0 {
            var copy = game
            copy.source = "mlb-feed"; copy.sourceIds = ["mlb-feed": "\(700_000 + index)"]; copy.lastModified = scraped2023
            // Every 11th game the feed dates a day later (where that date is free): matched across dates.
            if index % 11 == 1 {
                let later = copy.localDate.adding(days: 1)
                let id = Game.makeId(
                    sport: "mlb", season: copy.season, localDate: later, awayTeamId: copy.awayTeamId,
                    homeTeamId: copy.homeTeamId, gameNumber: copy.gameNumber)
                if !retrosheetIds.contains(id) { copy.localDate = later; copy.id = id }
            }
            copy.startUTC = Instant(utc: copy.localDate, hour: [17, 23, 0].randomElement(using: &rng)!)
            copy.startKnowledge = .exact
            second2023.append(copy)
        }
        let batches =
            season2020 + [
                T.batch(source: "retrosheet-2023", system: "retrosheet", scope: "mlb-2023", scrapedAt: scraped2023, games: games2023),
                T.batch(source: "mlb-feed", system: "mlb-feed", scope: "mlb-2023", scrapedAt: scraped2023, priority: 2, games: second2023),
            ]
        for seed in UInt64(1)...3 {
            var rng = SplitMix64(seed: seed)
            let runs = Int.random(in: 2...3, using: &rng)
            var scenario = Scenario(runs: runs)
            scenario.batches = batches.map { ($0, Int.random(in: 1...runs, using: &rng)) }
            scenario.stadiums = reference.stadiums.map { .init(record: $0, arrival: Int.random(in: 1...runs, using: &rng)) }
            scenario.teams = reference.teams.map { .init(record: $0, arrival: Int.random(in: 1...runs, using: &rng)) }
            try Self.checkIncrementalEqualsFull(scenario, seed: seed, compareBytes: seed == 1)
        }
        let full = try Merger.merge(MergeInput(reference: reference, gameBatches: batches))
        #expect((full.conflictSummary?.matchedAcrossDates ?? 0) > 30)
    }
}
