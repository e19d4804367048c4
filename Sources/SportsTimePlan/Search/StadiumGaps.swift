import Foundation
import SportsTimeCore

/// A lower bound on `fewestDays` from geography and the schedule together, before any window is searched.
///
/// `gap(A, B)` is the fewest dates between a game at stadium A and a later game at stadium B that one arc of
/// the trip graph joins (arcs are built with nothing driven yet that day, so every real move has one), and
/// through other stadiums the shortest chain of such arcs. A trip's first visits to the required stadiums
/// come in some order, and the dates between two of them are at least the gap of that pair; so the trip
/// spans at least the cheapest path through every required stadium under these gaps, and that path costs
/// at least a minimum spanning tree of them (gaps taken the cheaper way round), and at least the sum of
/// each stadium's cheapest gap on to another (or in from one) but the largest. The bound is the largest
/// of the three, plus the first day. Pairs the graph's horizon keeps apart count as the horizon plus one.
struct StadiumGaps {
    /// `gaps[a][b]` by stadium bit; 0 on the diagonal.
    let gaps: [[Int]]
    /// Stadium bits of the required stadiums that have games.
    let required: [Int]

    init(graph: TripGraph) {
        let count = graph.stadiumIds.count
        let far = (graph.horizonDays ?? 366) + 1
        var gaps = Array(repeating: Array(repeating: far, count: count), count: count)
        for a in 0..<count { gaps[a][a] = 0 }
        for u in graph.candidates.indices {
            let from = graph.candidates[u]
            for arc in graph.arcs[u] {
                let to = graph.candidates[Int(arc.to)]
                let days = from.date.days(until: to.date)
                if days < gaps[from.stadiumBit][to.stadiumBit] { gaps[from.stadiumBit][to.stadiumBit] = days }
            }
        }
        // Chains through other stadiums (Floyd–Warshall; a few dozen stadiums).
        for k in 0..<count {
            for a in 0..<count where gaps[a][k] < far {
                for b in 0..<count where gaps[a][k] + gaps[k][b] < gaps[a][b] { gaps[a][b] = gaps[a][k] + gaps[k][b] }
            }
        }
        self.gaps = gaps
        required = Array(Set(graph.candidates.filter { $0.requiredBit != nil }.map(\.stadiumBit))).sorted()
    }

    /// The fewest days any trip through every required stadium spans, first day to last.
    var days: Int {
        guard required.count > 1 else { return required.count }
        return 1 + max(spanningTree(), cheapestOnward(out: true), cheapestOnward(out: false))
    }

    /// Prim's tree over the required stadiums, each pair at its cheaper direction.
    private func spanningTree() -> Int {
        var inTree = Set([required[0]])
        var best = Dictionary(uniqueKeysWithValues: required.map { ($0, min(gaps[required[0]][$0], gaps[$0][required[0]])) })
        var total = 0
        while inTree.count < required.count {
            guard let next = required.filter({ !inTree.contains($0) }).min(by: { (best[$0]!, $0) < (best[$1]!, $1) }) else { break }
            total += best[next]!
            inTree.insert(next)
            for other in required where !inTree.contains(other) {
                best[other] = min(best[other]!, gaps[next][other], gaps[other][next])
            }
        }
        return total
    }

    /// Every required stadium but the last (or the first) is left for (or reached from) another one.
    private func cheapestOnward(out: Bool) -> Int {
        let cheapest = required.map { a in
            required.filter { $0 != a }.map { b in out ? gaps[a][b] : gaps[b][a] }.min() ?? 0
        }
        return cheapest.reduce(0, +) - (cheapest.max() ?? 0)
    }
}
