import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimePlan

/// The search state a request implies is bounded at plan's entry, before any search is built.
@Suite struct PlanBudgetTests {
    /// `count` NBA games at TD Garden over the week of 2026-01-10, each its own id.
    static func week(_ count: Int) -> PlanCatalog {
        Synthetic.catalog(
            (0..<count).map { index in
                Synthetic.game(at: "td-garden", "2026-01-\(10 + index % 7) 19:00", home: "bos", away: "t\(index)")
            })
    }

    @Test func aRequestOverAHugeWeekIsRefusedWithWhatToNarrow() throws {
        let request = Synthetic.request(["nba"], "2026-01-10", "2026-01-16", from: "td-garden")
        let location = SourceLocation(path: "fixtures/requests/test.yaml", line: 4, column: 12)
        let refusal = try #require(PlanBudget.check(request, catalog: Self.week(5_000)) { location })
        let (candidates, bytes) = PlanBudget.estimate(request, catalog: Self.week(5_000))
        #expect(candidates == 5_000)
        #expect(bytes > PlanBudget.bytes)
        #expect(
            refusal.description
                == "fixtures/requests/test.yaml:4:12: error: request 'test' has 5000 candidate games between 2026-01-10 and 2026-01-16, about \(bytes >> 20) MiB of search state, more than the planner's budget of 256 MiB. Narrow the request: fewer dates (firstDate, lastDate), fewer sports, or homeTeams for one region's teams."
        )
        // Games the request cannot attend (another sport, another home team) are not counted.
        let narrowed = Synthetic.request(["nba"], "2026-01-10", "2026-01-16", from: "td-garden") { $0.homeTeamIds = ["nba-nyk"] }
        #expect(PlanBudget.estimate(narrowed, catalog: Self.week(5_000)).candidates == 0)
        #expect(
            PlanBudget.estimate(Synthetic.request(["nhl"], "2026-01-10", "2026-01-16", from: "td-garden"), catalog: Self.week(100))
                .candidates == 0)
    }

    @Test func aRequestUnderTheBudgetPasses() {
        let request = Synthetic.request(["nba"], "2026-01-10", "2026-01-16", from: "td-garden")
        #expect(PlanBudget.check(request, catalog: Self.week(500)) { SourceLocation(path: "x.yaml", line: 1) } == nil)
    }
}
