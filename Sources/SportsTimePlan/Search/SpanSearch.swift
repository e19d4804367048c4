import Foundation
import SportsTimeCore

/// The exact search behind `fewestDays`: is there a trip that leaves the start on day `f` and attends a
/// game at every required stadium by day `e`? A depth-first search over the season's trip graph whose
/// moves are games at required stadiums not yet visited (a game at a visited stadium, or at one not
/// required, is never needed: the drive straight on is at least as easy), with two cuts and a memo.
///
/// - Cuts, per partial trip at game v on day t with the stadiums U still to visit (a relaxation of what
///   is left: each stadium on its own, the order between them ignored): every stadium of U has a game
///   after v that the graph reaches within the window (`reach`), and U fits the days left one game a
///   day (`maxGamesPerDay` a day): for every day d, the stadiums whose last reachable game is on or
///   before d fit the days t…d, and those whose first reachable game is on or after d fit the days d…e.
/// - Memo: a state (game, visited set, day state) refuted for window end e is refuted for every end up
///   to e, whatever the first day, so the windows share it.
///
/// Days are counted from the request's first date. Not thread-safe (one search, one graph).
struct SpanSearch {
    enum Answer: Equatable {
        case found([Int])
        /// No trip; `atRoot`: the cuts refuted the window before any game was tried.
        case refuted(atRoot: Bool)
        case outOfBudget
    }

    /// A partial trip as the memo files it: its game (earliest arrival: its stadium), the games it
    /// attended that date and the required stadiums visited.
    struct State: Hashable {
        var node: Int32
        var games: Int32
        var visited: UInt64
    }

    let graph: TripGraph
    let day: [Int]
    let bit: [UInt64]
    let lane: [Int]
    let required: UInt64
    let perDay: Int
    /// Per game: the most already driven on its date under which every drive out of it is unaffected.
    let free: [Int64]
    /// Per game, for the current window end: the required stadiums with a game it reaches (itself too).
    private var reach: [UInt64]
    /// Per required stadium (lane) and day d of the season: its first game day on or after d (`season`:
    /// none), and its last game day on or before d (-1: none); `days + 1` entries a lane.
    private let nextGame: [Int]
    private let lastGame: [Int]
    private let days: Int

    private var first = 0
    private var end = 0
    private var failed: [State: Refuted] = [:]
    struct Refuted {
        var arrival: Int32
        var used: Int64
        var end: Int16
    }
    /// Whether moves go only to each stadium's first reachable game (no must-see games, no rest days).
    let earliestArrival: Bool
    /// Per game: the next game at the same stadium.
    let nextHere: [Int?]
    static let memoLimit = 2_000_000
    private var spent = 0
    private var budget = 0
    /// Discrepancies left (nil: exact).
    private var discrepancies: Int?
    private(set) var expanded = 0
    private var path: [Int] = []
    private var prepared = false
    /// Scratch of `fits`: stadiums by the day of their last and of their first reachable game.
    private var byLast: [Int] = []
    private var byFirst: [Int] = []

    /// nil when the request's required stadiums with games are more than 64 (one bit each).
    init?(graph: TripGraph) {
        let count = graph.requiredWithGames.count
        guard count <= 64 else { return nil }
        self.graph = graph
        let first = graph.request.firstDate
        day = graph.candidates.map { first.days(until: $0.date) }
        lane = graph.candidates.map { $0.requiredBit ?? -1 }
        bit = lane.map { $0 < 0 ? 0 : 1 << UInt64($0) }
        required = count == 64 ? ~0 : (1 << UInt64(count)) - 1
        perDay = max(1, graph.request.maxGamesPerDay)
        free = graph.arcs.indices.map { v in
            graph.capSeconds - max(graph.endArcs[v]?.onOrigin ?? 0, graph.arcs[v].map(\.onOrigin).max() ?? 0)
        }
        earliestArrival = graph.mustSeeOrder.isEmpty && graph.request.restDays == 0
        var next: [Int?] = Array(repeating: nil, count: graph.count)
        var last: [Int: Int] = [:]
        for v in stride(from: graph.count - 1, through: 0, by: -1) {
            next[v] = last[graph.candidates[v].stadiumBit]
            last[graph.candidates[v].stadiumBit] = v
        }
        nextHere = next
        let n = graph.count
        reach = Array(repeating: 0, count: n)
        let days = first.days(until: graph.request.lastDate) + 1
        self.days = days
        var played = Array(repeating: false, count: count * (days + 1))
        for v in 0..<n where lane[v] >= 0 && day[v] < days { played[lane[v] * (days + 1) + day[v]] = true }
        var nextDay = Array(repeating: days, count: count * (days + 1))
        var lastDay = Array(repeating: -1, count: count * (days + 1))
        for q in 0..<count {
            let base = q * (days + 1)
            for d in 0..<days { lastDay[base + d] = played[base + d] ? d : (d > 0 ? lastDay[base + d - 1] : -1) }
            for d in stride(from: days - 1, through: 0, by: -1) { nextDay[base + d] = played[base + d] ? d : nextDay[base + d + 1] }
        }
        nextGame = nextDay
        lastGame = lastDay

    }

