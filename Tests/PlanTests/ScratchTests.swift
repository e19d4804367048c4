import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimePlan
@Test func scratchSummaries() throws {
    for id in ["mlb-boston-june-week", "northeast-winter-nba-nhl", "mlb-must-see-pair", "nba-coast-to-coast-infeasible", "mlb-midwest-most-stadiums", "mls-2025-cascadia"] {
        let plan = try CommittedRequestsTests.plan(id)
        print("DBG ==", id, plan.search, plan.warnings, plan.infeasibility ?? "")
        for o in (plan.options + (plan.branches ?? [])) {
            print("DBG  #\(o.rank) games \(o.score.games) stadiums \(o.score.distinctStadiums) drive \(o.score.drivingHours) h rest \(o.score.restDays) slack \(o.score.minSlackHours) proven \(o.isProvenOptimal) \(o.warnings)")
            print("DBG    ", o.visits.map { "\($0.localDate) \($0.localTime ?? "TBD") \($0.stadiumId)" }.joined(separator: " | "))
            print("DBG    ", o.legs.map { "\($0.fromName)->\($0.toName) \($0.departLocal)..\($0.arriveLocal)" }.joined(separator: " | "))
            if let s = o.stops { print("DBG     stops", s.map { "\($0.stadiumId) \($0.visitStartLocal)" }) }
        }
    }
}
