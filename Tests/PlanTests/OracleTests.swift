import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimePlan

/// The planner against exhaustive search on many small random instances cut from the real schedules.
@Suite struct OracleTests {
    /// Enough instances to meet every feature (must-see, required stadiums, two games a day, rest days,
    /// an end, tight caps) many times; each is reproducible from its seed.
    static let seeds: [UInt64] = Array(1...300)

    @Test(arguments: [Objective.mostGames, .mostStadiums, .leastDriving])
    func exactSearchEqualsExhaustiveSearch(objective: Objective) throws {
        var compared = 0, withTrips = 0, multiGame = 0
        var features: [String: Int] = [:]
        for seed in Self.seeds {
            let offset = UInt64(Objective.allCases.firstIndex(of: objective)!) * 1_000
            guard var instance = Instances.make(seed: seed &+ offset) else { continue }
            instance.request.objective = objective
            if objective == .leastDriving, instance.request.mustSeeGameIds.isEmpty, instance.request.requiredStadiumIds.isEmpty {
                continue
            }
            let graph = TripGraph(request: instance.request, catalog: instance.catalog)
            let planning = Planning(request: instance.request, catalog: instance.catalog)
            let outcome = planning.search(graph)
            let everyTrip = Oracle.all(graph: graph, objective: objective)
            let oracle = everyTrip.first
            compared += 1
            // k best: for additive objectives the pool is exactly the best trips, in order.
            if objective != .mostStadiums {
                let k = instance.request.candidatePool
                #expect(outcome.keys == Array(everyTrip.prefix(k).map(\.key)),
                        "seed \(instance.seed) \(objective): pool keys differ from the \(k) best of \(everyTrip.count) trips")
            }
            #expect(outcome.isExact, "seed \(instance.seed): small instances must be solved exactly")
            #expect(outcome.keys.first == oracle?.key,
                    "seed \(instance.seed) \(objective): planner \(String(describing: outcome.keys.first)) vs exhaustive \(String(describing: oracle?.key)) (oracle path \(oracle?.path ?? []))")
            if oracle != nil { withTrips += 1 }
            if let oracle, oracle.path.count >= 2 { multiGame += 1 }
            if !instance.request.mustSeeGameIds.isEmpty { features["mustSee", default: 0] += 1 }
            if !instance.request.requiredStadiumIds.isEmpty { features["required", default: 0] += 1 }
            if instance.request.maxGamesPerDay > 1 { features["twoPerDay", default: 0] += 1 }
            if instance.request.restDays > 0 { features["restDays", default: 0] += 1 }
            if instance.request.end != nil { features["end", default: 0] += 1 }
            // The plan written out attends what the search found (no stops are needed here).
            if instance.request.requiredStadiumIds.isEmpty, let oracle {
                let plan = TripPlanner.plan(instance.request, catalog: instance.catalog)
                let best = try #require(plan.options.first, "seed \(instance.seed): no option although a trip exists")
                #expect(best.isProvenOptimal)
                #expect(!plan.warnings.contains { $0.contains("could not be laid out") }, "seed \(instance.seed): the search and the layout disagree")
                switch objective {
                case .mostGames: #expect(Int64(best.score.games) == oracle.key.primary)
                case .mostStadiums: #expect(Int64(best.score.distinctStadiums) == oracle.key.primary)
                case .leastDriving: #expect(abs(best.score.drivingHours - Double(-oracle.key.primary) / 3600) < 0.006)
                }
            }
        }
        #expect(compared >= 200)
        #expect(withTrips >= 120)
        #expect(multiGame >= (objective == .leastDriving ? 15 : 60), "too few instances with trips of two or more games: \(multiGame)")
        for feature in ["mustSee", "required", "twoPerDay", "restDays", "end"] {
            #expect(features[feature, default: 0] >= 20, "feature \(feature) met only \(features[feature, default: 0]) times")
        }
    }

    @Test func exactNeverLosesToBeam() {
        var compared = 0
        for seed in Self.seeds {
            guard var instance = Instances.make(seed: seed &+ 10_000, maxGames: 14) else { continue }
            instance.request.objective = .mostStadiums
            let graph = TripGraph(request: instance.request, catalog: instance.catalog)
            for width in [1, 2, 8] {
                let beam = LabelSearch(graph: graph, objective: .mostStadiums, mode: .beam(width: width), poolSize: 1, labelBudget: 1_000_000)
                beam.run()
                let exact = LabelSearch(graph: graph, objective: .mostStadiums, mode: .exact, poolSize: 1, labelBudget: 1_000_000)
                exact.run()
                #expect(exact.isExhausted)
                if let b = beam.pool.first?.key {
                    #expect(exact.pool.first.map { $0.key >= b } == true, "seed \(seed) width \(width): beam beat exact")
                }
                compared += 1
            }
        }
        #expect(compared >= 300)
    }

    @Test func budgetExhaustedIsMarkedHeuristicWithAValidBound() throws {
        var checked = 0
        for seed in Self.seeds.prefix(200) {
            guard var instance = Instances.make(seed: seed &+ 20_000, maxGames: 14, requiredAllowed: false) else { continue }
            instance.request.objective = .mostStadiums
            instance.request.mustSeeGameIds = []
            let exact = TripPlanner.plan(instance.request, catalog: instance.catalog)
            guard let optimum = exact.options.first?.score.distinctStadiums, optimum >= 3 else { continue }
            var tight = instance.request
            tight.search.labelBudget = 1
            let heuristic = TripPlanner.plan(tight, catalog: instance.catalog)
            #expect(heuristic.search.isExact == false)
            #expect(heuristic.search.method.hasPrefix("beam"))
            let bound = try #require(heuristic.search.upperBound)
            #expect(bound >= Double(optimum), "seed \(seed): bound \(bound) below the optimum \(optimum)")
            #expect(heuristic.options.allSatisfy { !$0.isProvenOptimal })
            #expect(heuristic.warnings.contains { $0.contains("budget") && $0.contains("ratio") })
            checked += 1
        }
        #expect(checked >= 10)
    }
}
