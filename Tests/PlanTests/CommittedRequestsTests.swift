import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimePlan

/// The committed requests in `fixtures/requests` decode strictly, and those whose sports the test
/// fixtures hold (MLB 2023, NBA/NHL 2025-26, MLS 2025) resolve and plan as their comments say.
@Suite struct CommittedRequestsTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/requests")

    static func files() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    static func plan(_ id: String) throws -> TripPlan {
        let url = directory.appendingPathComponent("\(id).yaml")
        let request = try RequestResolver.resolve(
            text: try String(contentsOf: url, encoding: .utf8),
            path: "fixtures/requests/\(id).yaml", catalog: RealData.shared)
        return TripPlanner.plan(request, catalog: RealData.shared)
    }

    @Test func everyRequestDecodesStrictlyAndIsNamedAfterItsFile() throws {
        let files = Self.files()
        #expect(files.count >= 9)
        var sports = Set<String>(), objectives = Set<String>()
        for url in files {
            let path = "fixtures/requests/\(url.lastPathComponent)"
            let file = try StrictYAML.decode(RequestFile.self, from: try String(contentsOf: url, encoding: .utf8), path: path)
            #expect(file.id == url.deletingPathExtension().lastPathComponent)
            sports.formUnion(file.sports)
            objectives.insert(file.objective ?? "mostGames")
        }
        #expect(sports.isSuperset(of: ["mlb", "nba", "nhl", "nfl", "mls", "wnba", "ufl"]))
        #expect(objectives == ["mostGames", "mostStadiums", "leastDriving"])
    }

    @Test func requestsOfTheFixtureSportsResolve() throws {
        let known: Set<String> = ["mlb", "nba", "nhl", "mls"]
        var resolved = 0
        for url in Self.files() {
            let text = try String(contentsOf: url, encoding: .utf8)
            let file = try StrictYAML.decode(RequestFile.self, from: text, path: url.lastPathComponent)
            guard Set(file.sports).isSubset(of: known) else { continue }
            _ = try RequestResolver.resolve(text: text, path: "fixtures/requests/\(url.lastPathComponent)", catalog: RealData.shared)
            resolved += 1
        }
        #expect(resolved >= 6)
    }

    @Test func theBostonWeekAndTheNortheastWeekHaveTrips() throws {
        let boston = try Self.plan("mlb-boston-june-week")
        #expect(boston.options.count == 3)
        // The Red Sox are away all week and the trip must be back in Boston by 22:00 on the last day.
        // Retrosheet flags Sunday's games as day games, laid out from 13:10: the last day's game ends in
        // time to drive back, so seven games (six while every start was assumed at 19:00).
        let last = try #require(boston.options[0].visits.last)
        #expect(
            boston.options[0].score.games == 7 && boston.options[0].isProvenOptimal,
            "\(boston.options[0].visits.map { "\($0.gameId) \($0.assumedLocalTime ?? "-")" })")
        #expect(last.localDate == Quick.date("2023-06-11") && last.startKnowledge == .day && last.assumedLocalTime == "13:10")
        #expect(boston.options[0].legs.last?.toName == "Boston, MA")
        let northeast = try Self.plan("northeast-winter-nba-nhl")
        let best = try #require(northeast.options.first)
        #expect(best.isProvenOptimal)
        #expect(best.score.games >= 7)
        #expect(Set(best.visits.map(\.sport)) == ["nba", "nhl"])
        #expect(best.days.allSatisfy { $0.drivingHours <= 7 })
    }

    @Test func theMustSeePairIsAttended() throws {
        let plan = try Self.plan("mlb-must-see-pair")
        let best = try #require(plan.options.first)
        #expect(best.score.mustSeeCovered == 2)
        #expect(best.visits.contains { $0.stadiumId == "citizens-bank-park" })
    }

    @Test func theInfeasibleRequestNamesItsConstraint() throws {
        let plan = try Self.plan("nba-coast-to-coast-infeasible")
        #expect(plan.options.isEmpty)
        #expect(plan.infeasibility?.contains("km apart") == true)
        #expect(plan.conflicts.count == 2)
        // Knicks + Celtics is a branch; the Lakers alone cannot be reached from New York in time either.
        let branches = try #require(plan.branches)
        #expect(branches.count == 1)
        #expect(
            Set(branches[0].visits.filter(\.isMustSee).map(\.gameId)) == [
                "nba-2025-26-2026-02-04-den-at-nyk", "nba-2025-26-2026-02-06-mia-at-bos",
            ])
    }

    @Test func mostStadiumsAndStopsPlan() throws {
        let midwest = try Self.plan("mlb-midwest-most-stadiums")
        #expect(midwest.search.method.steps == [.exactTargetFirst] && midwest.search.tieBreakExact == true)
        #expect(midwest.options.first?.isProvenOptimal == true)
        let cascadia = try Self.plan("mls-2025-cascadia")
        let best = try #require(cascadia.options.first)
        #expect(best.stops?.map(\.stadiumId) == ["lumen-field"])
        #expect(Set(best.visits.map(\.stadiumId)).isSuperset(of: ["providence-park", "bc-place"]))
    }
}
