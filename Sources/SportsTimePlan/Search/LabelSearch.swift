import Foundation

/// How a trip (or a partial trip) ranks: compared lexicographically, higher is better.
///
/// `coverage` counts required stadiums attended at a game; `primary` and `secondary` depend on the
/// objective: most games (games, −driving s), most stadiums (distinct stadiums, −driving s),
/// least driving (−driving s, games).
struct TripKey: Comparable, Hashable {
    var coverage: Int
    var primary: Int64
    var secondary: Int64

    static func < (a: TripKey, b: TripKey) -> Bool {
        (a.coverage, a.primary, a.secondary) < (b.coverage, b.primary, b.secondary)
    }
}

/// Label-setting over the trip DAG, in topological (start time) order.
///
/// A label is one partial trip ending at a game: its value, what it drove on that game's date, how many
/// games it attended that date, which required stadiums it covered and (for most stadiums) the set of
/// stadiums visited. A label is dropped when `poolSize` other labels at the same game dominate it
/// (each is at least as good for every possible continuation), which keeps the `poolSize` best trips
/// exact. For additive objectives this is the k-best longest/shortest path DP, O(k·(V+E)) when the day
/// state is trivial. For most stadiums dominance compares visited sets projected on the stadiums still
/// reachable, labels are also pruned by an upper bound against the pool, and the search stops at a
/// label budget (then `isExhausted` is false and `upperBound` holds the best proven bound).
/// In beam mode each game keeps only the `width` best labels (a heuristic).
final class LabelSearch {
    enum Mode: Equatable { case exact, beam(width: Int) }

    struct Label {
        var node: Int32
        var parent: Int32
        var games: Int32
        var distinct: Int32
        var gamesToday: Int32
        var dominatedCount: Int32
        var usedToday: Int64
        var driving: Int64
        var requiredMask: UInt64
        var isAlive: Bool
    }

    struct Completion {
        var label: Int32
        var endSeconds: Int64
        var key: TripKey
    }

    let graph: TripGraph
    let objective: Objective
    let mode: Mode
    let poolSize: Int
    let labelBudget: Int
    /// Words per visited set (0 unless the objective is most stadiums).
    let words: Int

    private(set) var labels: [Label] = []
    private var sets: [UInt64] = []
    private var nodeLabels: [[Int32]]
    /// Dead labels still listed per game (compacted when they are half the list).
    private var deadAt: [Int]
    /// Beam mode: the worst key a full beam holds, per game.
    private var beamFloor: [TripKey?]
    /// Best completed trips, best first (ties: found first).
    private(set) var pool: [Completion] = []
    private(set) var labelsCreated = 0
    private(set) var labelsExpanded = 0
    /// The most labels one game held at once (a measure of how much the day state splits labels).
    private(set) var largestLabelList = 0
    /// False when the label budget stopped the search before every label was settled.
    private(set) var isExhausted = true
    /// When not exhausted: an upper bound on the primary value of any trip.
    private(set) var upperBound: Int64?

    /// Relaxed facts per game: reachable from the start and able to finish; the most games still
    /// possible after it; stadiums and required stadiums still reachable after it.
    private(set) var useful: [Bool]
    private var remainingGames: [Int32]
    /// Per game: whether a same-date game may follow (then the day state carries on), and the most
    /// already-driven seconds under which every drive out of it is scheduled as with none.
    private var sameDateAfter: [Bool]
    private var freeUsedToday: [Int64]
    private var reach: [UInt64]
    private var requiredReach: [UInt64]

