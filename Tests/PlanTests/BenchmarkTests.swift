import Foundation
import SportsTimeTestSupport
import Testing
import SportsTimeCore
@testable import SportsTimePlan

/// The planner's targets (docs/design.md §8), measured on the real fixtures. Runs only with `PLAN_BENCH=1`;
/// meaningful in release: `PLAN_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter BenchmarkTests`.
/// Times are CPU time of the planning thread (the machine may be shared), median of several runs.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAN_BENCH"] == "1"), .serialized)
struct BenchmarkTests {
    static func cpu() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Median CPU milliseconds of `runs` calls.
    static func measure(runs: Int = 7, _ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = cpu()
            body()
            times.append((cpu() - start) * 1000)
        }
        return times.sorted()[times.count / 2]
    }

    static func report(_ line: String) { print("PLAN-BENCH \(line)") }

    static let allLeagues = ["mlb", "nba", "nhl", "nfl", "mls", "wnba", "nwsl"]

    @Test func exactFourteenDayMostGamesOverAllLeagues() throws {
        let catalog = RealData.shared
        for (first, last, start) in [
            ("2025-10-06", "2025-10-19", "madison-square-garden"), ("2026-01-05", "2026-01-18", "madison-square-garden"),
            ("2026-03-02", "2026-03-15", "united-center"),
        ] {
            let request = Quick.request(Self.allLeagues, first, last, from: start) { $0.maxGamesPerDay = 2 }
            var graph: TripGraph!
            let build = Self.measure { graph = TripGraph(request: request, catalog: catalog) }
            let planning = Planning(request: request, catalog: catalog)
            var outcome: SearchOutcome!
            let exact = Self.measure {
                var search = LabelSearch(graph: graph, .init(objective: .mostGames, labelBudget: .max))
                search.run()
            }
            let kBest = Self.measure { outcome = planning.search(graph) }
            var plan: TripPlan!
            let full = Self.measure { plan = TripPlanner.plan(request, catalog: catalog) }
            #expect(outcome.isExact && plan.options.first?.isProvenOptimal == true)
            Self.report(
                "most games 14 days \(first)…\(last) all leagues: \(graph.count) games, \(plan.search.arcs) arcs; "
                    + "graph \(String(format: "%.1f", build)) ms + exact optimum \(String(format: "%.1f", exact)) ms "
                    + "(k-best pool of \(request.candidatePool): \(String(format: "%.1f", kBest)) ms); whole plan with 3 distinct options "
                    + "\(String(format: "%.1f", full)) ms; best \(plan.options[0].score.games) games")
            #expect(build + exact < 100, "exact 14-day most-games must take < 100 ms")
        }
    }

    @Test func exactTenDayThreeLeagueMostStadiums() throws {
        let catalog = RealData.shared
        for (first, last, start) in [
            ("2025-10-09", "2025-10-18", "madison-square-garden"), ("2025-10-09", "2025-10-18", "united-center"),
            ("2025-10-09", "2025-10-18", "cryptocom-arena"),
        ] where catalog.stadium(start) != nil {
            let request = Quick.request(["nba", "nhl", "mls"], first, last, from: start, objective: .mostStadiums)
            var plan: TripPlan!
            let full = Self.measure(runs: 5) { plan = TripPlanner.plan(request, catalog: catalog) }
            let graph = TripGraph(request: request, catalog: catalog)
            let exact = Self.measure(runs: 5) {
                var search = LabelSearch(graph: graph, .init(objective: .mostStadiums, labelBudget: request.search.labelBudget))
                search.run()
            }
            #expect(plan.search.isExact)
            Self.report(
                "most stadiums 10 days \(first)…\(last) nba+nhl+mls from \(start): \(plan.search.candidateGames) games, "
                    + "\(plan.search.labelsExpanded) labels; exact optimum \(String(format: "%.1f", exact)) ms, whole plan "
                    + "\(String(format: "%.1f", full)) ms; best \(plan.options[0].score.distinctStadiums) stadiums (\(plan.search.method))")
            #expect(full < 1000)
        }
    }

    /// Beyond the target: a longer, denser most-stadiums window, to show where exactness ends.
    @Test func stressFourteenDayTwoLeagueMostStadiums() throws {
        let catalog = RealData.shared
        for (first, last, start) in [("2026-01-09", "2026-01-22", "united-center"), ("2026-03-02", "2026-03-15", "madison-square-garden")] {
            let request = Quick.request(["nba", "nhl"], first, last, from: start, objective: .mostStadiums)
            var plan: TripPlan!
            let full = Self.measure(runs: 3) { plan = TripPlanner.plan(request, catalog: catalog) }
            let bound = plan.search.upperBound.map { ", proven bound \(Int($0))" } ?? ""
            Self.report(
                "stress: most stadiums 14 days \(first)…\(last) nba+nhl from \(start): \(plan.search.candidateGames) games; "
                    + "\(plan.search.method), exact \(plan.search.isExact), \(plan.search.labelsExpanded) labels expanded, "
                    + "\(String(format: "%.0f", full)) ms; best \(plan.options.first?.score.distinctStadiums ?? 0) stadiums\(bound)")
            #expect(!plan.options.isEmpty)
        }
    }

    @Test func aHundredRequestsOverASeason() throws {
        let catalog = RealData.shared
        var rng = SplitMix64(seed: 7)
        let stadiums = catalog.stadiums.filter { Landmass.of(zone: $0.timeZone) == "North America" }.map(\.id)
        var requests: [PlanRequest] = []
        let seasons: [([String], String, String)] = [(["mlb"], "2023-04-01", "2023-09-24"), (["nba", "nhl"], "2025-10-22", "2026-04-05")]
        for i in 0..<100 {
            let (sports, a, b) = seasons[i % 2]
            let first = LocalDate(iso8601: a)!.adding(
                days: Int.random(in: 0...LocalDate(iso8601: a)!.days(until: LocalDate(iso8601: b)!), using: &rng))
            let objective: Objective = [
                .mostGames, .mostGames, .mostGames, .mostGames, .mostGames, .mostGames, .mostStadiums, .mostStadiums, .mostStadiums,
                .leastDriving,
            ][i % 10]
            var request = Quick.request(
                sports, first.iso8601, first.adding(days: 6).iso8601,
                from: stadiums[Int.random(in: 0..<stadiums.count, using: &rng)], objective: objective)
            if objective == .leastDriving || Int.random(in: 0..<5, using: &rng) == 0 {
                let games = catalog.games(from: request.firstDate, through: request.lastDate).filter { sports.contains($0.sport) }
                request.mustSeeGameIds = [games[Int.random(in: 0..<games.count, using: &rng)].id]
            }
            requests.append(request)
        }
        var plans: [TripPlan] = []
        let total = Self.measure(runs: 3) { plans = requests.map { TripPlanner.plan($0, catalog: catalog) } }
        let exact = plans.filter(\.search.isExact).count, feasible = plans.filter { !$0.options.isEmpty }.count
        Self.report(
            "100 one-week requests over MLB 2023 and NBA/NHL 2025-26 (60 most games, 30 most stadiums, 10 least driving): "
                + "\(String(format: "%.0f", total)) ms in all; \(exact) exact, \(feasible) with trips")
        #expect(total < 5000)
        #expect(exact == 100)
    }
}