    /// Whether a trip leaving the start on day `f` attends a game at every required stadium by day `e`,
    /// expanding at most `budget` partial trips.
    ///
    /// With `discrepancies`, a heuristic: only trips that leave the search's order (each game's k-th move
    /// costs k) at most that many times in all; nothing is refuted then (`.refuted` proves nothing) and
    /// the memo only read.
    mutating func solve(first f: Int, end e: Int, budget: Int, discrepancies: Int? = nil) -> Answer {
        prepare(first: f, end: e)
        self.budget = budget
        self.discrepancies = discrepancies
        spent = 0
        let date = graph.request.firstDate.adding(days: f)
        var roots: [(Int, TripGraph.DayState)] = []
        var rootReach: UInt64 = 0
        var rooted: UInt64 = 0
        for v in 0..<graph.count where day[v] >= f && day[v] <= e && moves(to: v) && graph.startAllowed(v) {
            // Earliest arrival: a stadium's first game reached from the start (staying on reaches the later ones).
            guard !earliestArrival || rooted & bit[v] == 0, let arc = graph.startArc(to: v, leaving: date) else { continue }
            rooted |= bit[v]
            roots.append((v, TripGraph.DayState(usedToday: arc.onTarget, gamesToday: 1)))
            rootReach |= reach[v]
        }
        guard fits(required, reach: rootReach, day: f - 1, games: perDay) else {
            return .refuted(atRoot: true)
        }
        for (index, (v, state)) in roots.enumerated() {
            path = []
            switch step(to: v, state: state, visited: bit[v], rank: index) {
            case .found?: return .found(path)
            case .outOfBudget?: return .outOfBudget
            default: continue
            }
        }
        return .refuted(atRoot: false)
    }

    /// Whether the search may move to game v: a required stadium's game, or a must-see game.
    private func moves(to v: Int) -> Bool { bit[v] != 0 || graph.candidates[v].mustSeeRank != nil }

    private mutating func visit(_ v: Int, state: TripGraph.DayState, visited: UInt64) -> Answer {
        if visited == required, graph.mayFinish(at: v),
            graph.endArc(from: v, state: state, deadline: graph.endDeadline(on: graph.request.firstDate.adding(days: end))) != nil
        {
            return .found([])
        }
        let used = state.usedToday <= free[v] ? 0 : state.usedToday
        let key = State(node: earliestArrival ? Int32(lane[v]) : Int32(v), games: Int32(state.gamesToday), visited: visited)
        if let refuted = failed[key], Int(refuted.end) >= end, dominates(refuted, v, used) { return .refuted(atRoot: false) }
        let left = required & ~visited
        guard fits(left, reach: reach[v], day: day[v], games: state.gamesToday) else {
            return .refuted(atRoot: false)
        }
        if spent >= budget { return .outOfBudget }
        spent += 1
        expanded += 1
        let answer = earliestArrival ? nextStadiums(from: v, state: state, left: left) : nextGames(from: v, state: state, left: left)
        if answer == .refuted(atRoot: false), discrepancies == nil, failed.count < Self.memoLimit || failed[key] != nil {
            failed[key] = Refuted(arrival: Int32(v), used: used, end: Int16(end))
        }
        return answer
    }

    /// A refuted state refutes a later one with the same stadium and visited set: arriving at a game
    /// no earlier (on a later date it can wait there, with nothing driven that day), no fresher.
    private func dominates(_ refuted: Refuted, _ v: Int, _ used: Int64) -> Bool {
        let a = Int(refuted.arrival)
        if a == v { return refuted.used <= used }
        return earliestArrival && a < v && day[a] < day[v]
    }

    /// Every game of a stadium still to visit (or a must-see game) the arcs of v reach.
    private mutating func nextGames(from v: Int, state: TripGraph.DayState, left: UInt64) -> Answer {
        var rank = 0
        for arc in graph.arcs[v] {
            let w = Int(arc.to)
            guard day[w] <= end, bit[w] & left != 0 || graph.candidates[w].mustSeeRank != nil, graph.allowed(v, w),
                let next = graph.extend(from: v, state: state, arc: arc)
            else { continue }
            if let answer = step(to: w, state: next.state, visited: ~left & required | bit[w], rank: rank) { return answer }
            rank += 1
        }
        return .refuted(atRoot: false)
    }