    /// - Parameter excluded: games the search may not use (per candidate), e.g. to find alternatives
    ///   that avoid a stadium.
    init(graph: TripGraph, objective: Objective, mode: Mode, poolSize: Int, labelBudget: Int, excluded: [Bool]? = nil) {
        self.graph = graph
        self.objective = objective
        self.mode = mode
        self.poolSize = max(1, poolSize)
        self.labelBudget = labelBudget
        self.words = objective == .mostStadiums ? max(1, (graph.stadiumIds.count + 63) / 64) : 0
        let n = graph.count
        nodeLabels = Array(repeating: [], count: n)
        deadAt = Array(repeating: 0, count: n)
        beamFloor = Array(repeating: nil, count: n)
        useful = Array(repeating: false, count: n)
        remainingGames = Array(repeating: -1, count: n)
        reach = Array(repeating: 0, count: n * words)
        requiredReach = Array(repeating: 0, count: n)
        sameDateAfter = Array(repeating: false, count: n)
        freeUsedToday = Array(repeating: 0, count: n)
        computeRelaxedFacts(excluded: excluded)
        for v in 0..<n where useful[v] {
            var most = graph.endArcs[v]?.onOrigin ?? 0
            for arc in graph.arcs[v] where useful[Int(arc.to)] && graph.allowed(v, Int(arc.to)) {
                most = max(most, arc.onOrigin)
                if graph.candidates[Int(arc.to)].date == graph.candidates[v].date { sameDateAfter[v] = true }
            }
            freeUsedToday[v] = graph.capSeconds - most
        }
    }

    /// A key every trip of the final pool is known to reach (e.g. the beam's k-th best trip): labels
    /// whose bound is below it are pruned before the pool fills.
    var floor: TripKey?

    // MARK: Relaxed facts

    private func computeRelaxedFacts(excluded: [Bool]?) {
        let n = graph.count
        var forward = Array(repeating: false, count: n)
        for v in 0..<n where graph.startAllowed(v) && graph.startArcs[v] != nil { forward[v] = true }
        for u in 0..<n where forward[u] {
            if excluded?[u] == true { forward[u] = false; continue }
            for arc in graph.arcs[u] where graph.allowed(u, Int(arc.to)) { forward[Int(arc.to)] = true }
        }
        for v in stride(from: n - 1, through: 0, by: -1) where forward[v] {
            var best: Int32 = graph.mayFinish(at: v) && graph.endArcs[v] != nil ? 0 : -1
            let base = v * words
            for arc in graph.arcs[v] {
                let w = Int(arc.to)
                guard graph.allowed(v, w), useful[w] else { continue }
                best = max(best, remainingGames[w] + 1)
                if words > 0 {
                    let wb = w * words
                    for k in 0..<words { reach[base + k] |= reach[wb + k] }
                    let bit = graph.candidates[w].stadiumBit
                    reach[base + bit >> 6] |= 1 << UInt64(bit & 63)
                }
                requiredReach[v] |= requiredReach[w]
                if let bit = graph.candidates[w].requiredBit { requiredReach[v] |= 1 << UInt64(bit) }
            }
            remainingGames[v] = best
            useful[v] = best >= 0
        }
    }

    // MARK: Keys and dominance

    @inline(__always) private func key(_ l: Label, extraDriving: Int64 = 0) -> TripKey {
        let driving = l.driving + extraDriving
        let coverage = l.requiredMask.nonzeroBitCount
        switch objective {
        case .mostGames: return TripKey(coverage: coverage, primary: Int64(l.games), secondary: -driving)
        case .mostStadiums: return TripKey(coverage: coverage, primary: Int64(l.distinct), secondary: -driving)
        case .leastDriving: return TripKey(coverage: coverage, primary: -driving, secondary: Int64(l.games))
        }
    }

    /// Whether `a` is at least as good as `b` for every continuation from their (common) game.
    @inline(__always) private func dominates(_ ai: Int, _ bi: Int, node: Int) -> Bool {
        let a = labels[ai], b = labels[bi]
        guard a.usedToday <= b.usedToday, a.gamesToday <= b.gamesToday,
              a.requiredMask & b.requiredMask == b.requiredMask else { return false }
        switch objective {
        case .mostGames, .leastDriving:
            let ka = key(a), kb = key(b)
            return (ka.primary, ka.secondary) >= (kb.primary, kb.secondary)
        case .mostStadiums:
            var lost = 0
            let ab = ai * words, bb = bi * words, rb = node * words
            for k in 0..<words { lost += (sets[ab + k] & ~sets[bb + k] & reach[rb + k]).nonzeroBitCount }
            let margin = Int(a.distinct) - Int(b.distinct) - lost
            return margin > 0 || (margin == 0 && a.driving <= b.driving)
        }
    }

    @inline(__always) private func sameSet(_ ai: Int, _ bi: Int) -> Bool {
        guard words > 0 else { return false }
        let ab = ai * words, bb = bi * words
        for k in 0..<words where sets[ab + k] != sets[bb + k] { return false }
        return true
    }

