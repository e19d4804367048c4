import Foundation
import SportsTimeTestSupport
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
                #expect(
                    outcome.keys == Array(everyTrip.prefix(k).map(\.key)),
                    "seed \(instance.seed) \(objective): pool keys differ from the \(k) best of \(everyTrip.count) trips")
            }
            #expect(outcome.isExact, "seed \(instance.seed): small instances must be solved exactly")
            if objective == .mostStadiums {
                #expect(outcome.tieBreakExact == true, "seed \(instance.seed): the tie-break of a small instance must be proven")
            }
            #expect(
                outcome.keys.first == oracle?.key,
                "seed \(instance.seed) \(objective): planner \(String(describing: outcome.keys.first)) vs exhaustive \(String(describing: oracle?.key)) (oracle path \(oracle?.path ?? []))"
            )
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
                #expect(
                    !plan.warnings.contains { $0.contains("could not be laid out") },
                    "seed \(instance.seed): the search and the layout disagree")
                switch objective {
                case .mostGames: #expect(Int64(best.score.games) == oracle.key.primary)
                case .mostStadiums: #expect(Int64(best.score.distinctStadiums) == oracle.key.primary)
                case .leastDriving: #expect(abs(best.score.drivingHours - Double(-oracle.key.primary) / 3600) < 0.006)
                case .fewestDays: break
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

    /// The shortest window (first day to last) in which some trip attends a game at every required stadium,
    /// by exhaustive search of every window's trips; nil when no window of the request holds one.
    static func exhaustiveFewestDays(_ request: PlanRequest, catalog: PlanCatalog) -> Int? {
        let season = request.firstDate.days(until: request.lastDate) + 1
        for length in 1...season {
            for offset in 0...(season - length) {
                var window = request
                window.objective = .mostStadiums
                window.firstDate = request.firstDate.adding(days: offset)
                window.lastDate = window.firstDate.adding(days: length - 1)
                let graph = TripGraph(request: window, catalog: catalog)
                guard graph.requiredStops.isEmpty else { continue }
                let required = request.requiredStadiumIds.count
                if Oracle.all(graph: graph, objective: .mostStadiums).contains(where: { $0.key.coverage == required }) { return length }
            }
        }
        return nil
    }

    /// Fewest days against every window: the shortest window (first day to last) in which some trip
    /// attends a game at every required stadium, found by exhaustive search of each window's trips.
    /// Under the default rules and under record rules (two games a day, 24 h of driving at any hour).
    @Test(arguments: [false, true]) func fewestDaysEqualsExhaustiveWindowSearch(recordRules: Bool) throws {
        var compared = 0, found = 0
        for seed in Self.seeds.prefix(150) {
            guard var instance = Instances.make(seed: seed &+ 30_000, maxGames: 9, requiredAllowed: false) else { continue }
            instance.request.mustSeeGameIds = []
            if recordRules { RecordRulesTests.recordRules(&instance.request) }
            let stadiums = Array(Set(instance.catalog.games.map(\.stadiumId))).sorted()
            guard stadiums.count >= 2 else { continue }
            var rng = SplitMix64(seed: seed)
            let count = min(stadiums.count, Int.random(in: 2...3, using: &rng))
            instance.request.requiredStadiumIds = Array(stadiums.shuffled(using: &rng).prefix(count)).sorted()
            instance.request.objective = .fewestDays
            let shortest = Self.exhaustiveFewestDays(instance.request, catalog: instance.catalog)
            let plan = TripPlanner.plan(instance.request, catalog: instance.catalog)
            compared += 1
            if let bound = plan.search.lowerBound, let shortest {
                #expect(bound <= Double(shortest), "seed \(seed): lower bound \(bound) above the exhaustive \(shortest) days")
            }
            if let best = plan.options.first, best.isProvenOptimal {
                #expect(plan.search.isExact)
            }
            // A window the search accepted but the layout could not lay out is never claimed.
            if plan.warnings.contains(where: { $0.contains("could not be laid out") }) {
                #expect(!plan.search.isExact && plan.options.allSatisfy { !$0.isProvenOptimal }, "seed \(seed)")
            }
            guard plan.search.isExact else { continue }
            if let shortest {
                found += 1
                let best = try #require(plan.options.first, "seed \(seed): no option although \(shortest) days suffice")
                #expect(best.score.total == Double(shortest), "seed \(seed): planner \(best.score.total) days vs exhaustive \(shortest)")
                #expect(best.isProvenOptimal)
                #expect(Set(best.visits.map(\.stadiumId)).isSuperset(of: instance.request.requiredStadiumIds))
            } else {
                #expect(plan.options.isEmpty, "seed \(seed): an option although no window holds every required stadium")
            }
        }
        #expect(compared >= 60)
        #expect(found >= 10)
    }

    /// The stadium-gap bound never exceeds the exhaustive fewest days, and on these instances it often says
    /// more than the games a day alone (⌈required / maxGamesPerDay⌉).
    @Test func theStadiumGapBoundIsAtMostTheExhaustiveFewestDays() throws {
        var compared = 0, bites = 0
        for seed in Self.seeds.prefix(300) {
            guard var instance = Instances.make(seed: seed &+ 90_000, maxGames: 9, requiredAllowed: false) else { continue }
            instance.request.mustSeeGameIds = []
            let all = Array(Set(instance.catalog.games.map(\.stadiumId))).sorted()
            guard all.count >= 2 else { continue }
            var rng = SplitMix64(seed: seed)
            let stadiums = Array(all.shuffled(using: &rng).prefix(Int.random(in: 2...3, using: &rng))).sorted()
            instance.request.requiredStadiumIds = stadiums
            let gaps = StadiumGaps(graph: TripGraph(request: instance.request, catalog: instance.catalog, horizonDays: 3)).days
            guard let shortest = Self.exhaustiveFewestDays(instance.request, catalog: instance.catalog) else { continue }
            compared += 1
            #expect(gaps <= shortest, "seed \(seed): gap bound \(gaps) above the exhaustive \(shortest) days")
            let perDay = max(1, instance.request.maxGamesPerDay)
            if gaps > (stadiums.count + perDay - 1) / perDay { bites += 1 }
        }
        #expect(compared >= 20)
        #expect(bites >= 5, "the gap bound said more than the games a day only \(bites) times")
    }

    /// `start: any` is the best of every start: its proven days equal the fewest over the trip starting at
    /// each stadium of the instance, and the plan starts at its first game's stadium.
    @Test func anyStartIsTheBestOfEveryStadiumAsTheStart() throws {
        var compared = 0
        for seed in Self.seeds.prefix(80) {
            guard var instance = Instances.make(seed: seed &+ 70_000, maxGames: 8, requiredAllowed: false) else { continue }
            instance.request.mustSeeGameIds = []
            let stadiums = Array(Set(instance.catalog.games.map(\.stadiumId))).sorted()
            guard stadiums.count >= 2 else { continue }
            var rng = SplitMix64(seed: seed)
            instance.request.requiredStadiumIds = Array(stadiums.shuffled(using: &rng).prefix(2)).sorted()
            instance.request.objective = .fewestDays
            var anywhere = instance.request
            anywhere.startsAnywhere = true
            let plan = TripPlanner.plan(anywhere, catalog: instance.catalog)
            var fewest: Double?
            var allProven = plan.search.isExact
            for stadium in stadiums {
                var fixed = instance.request
                fixed.start = TravelPlace(stadium: try #require(instance.catalog.stadium(stadium)))
                let other = TripPlanner.plan(fixed, catalog: instance.catalog)
                allProven = allProven && other.search.isExact
                if let days = other.options.first?.score.total { fewest = min(fewest ?? days, days) }
            }
            guard allProven else { continue }
            compared += 1
            #expect(plan.options.first?.score.total == fewest, "seed \(seed)")
            if let best = plan.options.first, let first = best.visits.first {
                #expect(plan.request.start.stadiumId == first.stadiumId, "seed \(seed)")
                #expect(plan.warnings.contains { $0.hasPrefix("start: any") }, "seed \(seed)")
            }
        }
        #expect(compared >= 30)
    }

    /// `SpanSearch` on every window of small instances (one game a day and two, rest days, must-see
    /// games) against exhaustive search of that window's trips: a trip exactly when one exists.
    @Test func spanSearchEqualsExhaustiveSearchOfEveryWindow() throws {
        var windows = 0, feasible = 0, plainMode = 0
        for seed in Self.seeds.prefix(100) {
            guard var instance = Instances.make(seed: seed &+ 50_000, maxGames: 8, requiredAllowed: false) else { continue }
            let stadiums = Array(Set(instance.catalog.games.map(\.stadiumId))).sorted()
            guard stadiums.count >= 2 else { continue }
            var rng = SplitMix64(seed: seed)
            instance.request.requiredStadiumIds = Array(stadiums.shuffled(using: &rng).prefix(Int.random(in: 2...3, using: &rng))).sorted()
            instance.request.objective = .mostStadiums
            if Bool.random(using: &rng) { instance.request.mustSeeGameIds = [] }
            var search = try #require(SpanSearch(graph: TripGraph(request: instance.request, catalog: instance.catalog)))
            guard search.graph.requiredStops.isEmpty else { continue }
            if !search.earliestArrival { plainMode += 1 }
            let season = instance.request.firstDate.days(until: instance.request.lastDate) + 1
            // Fewest days keeps every must-see game: only windows holding them all are compared.
            let mustSeeDays = search.graph.mustSeeOrder.map { search.day[$0] }
            for first in 0..<season {
                for last in first..<season where mustSeeDays.allSatisfy({ $0 >= first && $0 <= last }) {
                    var window = instance.request
                    window.firstDate = instance.request.firstDate.adding(days: first)
                    window.lastDate = instance.request.firstDate.adding(days: last)
                    let graph = TripGraph(request: window, catalog: instance.catalog)
                    let required = instance.request.requiredStadiumIds.count
                    let exists =
                        graph.requiredStops.isEmpty
                        && Oracle.all(graph: graph, objective: .mostStadiums).contains { $0.key.coverage == required }
                    let answer = search.solve(first: first, end: last, budget: .max)
                    windows += 1
                    switch answer {
                    case .found(let path):
                        feasible += 1
                        #expect(exists, "seed \(seed) days \(first)…\(last): a trip the exhaustive search does not have")
                        let stadiums = Set(path.map { search.graph.candidates[$0].game.stadiumId })
                        #expect(stadiums.isSuperset(of: instance.request.requiredStadiumIds))
                        #expect(path.allSatisfy { search.day[$0] >= first && search.day[$0] <= last })
                    case .refuted: #expect(!exists, "seed \(seed) days \(first)…\(last): refuted, but a trip exists")
                    case .outOfBudget: Issue.record("seed \(seed): out of an unlimited budget")
                    }
                }
            }
        }
        #expect(windows >= 300)
        #expect(feasible >= 25)
        #expect(plainMode >= 10)
    }

    @Test func exactNeverLosesToBeam() {
        var compared = 0
        for seed in Self.seeds {
            guard var instance = Instances.make(seed: seed &+ 10_000, maxGames: 14) else { continue }
            instance.request.objective = .mostStadiums
            let graph = TripGraph(request: instance.request, catalog: instance.catalog)
            for width in [1, 2, 8] {
                var beam = LabelSearch(graph: graph, .init(objective: .mostStadiums, mode: .beam(width: width), labelBudget: 1_000_000))
                beam.run()
                var exact = LabelSearch(graph: graph, .init(objective: .mostStadiums, labelBudget: 1_000_000))
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

    /// The longest-path bound walks a flattened copy of the graph, eight visited sets at a time; it must
    /// give what a walk over the graph's own arcs gives (games not useful and arcs not allowed skipped, a
    /// move new when it goes to another stadium not yet visited): for every label a search made, alone
    /// and with the other labels of its game, and for random visited sets in batches of every size from 1
    /// to 20, with and without excluded games.
    @Test func pathBoundEqualsAWalkOverTheGraphsArcs() throws {
        var labelsChecked = 0, randomChecked = 0, distinctValues = 0
        for seed in Self.seeds {
            guard var instance = Instances.make(seed: seed &+ 40_000, maxGames: 40) else { continue }
            instance.request.objective = .mostStadiums
            let graph = TripGraph(request: instance.request, catalog: instance.catalog)
            var random = SplitMix64(seed: seed)
            let excluded = seed % 2 == 0 ? nil : (0..<graph.count).map { _ in random.next() % 5 == 0 }
            var search = LabelSearch(
                graph: graph, .init(objective: .mostStadiums, poolSize: 2, labelBudget: 1_000_000, excluded: excluded))
            let useful = (0..<graph.count).map(search.isUseful)
            search.run()
            let byNode = Dictionary(grouping: search.labels.indices, by: { Int(search.labels[$0].node) })
            for (node, labels) in byNode {
                let expected = labels.map {
                    Self.newStadiumsByWalk(graph, useful: useful, visited: Array(search.set(of: $0)), from: node)
                }
                #expect(search.newStadiumsOnAnyPath(labels: labels, node: node) == expected, "seed \(seed): game \(node)")
                #expect(search.newStadiumsOnAnyPath(label: labels[0], node: node) == expected[0], "seed \(seed): game \(node)")
                labelsChecked += labels.count
                // Random visited sets at the same game, each stadium in a set with probability 1/2.
                let words = (graph.stadiumIds.count + 63) / 64
                let sets = (0..<(1 + Int(random.next() % 20))).map { _ in (0..<words).map { _ in random.next() } }
                let walked = sets.map { Self.newStadiumsByWalk(graph, useful: useful, visited: $0, from: node) }
                let batched = search.newStadiumsOnAnyPath(node: node, count: sets.count) { i, s in
                    sets[i][s / 64] & (1 << UInt64(s % 64)) != 0
                }
                #expect(batched == walked, "seed \(seed): game \(node), \(sets.count) random sets")
                randomChecked += sets.count
                distinctValues = max(distinctValues, Set(walked).count)
            }
        }
        #expect(labelsChecked >= 1_000)
        #expect(randomChecked >= 5_000)
        #expect(distinctValues >= 3)
    }

    /// The bound's definition, walked over `graph.arcs` as they are.
    static func newStadiumsByWalk(_ graph: TripGraph, useful: [Bool], visited: [UInt64], from node: Int) -> Int {
        var longest = [Int](repeating: -1, count: graph.count)
        for v in stride(from: graph.count - 1, through: node, by: -1) where useful[v] {
            var best = graph.mayFinish(at: v) && graph.endArcs[v] != nil ? 0 : -1
            for arc in graph.arcs[v] where graph.allowed(v, Int(arc.to)) && longest[Int(arc.to)] >= 0 {
                let (from, to) = (graph.candidates[v].stadiumBit, graph.candidates[Int(arc.to)].stadiumBit)
                let isNew = to != from && visited[to / 64] & (1 << UInt64(to % 64)) == 0
                best = max(best, longest[Int(arc.to)] + (isNew ? 1 : 0))
            }
            longest[v] = best
        }
        return max(0, longest[node])
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
            // With almost no budget the count is proven only when the root bound meets the beam's trip.
            if heuristic.search.isExact {
                #expect(heuristic.options.first?.score.distinctStadiums == optimum, "seed \(seed): proven count differs from the optimum")
                checked += 1
                continue
            }
            #expect(heuristic.search.method.steps.first == .beam)
            let bound = try #require(heuristic.search.upperBound)
            #expect(bound >= Double(optimum), "seed \(seed): bound \(bound) below the optimum \(optimum)")
            #expect(heuristic.options.allSatisfy { !$0.isProvenOptimal })
            #expect(heuristic.warnings.contains { $0.contains("budget") && $0.contains("ratio") })
            checked += 1
        }
        #expect(checked >= 10)
    }
}
