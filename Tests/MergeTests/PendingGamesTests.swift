import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// Games a source declares the season has but does not list yet (`expectedGames`) are counted per team
/// in the merge report, not silently absent.
@Suite struct PendingGamesTests {
    let reference = T.reference(teams: ["mlb-bos", "mlb-nyy", "mlb-bal", "mlb-tor"])
    let scraped = T.instant("2023-03-01T00:00:00Z")

    /// Four teams that each should play 3 games (6 in all); the source lists 4, each team in 2 of them, and a
    /// fifth that was cancelled (not a game to plan on).
    func merged(expecting perTeam: Int?) throws -> MergeResult {
        let games = [
            T.game(date: "2023-04-01", away: "mlb-nyy", home: "mlb-bos", source: "s", lastModified: scraped),
            T.game(date: "2023-04-02", away: "mlb-bal", home: "mlb-tor", source: "s", lastModified: scraped),
            T.game(date: "2023-04-03", away: "mlb-bal", home: "mlb-bos", source: "s", lastModified: scraped),
            T.game(date: "2023-04-04", away: "mlb-tor", home: "mlb-nyy", source: "s", lastModified: scraped),
            T.game(date: "2023-04-05", away: "mlb-tor", home: "mlb-bos", status: .cancelled, source: "s", lastModified: scraped),
        ]
        var batch = T.batch(source: "s", scrapedAt: scraped, games: games)
        batch.origin.expectedGames = perTeam.map { ExpectedGames(perTeam: $0, reason: "two games set later") }
        return try Merger.merge(MergeInput(reference: reference, gameBatches: [batch]))
    }

    @Test func theMissingGamesAreCountedPerTeam() throws {
        let pending = try merged(expecting: 3).pendingGames
        #expect(
            pending == [
                MergePendingGames(
                    source: "s", sport: "mlb", season: "2023", perTeam: 3, expected: 6, listed: 4,
                    teams: ["mlb-bal": 1, "mlb-bos": 1, "mlb-nyy": 1, "mlb-tor": 1], reason: "two games set later")
            ])
        #expect(pending.first?.pending == 2 && pending.first?.id == "pending:mlb-2023")
    }

    @Test func nothingIsPendingWithoutADeclarationOrWhenEveryGameIsListed() throws {
        #expect(try merged(expecting: nil).pendingGames.isEmpty)
        #expect(try merged(expecting: 2).pendingGames.isEmpty)
    }
}
