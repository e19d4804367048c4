import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimePlan

@Suite struct StopRouterTests {
    /// Drive seconds between random real stadiums, so the metric is the planner's own.
    func instance(_ seed: UInt64, stops: Int) -> (origin: [Int64], between: [[Int64]], destination: [Int64]) {
        var rng = SplitMix64(seed: seed)
        let model = TravelModel()
        let places = RealData.shared.stadiums.filter { Landmass.of(zone: $0.timeZone) == "North America" }
            .shuffled(using: &rng).prefix(stops + 2).map { TravelPlace(stadium: $0) }
        func cost(_ a: TravelPlace, _ b: TravelPlace) -> Int64 { model.drive(from: a, to: b)?.seconds ?? StopRouter.unreachable }
        let origin = places[0], destination = places[1], list = Array(places.dropFirst(2))
        return (list.map { cost(origin, $0) }, list.map { a in list.map { cost(a, $0) } }, list.map { cost($0, destination) })
    }

    func permutations(_ n: Int) -> [[Int]] {
        if n == 0 { return [[]] }
        return permutations(n - 1).flatMap { p in
            (0...p.count).map { i in
                var q = p; q.insert(n - 1, at: i); return q
            }
        }
    }

    @Test func heldKarpEqualsBruteForce() throws {
        for seed in 1...40 as ClosedRange<UInt64> {
            let n = Int(seed % 6) + 1
            let m = instance(seed, stops: n)
            for destination in [m.destination, nil] {
                let route = try #require(
                    StopRouter.order(
                        stops: n, fromOrigin: m.origin, between: m.between,
                        toDestination: destination, exactLimit: 15))
                let best = permutations(n).map { StopRouter.cost(of: $0, m.origin, m.between, destination) }.min()!
                #expect(route.cost == best, "seed \(seed)")
                #expect(route.isExact)
                #expect(Set(route.order) == Set(0..<n) && route.order.count == n)
                #expect(StopRouter.cost(of: route.order, m.origin, m.between, destination) == route.cost)
            }
        }
    }

    @Test func twoOptAndOrOptAreValidAndNearTheOptimum() throws {
        var ratios: [Double] = []
        for seed in 100...130 as ClosedRange<UInt64> {
            let n = 7
            let m = instance(seed, stops: n)
            let exact = try #require(
                StopRouter.order(stops: n, fromOrigin: m.origin, between: m.between, toDestination: m.destination, exactLimit: 15))
            let heuristic = try #require(
                StopRouter.order(stops: n, fromOrigin: m.origin, between: m.between, toDestination: m.destination, exactLimit: 3))
            #expect(!heuristic.isExact)
            #expect(Set(heuristic.order) == Set(0..<n))
            #expect(heuristic.cost >= exact.cost)
            ratios.append(Double(heuristic.cost) / Double(exact.cost))
        }
        // Local search on real geography lands within 10 % of the optimum on average.
        #expect(ratios.reduce(0, +) / Double(ratios.count) < 1.10)
    }

    @Test func aStopThatCannotBeReachedFails() {
        let unreachable = StopRouter.unreachable
        #expect(
            StopRouter.order(
                stops: 2, fromOrigin: [10, unreachable], between: [[0, unreachable], [unreachable, 0]],
                toDestination: nil, exactLimit: 15) == nil)
    }
}