    /// An optimistic key for any trip extending label `li` at `node`.
    private func bound(_ li: Int, node: Int) -> TripKey {
        let l = labels[li]
        let coverage = l.requiredMask.nonzeroBitCount + (requiredReach[node] & ~l.requiredMask).nonzeroBitCount
        var more = 0
        let lb = li * words, rb = node * words
        for k in 0..<words { more += (reach[rb + k] & ~sets[lb + k]).nonzeroBitCount }
        more = min(more, Int(max(0, remainingGames[node])))
        return TripKey(coverage: coverage, primary: Int64(Int(l.distinct) + more), secondary: -l.driving)
    }

    private var threshold: TripKey? {
        let own = pool.count >= poolSize ? pool[pool.count - 1].key : nil
        switch (own, floor) {
        case let (a?, b?): return max(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    // MARK: Search

    func run() {
        let n = graph.count
        for v in 0..<n where useful[v] && graph.startAllowed(v) {
            guard let arc = graph.startArcs[v] else { continue }
            let c = graph.candidates[v]
            var label = Label(node: Int32(v), parent: -1, games: 1, distinct: 1, gamesToday: 1, dominatedCount: 0,
                              usedToday: arc.onTarget, driving: arc.seconds, requiredMask: 0, isAlive: true)
            if let bit = c.requiredBit { label.requiredMask = 1 << UInt64(bit) }
            labels.append(label)
            if words > 0 {
                sets.append(contentsOf: repeatElement(0, count: words))
                sets[sets.count - words + (c.stadiumBit >> 6)] |= 1 << UInt64(c.stadiumBit & 63)
            }
            insertLast(at: v)
        }
        nodes: for v in 0..<n where useful[v] {
            let canFinish = graph.mayFinish(at: v)
            for li32 in nodeLabels[v] {
                let li = Int(li32)
                guard labels[li].isAlive else { continue }
                if mode == .exact, objective == .mostStadiums, let threshold, bound(li, node: v) < threshold {
                    labels[li].isAlive = false
                    continue
                }
                if mode == .exact, objective == .mostStadiums, labelsCreated > labelBudget {
                    isExhausted = false
                    finishEarly(from: v)
                    break nodes
                }
                labelsExpanded += 1
                let label = labels[li]
                let state = TripGraph.DayState(usedToday: label.usedToday, gamesToday: Int(label.gamesToday))
                if canFinish, let end = graph.finish(from: v, state: state) {
                    addCompletion(Completion(label: li32, endSeconds: end.seconds, key: key(label, extraDriving: end.seconds)))
                }
                let base = li * words
                for arc in graph.arcs[v] {
                    let w = Int(arc.to)
                    guard useful[w], graph.allowed(v, w) else { continue }
                    guard let next = graph.extend(from: v, state: state, arc: arc) else { continue }
                    let stadiumBit = graph.candidates[w].stadiumBit
                    var newLabel = Label(
                        node: Int32(w), parent: li32, games: label.games + 1, distinct: label.distinct,
                        gamesToday: Int32(next.state.gamesToday), dominatedCount: 0, usedToday: next.state.usedToday,
                        driving: label.driving + arc.seconds, requiredMask: label.requiredMask, isAlive: true)
                    if let bit = graph.candidates[w].requiredBit { newLabel.requiredMask |= 1 << UInt64(bit) }
                    let word = stadiumBit >> 6, mask: UInt64 = 1 << UInt64(stadiumBit & 63)
                    if words > 0, sets[base + word] & mask == 0 { newLabel.distinct += 1 }
                    // A full beam rejects a label worse than all it holds before anything is stored.
                    if case .beam(let width) = mode, nodeLabels[w].count >= width, let floor = beamFloor[w],
                       key(newLabel) <= floor { continue }
                    labels.append(newLabel)
                    if words > 0 {
                        sets.reserveCapacity(sets.count + words)
                        for k in 0..<words { sets.append(sets[base + k]) }
                        sets[sets.count - words + word] |= mask
                    }
                    insertLast(at: w)
                }
            }
        }
    }

    /// Stops at the budget: the bound is the best of the pool and every label not yet settled.
    private func finishEarly(from v: Int) {
        var best = pool.first.map { $0.key.primary } ?? Int64.min
        for w in v..<graph.count where useful[w] {
            for li in nodeLabels[w] where labels[Int(li)].isAlive {
                best = max(best, bound(Int(li), node: w).primary)
            }
        }
        upperBound = best
    }

    /// Files the label just appended (with its set) at game `w`, or drops it.
    private func insertLast(at w: Int) {
        let index = labels.count - 1
        // A day state that cannot change any continuation is normalised, so such labels compare equal:
        // with no same-date game after w, the games-today count never matters, and driving already done
        // that day matters only when it would cap a drive out of w.
        if !sameDateAfter[w] {
            labels[index].gamesToday = 1
            if labels[index].usedToday <= freeUsedToday[w] { labels[index].usedToday = 0 }
        }
        let newLabel = labels[index]
        labelsCreated += 1
        switch mode {
        case .exact:
            if objective == .mostStadiums, let threshold, bound(index, node: w) < threshold {
                discardLast(); return
            }
            var dominators = 0
            for ei in nodeLabels[w] where labels[Int(ei)].isAlive {
                if dominates(Int(ei), index, node: w) {
                    if sameSet(Int(ei), index) { discardLast(); return }
                    dominators += 1
                    if dominators >= poolSize { discardLast(); return }
                }
            }
            var dead = 0
            for ei in nodeLabels[w] where labels[Int(ei)].isAlive {
                if dominates(index, Int(ei), node: w) {
                    if sameSet(index, Int(ei)) { labels[Int(ei)].isAlive = false; dead += 1; continue }
                    labels[Int(ei)].dominatedCount += 1
                    if labels[Int(ei)].dominatedCount >= Int32(poolSize) { labels[Int(ei)].isAlive = false; dead += 1 }
                }
            }
            nodeLabels[w].append(Int32(index))
            largestLabelList = max(largestLabelList, nodeLabels[w].count)
            deadAt[w] += dead
            if deadAt[w] * 2 > nodeLabels[w].count {
                nodeLabels[w].removeAll { !labels[Int($0)].isAlive }
                deadAt[w] = 0
            }
        case .beam(let width):
            let newKey = key(newLabel)
            if nodeLabels[w].count >= width, let floor = beamFloor[w], newKey <= floor { discardLast(); return }
            var worst = -1
            var worstKey: TripKey?
            for ei in nodeLabels[w] where labels[Int(ei)].isAlive {
                let k = key(labels[Int(ei)])
                if sameSet(Int(ei), index) {
                    if k >= newKey { discardLast(); return }
                    labels[Int(ei)].isAlive = false
                    continue
                }
                if worstKey == nil || k <= worstKey! { worst = Int(ei); worstKey = k }
            }
            nodeLabels[w].removeAll { !labels[Int($0)].isAlive }
            if nodeLabels[w].count >= width {
                guard let worstKey, newKey > worstKey else { discardLast(); return }
                labels[worst].isAlive = false
                nodeLabels[w].removeAll { $0 == Int32(worst) }
            }
            nodeLabels[w].append(Int32(index))
            if nodeLabels[w].count >= width {
                beamFloor[w] = nodeLabels[w].map { key(labels[Int($0)]) }.min()
            }
        }
    }

    /// Drops the label just appended (it never got children).
    private func discardLast() {
        labels.removeLast()
        if words > 0 { sets.removeLast(words) }
    }

    private func addCompletion(_ completion: Completion) {
        if pool.count >= poolSize, completion.key <= pool[pool.count - 1].key { return }
        var index = pool.count
        while index > 0, pool[index - 1].key < completion.key { index -= 1 }
        pool.insert(completion, at: index)
        if pool.count > poolSize { pool.removeLast() }
    }

    // MARK: Paths

    /// The games of a label's trip, first to last.
    func path(of label: Int32) -> [Int] { labelChain(label).map { Int(labels[Int($0)].node) } }

    func labelChain(_ label: Int32) -> [Int32] {
        var chain: [Int32] = []
        var current = label
        while current >= 0 { chain.append(current); current = labels[Int(current)].parent }
        return chain.reversed()
    }

    func set(of label: Int) -> ArraySlice<UInt64> { sets[(label * words)..<((label + 1) * words)] }
}
