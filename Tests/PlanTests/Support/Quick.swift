import Foundation
import SportsTimeCore
@testable import SportsTimePlan

/// Small helpers to build requests in tests.
enum Quick {
    static func date(_ text: String) -> LocalDate { LocalDate(iso8601: text)! }

    static func place(_ stadiumId: String, in catalog: PlanCatalog = RealData.shared) -> TravelPlace {
        TravelPlace(stadium: catalog.stadium(stadiumId)!)
    }

    static func request(
        _ sports: [String], _ first: String, _ last: String, from start: String,
        objective: Objective = .mostGames, catalog: PlanCatalog = RealData.shared,
        configure: (inout PlanRequest) -> Void = { _ in }
    ) -> PlanRequest {
        var r = PlanRequest(
            id: "test", title: "test", sports: sports, firstDate: date(first), lastDate: date(last),
            start: place(start, in: catalog), objective: objective)
        configure(&r)
        return r
    }
}