    /// Earliest arrival: for each stadium still to visit, only its first game reachable from v, or from
    /// v's next game at the same stadium when v's own driving that day holds the drive back (staying
    /// there reaches everything a later game there does).
    private mutating func nextStadiums(from v: Int, state: TripGraph.DayState, left: UInt64) -> Answer {
        var targets: [(w: Int, via: Int?, state: TripGraph.DayState)] = []
        var open = left
        func scan(_ x: Int, _ xState: TripGraph.DayState, via: Int?) {
            for arc in graph.arcs[x] where open != 0 {
                let w = Int(arc.to)
                guard day[w] <= end else { break }
                guard bit[w] & open != 0, let next = graph.extend(from: x, state: xState, arc: arc) else { continue }
                open &= ~bit[w]
                targets.append((w, via, next.state))
            }
        }
        scan(v, state, via: nil)
        if open != 0, state.usedToday > free[v], let x = nextHere[v], day[x] <= end {
            let fresh = TripGraph.DayState(usedToday: 0, gamesToday: 1)
            if day[x] > day[v] { scan(x, fresh, via: x) }
        }
        // Soonest first; on one day, the stadium whose games in the window end first.
        func urgency(_ w: Int) -> (Int, Int, Int) { (day[w], lastGame[lane[w] * (days + 1) + end], w) }
        targets.sort { urgency($0.w) < urgency($1.w) }
        for (rank, target) in targets.enumerated() {
            if let via = target.via { path.append(via) }
            if let answer = step(to: target.w, state: target.state, visited: ~left & required | bit[target.w], rank: rank) {
                return answer
            }
            if target.via != nil { path.removeLast() }
        }
        return .refuted(atRoot: false)
    }

    /// Visits w, the `rank`-th move in the search's order, on the path; the answer when it ends the search
    /// (found, out of budget), nil when refuted (or, with discrepancies, when the move costs too many).
    private mutating func step(to w: Int, state: TripGraph.DayState, visited: UInt64, rank: Int) -> Answer? {
        let left = discrepancies
        if let left {
            guard rank <= left else { return nil }
            discrepancies = left - rank
        }
        defer { discrepancies = left }
        path.append(w)
        let answer = visit(w, state: state, visited: visited)
        if case .refuted = answer {
            path.removeLast()
            return nil
        }
        return answer
    }

    /// The cuts: every stadium of `left` reachable, and `left` fitting the days from `t` (where `games`
    /// games are already attended) to the window's end by each stadium's last and first game in the
    /// window: never more due by a day, or from a day on, than games fit in those days.
    private mutating func fits(_ left: UInt64, reach: UInt64, day t: Int, games: Int) -> Bool {
        guard left & ~reach == 0 else { return false }
        let span = end - t
        guard span >= 0 else { return left == 0 }
        if byLast.count <= span {
            byLast = Array(repeating: 0, count: span + 1)
            byFirst = byLast
        }
        for k in 0...span { byLast[k] = 0; byFirst[k] = 0 }
        var bits = left
        while bits != 0 {
            let q = bits.trailingZeroBitCount
            bits &= bits - 1
            let base = q * (days + 1)
            let firstDay = nextGame[base + max(first, t)], lastDay = lastGame[base + end]
            guard firstDay <= lastDay else { return false }
            byLast[lastDay - t] += 1
            byFirst[end - firstDay] += 1
        }
        // Games that still fit: on day t, perDay − games; on each later day, perDay.
        var dueByNow = 0, dueFromNow = 0
        for k in 0...span {
            dueByNow += byLast[k]
            dueFromNow += byFirst[k]
            if dueByNow > perDay * (k + 1) - games { return false }
            if dueFromNow > perDay * (k + 1) - (k == span ? games : 0) { return false }
        }
        return true
    }

    /// The facts of the games in days f…e, for window end e (worked backwards over the arcs).
    private mutating func prepare(first f: Int, end e: Int) {
        if prepared, e == end, f >= first { return }
        prepared = true
        first = f
        end = e
        for v in stride(from: graph.count - 1, through: 0, by: -1) where day[v] >= f {
            guard day[v] <= e else { continue }
            var r: UInt64 = bit[v]
            for arc in graph.arcs[v] where day[Int(arc.to)] <= e { r |= reach[Int(arc.to)] }
            reach[v] = r
        }
    }
}
