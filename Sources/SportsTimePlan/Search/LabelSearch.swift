import Foundation
import SportsTimeCore

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
struct LabelSearch {
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
    }

    /// What dominance compares of a label (`Label` and `Entry` both have it).
    fileprivate protocol Facts {
        var games: Int32 { get }
        var distinct: Int32 { get }
        var gamesToday: Int32 { get }
        var usedToday: Int64 { get }
        var driving: Int64 { get }
        var requiredMask: UInt64 { get }
    }

    /// A label as the lists of its game hold it in exact mode: its index and the facts dominance compares,
    /// copied when it is filed (they never change after). A new label is compared with every living
    /// label of its game; reading those from the game's own list, in order, instead of from each label
    /// in the label store (where a game's labels lie far apart) is most of what filing a label costs.
    fileprivate struct Entry: Facts {
        var label: Int32
        var games: Int32
        var distinct: Int32
        var gamesToday: Int32
        var usedToday: Int64
        var driving: Int64
        var requiredMask: UInt64

        init(_ label: Int, _ l: Label) {
            self.label = Int32(label); games = l.games; distinct = l.distinct; gamesToday = l.gamesToday
            usedToday = l.usedToday; driving = l.driving; requiredMask = l.requiredMask
        }
    }

    struct Completion {
        var label: Int32
        var endSeconds: Int64
        var key: TripKey
    }

    /// What a search looks for and how; given to the initializer, fixed for the search's life.
    struct Configuration {
        var objective: Objective
        var mode: Mode = .exact
        /// How many best trips are kept (exactly, in exact mode).
        var poolSize = 1
        var labelBudget: Int
        /// Games the search may not use (per candidate), e.g. to find alternatives that avoid a stadium.
        var excluded: [Bool]? = nil
        /// A key every trip of the final pool is known to reach (e.g. the beam's k-th best trip, or the
        /// target of a target-first pass): labels whose bound is below it are pruned before the pool fills.
        var floor: TripKey? = nil
        /// Most stadiums: decide only the value (coverage, stadiums) and ignore driving, so labels with the
        /// same projected visited set collapse whatever they drove (a target-first pass proving the count).
        var countOnly = false
        /// Stop as soon as a completed trip reaches this key (`reachedStop` then holds).
        var stopAt: TripKey? = nil
        /// Beam mode: rank partial trips by their potential (stadiums + the new stadiums still reachable,
        /// capped by the games still possible) before their value and driving.
        var rankByPotential = false
        /// Exact most stadiums: also prune labels by `newStadiumsOnAnyPath` before expanding them.
        var useLongestPathBound = true

        /// A target-first pass: does some trip reach `target` (coverage and stadiums, driving ignored)?
        static func reaching(_ target: TripKey, labelBudget: Int, excluded: [Bool]? = nil) -> Configuration {
            Configuration(
                objective: .mostStadiums, labelBudget: labelBudget, excluded: excluded, floor: target, countOnly: true,
                stopAt: target)
        }
    }

    let graph: TripGraph
    let objective: Objective
    let mode: Mode
    let poolSize: Int
    let labelBudget: Int
    let config: Configuration
    /// Words per visited set (0 unless the objective is most stadiums).
    let words: Int

    private(set) var labels: [Label] = []
    /// Per label: not dropped (dominated, pruned or pushed out of a beam).
    private(set) var alive: [Bool] = []
    private var sets: [UInt64] = []
    /// Per game: the labels filed there.
    private var lists: [LabelList]
    /// Best completed trips, best first (ties: found first).
    private(set) var pool: [Completion] = []
    /// A label's state as far as continuations can tell apart equal-valued labels: the visited set
    /// projected on the stadiums still reachable (up to 128 stadiums), and the day state and coverage.
    struct ProjectionKey: Hashable {
        var low: UInt64
        var high: UInt64
        var usedToday: Int64
        var gamesToday: Int32
        var required: UInt64
    }
    /// Above this many labels at a game, a new label is compared only with its projection bucket.
    static let fullScanLimit = 192

    /// The labels filed at one game.
    private struct LabelList {
        var labels: [Int32] = []
        /// Exact mode: the labels as `Entry`s, in the order of `labels`.
        var entries: [Entry] = []
        /// Dead labels still listed: exact mode compacts the list when they are half of it; beam mode counts
        /// labels left dead by an insert that stopped early, cleared at the next insert here.
        var dead = 0
        /// Beam mode: the worst key a full beam holds.
        var beamFloor: TripKey?
        /// Exact mode, long lists: the entries by projected state (see `fullScanLimit`).
        var buckets: [ProjectionKey: [Entry]] = [:]
    }
    /// Beam mode: each stored label's ranking key.
    private var beamKeys: [TripKey] = []

    /// Labels stored (what the label budget counts, and what memory holds).
    private(set) var labelsCreated = 0
    /// Extensions dropped by the bound before being stored.
    private(set) var labelsPruned = 0
    private var scratch: [UInt64] = []
    private(set) var labelsExpanded = 0
    /// The most labels one game held at once (a measure of how much the day state splits labels).
    private(set) var largestLabelList = 0
    /// False when the label budget stopped the search before every label was settled.
    private(set) var isExhausted = true
    /// When not exhausted: an upper bound on the primary value of any trip.
    private(set) var upperBound: Int64?

    /// What the relaxed graph (ignoring the day state) tells of one game, worked out before the search.
    struct GameFacts {
        /// Reachable from the start and able to finish.
        var isUseful = false
        /// The most games still possible after it (-1: none, the game is not useful).
        var remainingGames: Int32 = -1
        /// The most date changes on any way on from it (each later game day starts one "run" of
        /// consecutive same-date games), and the most same-date moves between two different stadiums.
        var runsAfter: Int32 = 0
        var pairMovesAfter: Int32 = 0
        /// Required stadiums (bits) still reachable after it.
        var requiredReach: UInt64 = 0
        /// Whether a same-date game may follow (then the day state carries on), and the most
        /// already-driven seconds under which every drive out of it is scheduled as with none.
        var sameDateAfter = false
        var freeUsedToday: Int64 = 0
    }
    private var facts: [GameFacts]
    func isUseful(_ game: Int) -> Bool { facts[game].isUseful }
    /// Per game, `words` words: the stadiums still reachable after it.
    private var reach: [UInt64]
    /// Stadiums joined by a same-date move (union of such pairs), as bitsets: only components of two or
    /// more stadiums, where one game day can add more than one new stadium.
    private var components: [[UInt64]] = []

    init(graph: TripGraph, _ configuration: Configuration) {
        self.graph = graph
        config = configuration
        let objective = configuration.objective
        self.objective = objective
        mode = configuration.mode
        poolSize = max(1, configuration.poolSize)
        labelBudget = configuration.labelBudget
        let excluded = configuration.excluded
        self.words = objective == .mostStadiums ? max(1, (graph.stadiumIds.count + 63) / 64) : 0
        scratch = Array(repeating: 0, count: words)
        var notRequired = Array(repeating: ~UInt64(0), count: words)
        for c in graph.candidates where words > 0 && c.requiredBit != nil {
            notRequired[c.stadiumBit >> 6] &= ~(1 << UInt64(c.stadiumBit & 63))
        }
        self.notRequired = notRequired
        let n = graph.count
        lists = Array(repeating: LabelList(), count: n)
        facts = Array(repeating: GameFacts(), count: n)
        reach = Array(repeating: 0, count: n * words)
        computeRelaxedFacts(excluded: excluded)
        for v in 0..<n where facts[v].isUseful {
            var most = graph.endArcs[v]?.onOrigin ?? 0
            for arc in graph.arcs[v] where facts[Int(arc.to)].isUseful && graph.allowed(v, Int(arc.to)) {
                most = max(most, arc.onOrigin)
                if graph.candidates[Int(arc.to)].date == graph.candidates[v].date { facts[v].sameDateAfter = true }
            }
            facts[v].freeUsedToday = graph.capSeconds - most
        }
    }

    private(set) var reachedStop = false

    // MARK: Relaxed facts

    private mutating func computeRelaxedFacts(excluded: [Bool]?) {
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
            let cv = graph.candidates[v]
            for arc in graph.arcs[v] {
                let w = Int(arc.to)
                guard graph.allowed(v, w), facts[w].isUseful else { continue }
                best = max(best, facts[w].remainingGames + 1)
                let cw = graph.candidates[w]
                if cw.date == cv.date {
                    facts[v].runsAfter = max(facts[v].runsAfter, facts[w].runsAfter)
                    facts[v].pairMovesAfter = max(
                        facts[v].pairMovesAfter, facts[w].pairMovesAfter + (cw.stadiumBit != cv.stadiumBit ? 1 : 0))
                } else {
                    facts[v].runsAfter = max(facts[v].runsAfter, facts[w].runsAfter + 1)
                    facts[v].pairMovesAfter = max(facts[v].pairMovesAfter, facts[w].pairMovesAfter)
                }
                if words > 0 {
                    let wb = w * words
                    for k in 0..<words { reach[base + k] |= reach[wb + k] }
                    let bit = graph.candidates[w].stadiumBit
                    reach[base + bit >> 6] |= 1 << UInt64(bit & 63)
                }
                facts[v].requiredReach |= facts[w].requiredReach
                if let bit = graph.candidates[w].requiredBit { facts[v].requiredReach |= 1 << UInt64(bit) }
            }
            facts[v].remainingGames = best
            facts[v].isUseful = best >= 0
        }
        // Components of stadiums joined by same-date moves.
        guard words > 0 else { return }
        let stadiumCount = graph.stadiumIds.count
        var parent = Array(0..<stadiumCount)
        func root(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        for v in 0..<n where facts[v].isUseful {
            let cv = graph.candidates[v]
            for arc in graph.arcs[v] where facts[Int(arc.to)].isUseful && graph.allowed(v, Int(arc.to)) {
                let cw = graph.candidates[Int(arc.to)]
                guard cw.date == cv.date, cw.stadiumBit != cv.stadiumBit else { continue }
                let a = root(cv.stadiumBit), b = root(cw.stadiumBit)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var members: [Int: [Int]] = [:]
        for s in 0..<stadiumCount { members[root(s), default: []].append(s) }
        for key in members.keys.sorted() where members[key]!.count >= 2 {
            var mask = Array(repeating: UInt64(0), count: words)
            for s in members[key]! { mask[s >> 6] |= 1 << UInt64(s & 63) }
            components.append(mask)
        }
    }

    /// The most new stadiums (not in the visited set starting at `setBase` in `bits`) any way on from
    /// `node` can add, for a label that attended `gamesToday` games on the node's date.
    ///
    /// A way on is a sequence of runs (consecutive games on one date). Each later run adds at most one
    /// new stadium plus one per same-date move to a different stadium; the moves are at most
    /// `pairMovesAfter`, and within one component of stadiums joined by same-date moves, runs of at most
    /// `maxGamesPerDay` games that visit m new stadiums make at most m − ⌈m / maxGamesPerDay⌉ such moves.
    /// The run of the node's own date adds at most one new stadium per move. Also capped by the new
    /// stadiums reachable at all and by the games still possible.
    @inline(__always) private func newStadiumsBound(node: Int, bits: UnsafeBufferPointer<UInt64>, gamesToday: Int) -> Int {
        let rb = node * words
        var reachable = 0
        for k in 0..<words { reachable += (reach[rb + k] & ~bits[k]).nonzeroBitCount }
        var best = min(reachable, Int(max(0, facts[node].remainingGames)))
        let perDay = graph.request.maxGamesPerDay
        var moves = Int(facts[node].pairMovesAfter)
        if moves > 0 {
            var extra = facts[node].sameDateAfter ? max(0, perDay - gamesToday) : 0
            for mask in components {
                var m = 0
                for k in 0..<words { m += (mask[k] & reach[rb + k] & ~bits[k]).nonzeroBitCount }
                if m >= 2 { extra += m - (m + perDay - 1) / perDay }
            }
            moves = min(moves, extra)
        }
        best = min(best, Int(facts[node].runsAfter) + moves)
        return best
    }

    // MARK: Keys and dominance

    @inline(__always) private func key<L: Facts>(_ l: L, extraDriving: Int64 = 0) -> TripKey {
        let driving = l.driving + extraDriving
        let coverage = l.requiredMask.nonzeroBitCount
        switch objective {
        case .mostGames: return TripKey(coverage: coverage, primary: Int64(l.games), secondary: -driving)
        case .mostStadiums, .fewestDays: return TripKey(coverage: coverage, primary: Int64(l.distinct), secondary: -driving)
        case .leastDriving: return TripKey(coverage: coverage, primary: -driving, secondary: Int64(l.games))
        }
    }

    /// The beam's ranking of a partial trip: its key, or with `rankByPotential` (coverage still possible,
    /// stadiums + reachable new ones, then stadiums so far, then driving).
    @inline(__always) private mutating func beamKey(_ index: Int) -> TripKey {
        guard config.rankByPotential, words > 0 else { return key(labels[index]) }
        let node = Int(labels[index].node)
        let b = bound(index, node: node)
        return TripKey(coverage: b.coverage, primary: b.primary << 20 | Int64(labels[index].distinct), secondary: -labels[index].driving)
    }

    /// Whether `a` is at least as good as `b` for every continuation from their (common) game.
    @inline(__always) private func dominates<A: Facts, B: Facts>(_ ai: Int, _ a: A, _ bi: Int, _ b: B, node: Int) -> Bool {
        guard a.usedToday <= b.usedToday, a.gamesToday <= b.gamesToday,
            a.requiredMask & b.requiredMask == b.requiredMask
        else { return false }
        switch objective {
        case .mostGames, .leastDriving:
            let ka = key(a), kb = key(b)
            return (ka.primary, ka.secondary) >= (kb.primary, kb.secondary)
        case .mostStadiums, .fewestDays:
            var lost = 0
            let ab = ai * words, bb = bi * words, rb = node * words
            for k in 0..<words { lost += (sets[ab + k] & ~sets[bb + k] & reach[rb + k]).nonzeroBitCount }
            let margin = Int(a.distinct) - Int(b.distinct) - lost
            return margin > 0 || (margin == 0 && (config.countOnly || a.driving <= b.driving))
        }
    }

    @inline(__always) private func sameSet(_ ai: Int, _ bi: Int) -> Bool {
        guard words > 0 else { return false }
        let ab = ai * words, bb = bi * words
        for k in 0..<words where sets[ab + k] != sets[bb + k] { return false }
        return true
    }

    /// An optimistic key for any trip extending label `li` at `node`.
    private mutating func bound(_ li: Int, node: Int) -> TripKey {
        let l = labels[li]
        var coverage = l.requiredMask.nonzeroBitCount + (facts[node].requiredReach & ~l.requiredMask).nonzeroBitCount
        let lb = li * words
        if facts[node].requiredReach & ~l.requiredMask != 0, words > 0 {
            // Required stadiums still to cover are new stadiums among the required ones: the same bound,
            // with every stadium that is not required counted as visited.
            for k in 0..<words { scratch[k] = sets[lb + k] | notRequired[k] }
            let more = scratch.withUnsafeBufferPointer { newStadiumsBound(node: node, bits: $0, gamesToday: Int(l.gamesToday)) }
            coverage = min(coverage, l.requiredMask.nonzeroBitCount + more)
        }
        let more = sets.withUnsafeBufferPointer { all in
            newStadiumsBound(node: node, bits: UnsafeBufferPointer(rebasing: all[lb..<(lb + words)]), gamesToday: Int(l.gamesToday))
        }
        return TripKey(coverage: coverage, primary: Int64(Int(l.distinct) + more), secondary: config.countOnly ? 0 : -l.driving)
    }

    /// Stadium bits that are not required (all ones beyond the stadiums), for the coverage bound.
    private let notRequired: [UInt64]

    private(set) var pathPruned = 0
    private var pathLanes: [PathLanes] = []
    /// One value per label of a batch of the path bound.
    private typealias PathLanes = SIMD8<Int32>

    /// The relaxed graph `newStadiumsOnAnyPath` walks, flattened into one array at its first use (the
    /// bound runs for most labels it expands, over every game after the label's): per game whether it is
    /// useful and may end a trip, and its allowed arcs to useful games, each with the target's stadium
    /// bit, or `stadiumCount` when the target is at the game's own stadium (never a new stadium). Arcs to
    /// games that are not useful or not allowed are left out: the walk never takes them. Every game an
    /// arc leads to is useful, so it has a way to the end, and its value is never below 0.
    private struct PathGraph {
        /// `[finish: n][arcStart: n + 1][arcTo: m][arcStadium: m]`; finish: -2 for a game that is not
        /// useful, -1 for one that cannot end a trip, 0 for one that may.
        let storage: [Int32]
        let count: Int
        let arcCount: Int
        let stadiumCount: Int
        var arcStartOffset: Int { count }
        var arcToOffset: Int { 2 * count + 1 }
        var arcStadiumOffset: Int { 2 * count + 1 + arcCount }

        init(graph: TripGraph, useful: [Bool]) {
            let n = graph.count
            var finish = [Int32](repeating: -2, count: n)
            var arcStart = [Int32](repeating: 0, count: n + 1)
            var arcTo: [Int32] = []
            var arcStadium: [Int32] = []
            for v in 0..<n {
                arcStart[v] = Int32(arcTo.count)
                guard useful[v] else { continue }
                finish[v] = graph.mayFinish(at: v) && graph.endArcs[v] != nil ? 0 : -1
                let sv = graph.candidates[v].stadiumBit
                for arc in graph.arcs[v] {
                    let x = Int(arc.to)
                    guard useful[x], graph.allowed(v, x) else { continue }
                    let sx = graph.candidates[x].stadiumBit
                    arcTo.append(arc.to)
                    arcStadium.append(Int32(sx == sv ? graph.stadiumIds.count : sx))
                }
            }
            arcStart[n] = Int32(arcTo.count)
            count = n
            arcCount = arcTo.count
            stadiumCount = graph.stadiumIds.count
            storage = finish + arcStart + arcTo + arcStadium
        }
    }
    private lazy var pathGraph = PathGraph(graph: graph, useful: facts.map(\.isUseful))

    /// The most new stadiums any way on from `node` can add to label `li`'s visited set, relaxed: the
    /// longest path (over useful games and allowed arcs, ignoring the day state) counting each move to
    /// a game at a different stadium not yet visited. A stadium's first visit is such a move, so this
    /// bounds the new stadiums; it over-counts only a stadium visited twice after leaving it.
    mutating func newStadiumsOnAnyPath(label li: Int, node: Int) -> Int {
        newStadiumsOnAnyPath(labels: [li], node: node)[0]
    }

    /// `newStadiumsOnAnyPath` of several labels at one game.
    mutating func newStadiumsOnAnyPath(labels batch: [Int], node: Int) -> [Int] {
        let (sets, words) = (sets, words)
        return newStadiumsOnAnyPath(node: node, count: batch.count) { index, stadium in
            sets[batch[index] * words + stadium >> 6] & (1 << UInt64(stadium & 63)) != 0
        }
    }

    /// The path bound from `node` for `count` visited sets (`visited(i, stadium)`: whether set `i`
    /// holds the stadium), eight in one walk of the games after the node: the walk is the same for
    /// every set, only which stadiums are new differs, so each set is a lane of the walk's values.
    mutating func newStadiumsOnAnyPath(node: Int, count: Int, visited: (Int, Int) -> Bool) -> [Int] {
        let n = graph.count
        let path = pathGraph
        let (arcStart, arcTo, arcStadium) = (path.arcStartOffset, path.arcToOffset, path.arcStadiumOffset)
        if pathLanes.count != n { pathLanes = Array(repeating: PathLanes(repeating: -1), count: n) }
        // Per stadium, per lane: 1 when the lane's set does not hold it; the row after the last stadium
        // (a move within one stadium) stays 0.
        var isNew = [PathLanes](repeating: .zero, count: path.stadiumCount + 1)
        var values: [Int] = []
        values.reserveCapacity(count)
        for first in stride(from: 0, to: count, by: PathLanes.scalarCount) {
            let lanes = min(PathLanes.scalarCount, count - first)
            for s in 0..<path.stadiumCount {
                var row = PathLanes.zero
                for lane in 0..<lanes where !visited(first + lane, s) { row[lane] = 1 }
                isNew[s] = row
            }
            path.storage.withUnsafeBufferPointer { g in
                isNew.withUnsafeBufferPointer { fresh in
                    pathLanes.withUnsafeMutableBufferPointer { lp in
                        for v in stride(from: n - 1, through: node, by: -1) {
                            let finish = g[v]
                            guard finish > -2 else { lp[v] = PathLanes(repeating: -1); continue }
                            var best = PathLanes(repeating: finish)
                            for e in Int(g[arcStart + v])..<Int(g[arcStart + v + 1]) {
                                best = pointwiseMax(best, lp[Int(g[arcTo + e])] &+ fresh[Int(g[arcStadium + e])])
                            }
                            lp[v] = best
                        }
                        for lane in 0..<lanes { values.append(Int(max(0, lp[node][lane]))) }
                    }
                }
            }
        }
        return values
    }

    /// The bounds the labels at game `v` will ask for, worked out before they are expanded, by position in
    /// `lists[v].labels` (which expanding `v` does not change): each living label's cheap bound, and the
    /// path bounds, together, of those the cheap bound keeps under the threshold as it is now. The
    /// threshold only rises while `v` is expanded, so a label that asks for its path bound later is among
    /// them. Empty when there is no threshold yet: then each label works its bounds out alone.
    private mutating func boundsAhead(at v: Int) -> [(cheap: TripKey, more: Int?)?] {
        guard mode == .exact, objective == .mostStadiums, config.useLongestPathBound, let threshold else { return [] }
        var ahead: [(cheap: TripKey, more: Int?)?] = lists[v].labels.map { li in
            alive[Int(li)] ? (bound(Int(li), node: v), nil) : nil
        }
        let asking = ahead.indices.filter { position in
            guard let cheap = ahead[position]?.cheap else { return false }
            return cheap >= threshold && cheap.primary > Int64(labels[Int(lists[v].labels[position])].distinct)
        }
        guard !asking.isEmpty else { return ahead }
        let paths = newStadiumsOnAnyPath(labels: asking.map { Int(lists[v].labels[$0]) }, node: v)
        for (position, more) in zip(asking, paths) { ahead[position]?.more = more }
        return ahead
    }

    /// An upper bound on the (coverage, stadiums) of any trip: the best bound of a first game.
    func rootBound() -> TripKey? {
        var best: TripKey?
        for v in 0..<graph.count where facts[v].isUseful && graph.startAllowed(v) && graph.startArcs[v] != nil {
            let c = graph.candidates[v]
            var coverage = facts[v].requiredReach
            if let bit = c.requiredBit { coverage |= 1 << UInt64(bit) }
            var own = Array(repeating: UInt64(0), count: words)
            own[c.stadiumBit >> 6] |= 1 << UInt64(c.stadiumBit & 63)
            let more = own.withUnsafeBufferPointer { newStadiumsBound(node: v, bits: $0, gamesToday: 1) }
            let key = TripKey(coverage: coverage.nonzeroBitCount, primary: Int64(1 + more), secondary: 0)
            if best == nil || key > best! { best = key }
        }
        return best
    }

    private var threshold: TripKey? {
        let own = pool.count >= poolSize ? pool[pool.count - 1].key : nil
        switch (own, config.floor) {
        case let (a?, b?): return max(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    // MARK: Search

    mutating func run() {
        let n = graph.count
        for v in 0..<n where facts[v].isUseful && graph.startAllowed(v) {
            guard let arc = graph.startArcs[v] else { continue }
            let c = graph.candidates[v]
            var label = Label(
                node: Int32(v), parent: -1, games: 1, distinct: 1, gamesToday: 1, dominatedCount: 0,
                usedToday: arc.onTarget, driving: arc.seconds, requiredMask: 0)
            if let bit = c.requiredBit { label.requiredMask = 1 << UInt64(bit) }
            labels.append(label)
            alive.append(true)
            if words > 0 {
                sets.append(contentsOf: repeatElement(0, count: words))
                sets[sets.count - words + (c.stadiumBit >> 6)] |= 1 << UInt64(c.stadiumBit & 63)
            }
            insertLast(at: v)
        }
        nodes: for v in 0..<n where facts[v].isUseful {
            let canFinish = graph.mayFinish(at: v)
            let ahead = boundsAhead(at: v)
            for (position, li32) in lists[v].labels.enumerated() {
                let li = Int(li32)
                guard alive[li] else { continue }
                if mode == .exact, objective == .mostStadiums, let threshold {
                    let known = ahead.isEmpty ? nil : ahead[position]
                    let cheap = known?.cheap ?? bound(li, node: v)
                    if cheap < threshold { alive[li] = false; continue }
                    // Before expanding, the path bound (a longest path over what follows); costly, so only
                    // when the cheap bound leaves room below it to prune.
                    if config.useLongestPathBound, cheap.primary > Int64(labels[li].distinct) {
                        let more = known?.more ?? newStadiumsOnAnyPath(label: li, node: v)
                        let path = Int64(labels[li].distinct) + Int64(more)
                        if TripKey(coverage: cheap.coverage, primary: min(path, cheap.primary), secondary: cheap.secondary) < threshold {
                            alive[li] = false; pathPruned += 1; continue
                        }
                    }
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
                    let completion = Completion(label: li32, endSeconds: end.seconds, key: key(label, extraDriving: end.seconds))
                    addCompletion(completion)
                    if let stopAt = config.stopAt, completion.key >= stopAt { reachedStop = true; break nodes }
                }
                let base = li * words
                for arc in graph.arcs[v] {
                    let w = Int(arc.to)
                    guard facts[w].isUseful, graph.allowed(v, w) else { continue }
                    guard let next = graph.extend(from: v, state: state, arc: arc) else { continue }
                    let stadiumBit = graph.candidates[w].stadiumBit
                    var newLabel = Label(
                        node: Int32(w), parent: li32, games: label.games + 1, distinct: label.distinct,
                        gamesToday: Int32(next.state.gamesToday), dominatedCount: 0, usedToday: next.state.usedToday,
                        driving: label.driving + arc.seconds, requiredMask: label.requiredMask)
                    if let bit = graph.candidates[w].requiredBit { newLabel.requiredMask |= 1 << UInt64(bit) }
                    let word = stadiumBit >> 6, mask: UInt64 = 1 << UInt64(stadiumBit & 63)
                    if words > 0, sets[base + word] & mask == 0 { newLabel.distinct += 1 }
                    // Exact most stadiums: a label whose bound is below the threshold is never stored.
                    if mode == .exact, words > 0, let threshold {
                        for k in 0..<words { scratch[k] = sets[base + k] }
                        scratch[word] |= mask
                        if !facts[w].sameDateAfter { newLabel.gamesToday = 1 }
                        let more = scratch.withUnsafeBufferPointer {
                            newStadiumsBound(node: w, bits: $0, gamesToday: Int(newLabel.gamesToday))
                        }
                        var required = newLabel.requiredMask | facts[w].requiredReach
                        if let bit = graph.candidates[w].requiredBit { required |= 1 << UInt64(bit) }
                        let b = TripKey(
                            coverage: required.nonzeroBitCount, primary: Int64(Int(newLabel.distinct) + more),
                            secondary: config.countOnly ? 0 : -newLabel.driving)
                        if b < threshold { labelsPruned += 1; continue }
                    }
                    // A full beam rejects a label worse than all it holds before anything is stored.
                    if case .beam(let width) = mode, !config.rankByPotential, lists[w].labels.count >= width,
                        let floor = lists[w].beamFloor,
                        key(newLabel) <= floor
                    {
                        continue
                    }
                    labels.append(newLabel)
                    alive.append(true)
                    if words > 0 {
                        for k in 0..<words { sets.append(sets[base + k]) }
                        sets[sets.count - words + word] |= mask
                    }
                    insertLast(at: w)
                }
            }
        }
    }

    /// Stops at the budget: the bound is the best of the pool and every label not yet settled.
    private mutating func finishEarly(from v: Int) {
        var best = pool.first.map { $0.key.primary } ?? Int64.min
        for w in v..<graph.count where facts[w].isUseful {
            for li in lists[w].labels where alive[Int(li)] {
                best = max(best, bound(Int(li), node: w).primary)
            }
        }
        upperBound = best
    }

    /// Files the label just appended (with its set) at game `w`, or drops it.
    private mutating func insertLast(at w: Int) {
        let index = labels.count - 1
        // A day state that cannot change any continuation is normalised, so such labels compare equal:
        // with no same-date game after w, the games-today count never matters, and driving already done
        // that day matters only when it would cap a drive out of w.
        if !facts[w].sameDateAfter {
            labels[index].gamesToday = 1
            if labels[index].usedToday <= facts[w].freeUsedToday { labels[index].usedToday = 0 }
        }
        let newLabel = labels[index]
        switch mode {
        case .exact:
            if objective == .mostStadiums, let threshold, bound(index, node: w) < threshold {
                discardLast(); return
            }
            // Long lists (most stadiums): compare only with the labels of the same projected state (a
            // hash bucket); skipping a comparison only keeps a label dominance could have dropped.
            var bucketKey: ProjectionKey?
            if words > 0, words <= 2 {
                let rb = w * words
                bucketKey = ProjectionKey(
                    low: sets[index * words] & reach[rb], high: words > 1 ? sets[index * words + 1] & reach[rb + 1] : 0,
                    usedToday: newLabel.usedToday, gamesToday: newLabel.gamesToday, required: newLabel.requiredMask)
            }
            let entry = Entry(index, newLabel)
            if let bucketKey, lists[w].labels.count > Self.fullScanLimit {
                // Taken out of the table while it changes, so it is changed in place, not copied.
                var bucket = lists[w].buckets.removeValue(forKey: bucketKey) ?? []
                bucket.removeAll { !alive[Int($0.label)] }
                guard let dead = admitLast(entry, among: bucket, node: w) else {
                    lists[w].buckets[bucketKey] = bucket
                    discardLast(); return
                }
                if dead > 0 { bucket.removeAll { !alive[Int($0.label)] } }
                bucket.append(entry)
                lists[w].buckets[bucketKey] = bucket
                file(entry, at: w, dead: dead)
                return
            }
            guard let dead = admitLast(entry, among: lists[w].entries, node: w) else { discardLast(); return }
            if let bucketKey { lists[w].buckets[bucketKey, default: []].append(entry) }
            file(entry, at: w, dead: dead)
        case .beam(let width):
            let newKey = beamKey(index)
            while beamKeys.count < labels.count { beamKeys.append(newKey) }
            beamKeys[index] = newKey
            if lists[w].labels.count >= width, let floor = lists[w].beamFloor, newKey <= floor { discardLast(); return }
            var worst = -1
            var worstKey: TripKey?
            var died = false
            for ei in lists[w].labels where alive[Int(ei)] {
                let k = beamKeys[Int(ei)]
                if sameSet(Int(ei), index) {
                    if k >= newKey {
                        // Labels this pass killed stay listed until the next insert here clears them.
                        if died { lists[w].dead += 1 }
                        discardLast(); return
                    }
                    alive[Int(ei)] = false
                    died = true
                    continue
                }
                if worstKey == nil || k <= worstKey! { worst = Int(ei); worstKey = k }
            }
            // Only labels killed here or at an earlier insert that stopped early are dead: a list is
            // cleared only then (beam mode kills labels nowhere else).
            if died || lists[w].dead > 0 {
                lists[w].labels.removeAll { !alive[Int($0)] }
                lists[w].dead = 0
            }
            if lists[w].labels.count >= width {
                guard let worstKey, newKey > worstKey else { discardLast(); return }
                alive[worst] = false
                if let position = lists[w].labels.firstIndex(of: Int32(worst)) { lists[w].labels.remove(at: position) }
            }
            lists[w].labels.append(Int32(index))
            labelsCreated += 1
            if lists[w].labels.count >= width {
                var floor = beamKeys[Int(lists[w].labels[0])]
                for ei in lists[w].labels.dropFirst() where beamKeys[Int(ei)] < floor { floor = beamKeys[Int(ei)] }
                lists[w].beamFloor = floor
            }
        }
    }

    /// The labels of `list` (at game `w`) that the new label `index` dominates, filled by `admitLast`.
    private var dominatedByNew: [Int32] = []

    /// Exact mode: files an admitted label at game `w`, where `dead` labels of its list just died; a
    /// list half dead is compacted.
    private mutating func file(_ entry: Entry, at w: Int, dead: Int) {
        lists[w].labels.append(entry.label)
        lists[w].entries.append(entry)
        labelsCreated += 1
        largestLabelList = max(largestLabelList, lists[w].labels.count)
        lists[w].dead += dead
        if lists[w].dead * 2 > lists[w].labels.count {
            lists[w].labels.removeAll { !alive[Int($0)] }
            lists[w].entries.removeAll { !alive[Int($0.label)] }
            lists[w].dead = 0
        }
    }

    /// Exact mode: compares the new label (`new`, the last of the store) with the living labels of
    /// `list`, in one pass. Nil when it is to be dropped: a label with the same visited set dominates it,
    /// or `poolSize` labels do. Otherwise each living label it dominates counts one more dominator and
    /// dies at `poolSize`, or at once when its visited set is the same; returns how many died.
    private mutating func admitLast(_ new: Entry, among list: [Entry], node w: Int) -> Int? {
        dominatedByNew.removeAll(keepingCapacity: true)
        var dominators = 0
        let index = Int(new.label)
        for old in list {
            let ei = Int(old.label)
            guard alive[ei] else { continue }
            // What dominance needs before the sets are compared, both ways at once.
            let both = old.requiredMask & new.requiredMask
            let oldMay = old.usedToday <= new.usedToday && old.gamesToday <= new.gamesToday && both == new.requiredMask
            let newMay = new.usedToday <= old.usedToday && new.gamesToday <= old.gamesToday && both == old.requiredMask
            if oldMay, dominates(ei, old, index, new, node: w) {
                if sameSet(ei, index) { return nil }
                dominators += 1
                if dominators >= poolSize { return nil }
            }
            if newMay, dominates(index, new, ei, old, node: w) { dominatedByNew.append(old.label) }
        }
        var dead = 0
        for ei32 in dominatedByNew {
            let ei = Int(ei32)
            if sameSet(index, ei) { alive[ei] = false; dead += 1; continue }
            labels[ei].dominatedCount += 1
            if labels[ei].dominatedCount >= Int32(poolSize) { alive[ei] = false; dead += 1 }
        }
        return dead
    }

    /// Drops the label just appended (it never got children).
    private mutating func discardLast() {
        labels.removeLast()
        alive.removeLast()
        if beamKeys.count > labels.count { beamKeys.removeLast(beamKeys.count - labels.count) }
        if words > 0 { sets.removeLast(words) }
    }

    private mutating func addCompletion(_ completion: Completion) {
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

extension LabelSearch.Label: LabelSearch.Facts {}
