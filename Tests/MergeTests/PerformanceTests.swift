import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// Merging ~10,000 games at once, and the real Retrosheet seasons: every game comes out once, and the
/// outputs encode. How long it takes is measured by `make bench` (bench/run.sh), not here.
@Suite struct PerformanceTests {
    @Test func mergesTenThousandGames() throws {
        // Real 2020 (original + revised) and 2023 Retrosheet schedules plus a second 2023 feed: ~8,600
        // records, ~5,700 games; and the generated four-league set at 2,500 games per league.
        let scenario = try ScenarioGenerator.make(seed: 5, gamesPerLeague: 2_500, runs: 1)
        let input = scenario.fullInput
        let records = input.gameBatches.reduce(0) { $0 + $1.records.count }
        let clock = ContinuousClock()
        var result: MergeResult?
        let elapsed = try clock.measure { result = try Merger.merge(input) }
        let encoded = try clock.measure { _ = try T.outputs(result!, input) }
        let games = result!.store.games.count
        print("merge: \(games) games from \(records) game records folded in \(elapsed), outputs encoded in \(encoded)")
        #expect(games >= 9_000)

        // The real Retrosheet schedules (2020 original + revised, 2023): 5,760 records.
        var real = try RetrosheetFixture.season2020()
        let scraped = T.instant("2023-02-01T00:00:00Z")
        real.append(
            T.batch(
                source: "retrosheet-2023", scope: "mlb-2023", scrapedAt: scraped,
                games: try RetrosheetFixture.games(file: "2023SKED.TXT", source: "retrosheet-2023", scrapedAt: scraped)))
        let realInput = MergeInput(reference: RetrosheetFixture.reference, gameBatches: real)
        var realResult: MergeResult?
        let realElapsed = try clock.measure { realResult = try Merger.merge(realInput) }
        let realEncoded = try clock.measure { _ = try T.outputs(realResult!, realInput) }
        print("merge: real Retrosheet \(realResult!.store.games.count) games folded in \(realElapsed), outputs encoded in \(realEncoded)")
    }
}
