import Foundation

/// Orders stops without a fixed game (required stadiums with no game on the trip) between a fixed
/// origin and an optional fixed destination, minimising the driving time.
///
/// Up to `exactLimit` stops: Held–Karp dynamic programming over subsets, exact, O(2ⁿ·n²).
/// Above: nearest neighbour, then 2-opt and Or-opt moves until no move improves the route (a heuristic).
enum StopRouter {
    struct Route {
        /// Stop indices (0-based into the stops) in visiting order.
        var order: [Int]
        var cost: Int64
        var isExact: Bool
    }

    static let unreachable = Int64.max / 8

    /// - Parameters:
    ///   - fromOrigin: cost origin → stop i.
    ///   - between: cost stop i → stop j.
    ///   - toDestination: cost stop i → destination (nil: the route may end at any stop).
    static func order(
        stops count: Int, fromOrigin: [Int64], between: [[Int64]], toDestination: [Int64]?,
        exactLimit: Int
    ) -> Route? {
        guard count > 0 else { return Route(order: [], cost: 0, isExact: true) }
        let route =
            count <= exactLimit
            ? heldKarp(count, fromOrigin, between, toDestination)
            : improve(count, fromOrigin, between, toDestination)
        guard let route, route.cost < unreachable else { return nil }
        return route
    }

    static func cost(of order: [Int], _ fromOrigin: [Int64], _ between: [[Int64]], _ toDestination: [Int64]?) -> Int64 {
        guard let first = order.first else { return 0 }
        var total = fromOrigin[first]
        for (a, b) in zip(order, order.dropFirst()) { total = add(total, between[a][b]) }
        if let toDestination, let last = order.last { total = add(total, toDestination[last]) }
        return total
    }

    @inline(__always) static func add(_ a: Int64, _ b: Int64) -> Int64 { min(unreachable, a + b) }

    static func heldKarp(_ n: Int, _ fromOrigin: [Int64], _ between: [[Int64]], _ toDestination: [Int64]?) -> Route? {
        let full = (1 << n) - 1
        var dp = [Int64](repeating: unreachable, count: (1 << n) * n)
        var parent = [Int8](repeating: -1, count: (1 << n) * n)
        for j in 0..<n { dp[(1 << j) * n + j] = fromOrigin[j] }
        for mask in 1...full {
            for j in 0..<n where mask & (1 << j) != 0 {
                let current = dp[mask * n + j]
                guard current < unreachable else { continue }
                for k in 0..<n where mask & (1 << k) == 0 {
                    let next = mask | (1 << k)
                    let cost = add(current, between[j][k])
                    // Ties go to the smaller predecessor index, so the result is deterministic.
                    if cost < dp[next * n + k] { dp[next * n + k] = cost; parent[next * n + k] = Int8(j) }
                }
            }
        }
        var best = unreachable, last = -1
        for j in 0..<n {
            let total = add(dp[full * n + j], toDestination?[j] ?? 0)
            if total < best { best = total; last = j }
        }
        guard last >= 0 else { return nil }
        var order: [Int] = []
        var mask = full, j = last
        while j >= 0 {
            order.append(j)
            let p = Int(parent[mask * n + j])
            mask &= ~(1 << j)
            j = p
        }
        return Route(order: order.reversed(), cost: best, isExact: true)
    }

    static func improve(_ n: Int, _ fromOrigin: [Int64], _ between: [[Int64]], _ toDestination: [Int64]?) -> Route? {
        // Nearest neighbour from the origin.
        var remaining = Set(0..<n)
        var order: [Int] = []
        var current = -1
        while !remaining.isEmpty {
            let next = remaining.min { a, b in
                let ca = current < 0 ? fromOrigin[a] : between[current][a]
                let cb = current < 0 ? fromOrigin[b] : between[current][b]
                return (ca, a) < (cb, b)
            }!
            order.append(next); remaining.remove(next); current = next
        }
        var best = cost(of: order, fromOrigin, between, toDestination)
        var improved = true
        while improved {
            improved = false
            // 2-opt: reverse order[i...j].
            for i in 0..<(n - 1) {
                for j in (i + 1)..<n {
                    var candidate = order
                    candidate[i...j].reverse()
                    let c = cost(of: candidate, fromOrigin, between, toDestination)
                    if c < best { best = c; order = candidate; improved = true }
                }
            }
            // Or-opt: move a segment of 1–3 stops elsewhere.
            for length in 1...3 where length < n {
                for i in 0...(n - length) {
                    for j in 0...(n - length) where j != i {
                        var candidate = order
                        let segment = Array(candidate[i..<(i + length)])
                        candidate.removeSubrange(i..<(i + length))
                        candidate.insert(contentsOf: segment, at: j)
                        let c = cost(of: candidate, fromOrigin, between, toDestination)
                        if c < best { best = c; order = candidate; improved = true }
                    }
                }
            }
        }
        return Route(order: order, cost: best, isExact: false)
    }
}
