import Foundation
import SportsTimeCore

/// Plans one request: builds the trip DAG, runs the exact search for the objective (beam-seeded and
/// budgeted for most stadiums), fits stops, picks distinct ranked options, and explains conflicts and
/// infeasibility. Pure: values in, a `TripPlan` out.
public enum TripPlanner {
    public static func plan(_ request: PlanRequest, catalog: PlanCatalog) -> TripPlan {
        if request.objective == .fewestDays { return FewestDays(request: request, catalog: catalog).run() }
        return Planning(request: request, catalog: catalog).run()
    }
}

/// A completed trip of a search: the search that holds its labels, and the completion.
typealias Found = (search: LabelSearch, completion: LabelSearch.Completion)

/// The result of the search phase, before stops and diversity.
struct SearchOutcome {
    /// Candidate trips (game candidate indices), best first.
    var paths: [[Int]]
    var keys: [TripKey]
    var method: SearchMethod
    var isExact: Bool
    var upperBound: Double? = nil
    var labelsExpanded: Int
    var arcs: Int
    /// The best (coverage, primary) any trip reaches, when the search was exact.
    var optimum: TripKey? = nil
    var warnings: [PlanWarning]
    /// Most stadiums: whether the driving tie-break among trips of the optimal value is proven too
    /// (nil for the other objectives, whose single exact search decides both at once).
    var tieBreakExact: Bool?
}

struct Planning {
    let request: PlanRequest
    let catalog: PlanCatalog
    /// A trip already found (game ids, in order), laid out instead of searching (fewest days).
    var given: [String]? = nil
    /// At most this many extra searches (each avoiding one stadium) look for distinct alternatives.
    static let maxAvoidSearches = 12

    func run() -> TripPlan {
        let graph = TripGraph(request: request, catalog: catalog)
        let explainer = Explainer(graph: graph)
        var warnings = planWarnings(graph)
        let conflicts = mustSeeConflicts(graph, explainer)
        let outcome =
            given.map { ids in
                SearchOutcome(
                    paths: [ids.compactMap { id in graph.candidates.firstIndex { $0.game.id == id } }], keys: [], method: .windowSearch,
                    isExact: true, labelsExpanded: 0, arcs: graph.arcs.reduce(0) { $0 + $1.count }, warnings: [],
                    tieBreakExact: false)
            } ?? search(graph)
        warnings += outcome.warnings
        var report = SearchReport(
            method: SearchMethods([outcome.method]), isExact: outcome.isExact, upperBound: outcome.upperBound,
            candidateGames: graph.count, arcs: outcome.arcs, labelsExpanded: outcome.labelsExpanded,
            tieBreakExact: outcome.tieBreakExact)
        if !conflicts.isEmpty {
            let branches = self.branches(graph: graph, conflicts: conflicts)
            if !branches.isEmpty { warnings.append(.mustSeeBranches) }
            return TripPlan(
                id: request.id, request: request.resolved, options: [],
                conflicts: conflicts.map { PlanConflict(gameIds: [$0.a, $0.b], reason: $0.reason) },
                infeasibility: sentence(conflicts[0].reason), warnings: warnings.map(\.text), search: report,
                branches: branches.isEmpty ? nil : branches)
        }

        // Lay out every candidate trip (fitting stops), rank by what the trips really are.
        var trips = LaidOutTrips(planning: self, graph: graph)
        var candidatePaths = outcome.paths
        if graph.mustSeeOrder.isEmpty, !graph.requiredStops.isEmpty || (!request.requiredStadiumIds.isEmpty && candidatePaths.isEmpty) {
            candidatePaths.append([]) // a trip of stops only
        }
        trips.add(candidatePaths)
        guard !trips.all.isEmpty else {
            let reason = infeasibility(graph: graph, explainer: explainer, outcome: outcome, stopFailures: trips.stopFailures)
            return TripPlan(
                id: request.id, request: request.resolved, options: [], conflicts: [],
                infeasibility: sentence(reason), warnings: warnings.map(\.text), search: report)
        }

        let picked = pickDistinct(&trips, graph: graph, outcome: outcome)
        if picked.chosen.count < request.optionCount {
            warnings.append(
                .fewDistinctTrips(
                    found: picked.chosen.count, asked: request.optionCount,
                    exist: outcome.isExact && outcome.paths.count < request.candidatePool, among: outcome.paths.count))
        }
        if trips.internalFailures > 0 { warnings.append(.notLaidOut(trips: trips.internalFailures)) }
        let options = self.options(picked, trips: trips, graph: graph, outcome: outcome)
        let stopOrderings = Set(picked.chosen.compactMap { trips.all[$0].placement.method }).sorted { $0.rawValue < $1.rawValue }
        report.labelsExpanded += picked.extraLabels
        report.method.steps += stopOrderings
        if stopOrderings.contains(where: \.isHeuristicStopOrdering) {
            warnings.append(.stopsOrderedHeuristically(heldKarpLimit: request.search.heldKarpLimit))
        }
        return TripPlan(
            id: request.id, request: request.resolved, options: options, conflicts: [], infeasibility: nil,
            warnings: warnings.map(\.text), search: report)
    }

    // MARK: Options

    /// The candidate trips laid out (stops fitted), best first: by key, then the games' ids, then the order
    /// they were laid out in.
    struct LaidOutTrips {
        struct Trip {
            var path: [Int]
            var placement: StopInserter.Placement
            var key: TripKey
            var order: Int
        }
        let planning: Planning
        let graph: TripGraph
        let inserter: StopInserter
        private(set) var all: [Trip] = []
        private var seenPaths = Set<[Int]>()
        /// Trips no order of the required stops fits, and trips without stops that could not be laid out.
        private(set) var stopFailures = 0
        private(set) var internalFailures = 0

        init(planning: Planning, graph: TripGraph) {
            self.planning = planning
            self.graph = graph
            inserter = StopInserter(graph: graph, simulator: ItinerarySimulator(graph: graph))
        }

        mutating func add(_ paths: [[Int]]) {
            let required = planning.request.requiredStadiumIds
            for path in paths where seenPaths.insert(path).inserted {
                let covered = Set(path.map { graph.candidates[$0].game.stadiumId })
                let stops = required.filter { !covered.contains($0) }.compactMap { graph.placeIndex(ofStadium: $0) }
                guard let placement = inserter.place(stops: stops, into: path) else {
                    if stops.isEmpty { internalFailures += 1 } else { stopFailures += 1 }
                    continue
                }
                let key = planning.key(of: placement.itinerary, graph: graph)
                all.append(Trip(path: path, placement: placement, key: key, order: all.count))
            }
            all.sort { a, b in
                if a.key != b.key { return a.key > b.key }
                let ia = a.path.map { graph.candidates[$0].game.id }, ib = b.path.map { graph.candidates[$0].game.id }
                if ia != ib { return ia.lexicographicallyPrecedes(ib) }
                return a.order < b.order
            }
        }

        /// The stadiums a trip visits, with its stops.
        func stadiums(_ i: Int) -> Set<String> {
            Set(all[i].path.map { graph.candidates[$0].game.stadiumId }).union(planning.request.requiredStadiumIds)
        }

        /// The best trips that each differ from every better one chosen in at least 2 stadiums.
        func distinct(count: Int) -> [Int] {
            var chosen: [Int] = []
            for i in all.indices where chosen.count < count {
                let set = stadiums(i)
                if chosen.allSatisfy({ set.symmetricDifference(stadiums($0)).count >= 2 }) { chosen.append(i) }
            }
            return chosen
        }
    }

    /// The trips chosen as options (indices into the laid-out trips, in rank order), the warnings of those
    /// that are not distinct, and the labels the extra searches expanded.
    struct Picked {
        var chosen: [Int]
        var warnings: [Int: PlanWarning] = [:]
        var extraLabels = 0
    }

    /// Distinct options: each differs from every better option in at least 2 stadiums. When the k best
    /// trips are variants of the same stadiums, more candidates come from exact searches that avoid one
    /// stadium of the options chosen so far (never a must-see or required one); when still too few, the
    /// closest remaining trips fill in, with a warning.
    func pickDistinct(_ trips: inout LaidOutTrips, graph: TripGraph, outcome: SearchOutcome) -> Picked {
        var picked = Picked(chosen: trips.distinct(count: request.optionCount))
        let protected = Set(request.requiredStadiumIds).union(graph.mustSeeOrder.map { graph.candidates[$0].game.stadiumId })
        var avoided: [String] = []
        while picked.chosen.count < request.optionCount, avoided.count < Self.maxAvoidSearches {
            // Avoid first the stadium the chosen options visit least: dropping it changes a trip least.
            var visits: [String: Int] = [:]
            for i in picked.chosen {
                for node in trips.all[i].path { visits[graph.candidates[node].game.stadiumId, default: 0] += 1 }
            }
            let next = visits.keys.filter { !protected.contains($0) && !avoided.contains($0) }
                .sorted { (visits[$0]!, $0) < (visits[$1]!, $1) }
            guard let stadium = next.first else { break }
            avoided.append(stadium)
            let extra = search(graph, avoiding: [stadium], poolSize: 1)
            picked.extraLabels += extra.labelsExpanded
            trips.add(extra.paths)
            picked.chosen = trips.distinct(count: request.optionCount)
        }
        guard picked.chosen.count < request.optionCount else { return picked }
        for i in trips.all.indices where picked.chosen.count < request.optionCount && !picked.chosen.contains(i) {
            let set = trips.stadiums(i)
            func difference(_ j: Int) -> Int { set.symmetricDifference(trips.stadiums(j)).count }
            if let closest = picked.chosen.min(by: { difference($0) < difference($1) }) {
                picked.warnings[i] = .similarOption(
                    rank: picked.chosen.firstIndex(of: closest)! + 1, stadiums: difference(closest), among: outcome.paths.count,
                    avoided: avoided)
            }
            picked.chosen.append(i)
        }
        picked.chosen.sort()
        return picked
    }

    /// The chosen trips as ranked options.
    func options(_ picked: Picked, trips: LaidOutTrips, graph: TripGraph, outcome: SearchOutcome) -> [TripOption] {
        let builder = OptionBuilder(graph: graph, catalog: catalog)
        return picked.chosen.enumerated().map { rank, i in
            let trip = trips.all[i]
            let stops = trip.placement.itinerary.stops
            var proven = false
            if outcome.isExact, let optimum = outcome.optimum {
                let sameValue = trip.key.coverage == optimum.coverage && trip.key.primary == optimum.primary
                proven = sameValue && !(!stops.isEmpty && request.objective == .leastDriving)
            }
            var warnings = picked.warnings[i].map { [$0] } ?? []
            let stopped = stops.compactMap { graph.places[$0.place].stadiumId }
            if !stopped.isEmpty {
                warnings.append(.visitedWithoutGame(stadiums: stopped, visitHours: graph.model.stadiumVisitHours))
            }
            return builder.option(trip.placement.itinerary, rank: rank + 1, isProvenOptimal: proven, warnings: warnings.map(\.text))
        }
    }

    // MARK: Search

    func search(_ graph: TripGraph, avoiding: Set<String> = [], poolSize: Int? = nil) -> SearchOutcome {
        let pool = poolSize ?? request.candidatePool
        let excluded = avoiding.isEmpty ? nil : graph.candidates.map { avoiding.contains($0.game.stadiumId) }
        let budget = request.search.labelBudget
        var result: SearchResult
        switch request.objective {
        case .mostGames, .leastDriving:
            var search = LabelSearch(
                graph: graph,
                .init(objective: request.objective, poolSize: pool, labelBudget: budget, excluded: excluded))
            search.run()
            result = SearchResult(
                primary: search, expanded: search.labelsExpanded,
                method: request.objective == .mostGames ? .exactLongestPath : .exactShortestPath, found: search.found)
        case .fewestDays:
            preconditionFailure("fewestDays is planned by FewestDays, which plans its window as most stadiums")
        case .mostStadiums where !avoiding.isEmpty:
            // Alternatives that avoid a stadium: a narrower beam search is enough (whether an alternative is
            // optimal is decided against the main search's proven value).
            var beam = LabelSearch(
                graph: graph,
                .init(
                    objective: .mostStadiums, mode: .beam(width: max(4, request.search.beamWidth / 4)), poolSize: pool,
                    labelBudget: budget, excluded: excluded))
            beam.run()
            result = SearchResult(primary: beam, expanded: beam.labelsExpanded, method: .beam, isExact: false, found: beam.found)
        case .mostStadiums:
            result = mostStadiums(graph, excluded: excluded, pool: pool)
        }
        // Unique paths, best first; ties by the games' ids.
        var seen = Set<[Int]>()
        var ranked: [(path: [Int], key: TripKey)] = []
        for entry in result.found {
            let path = entry.search.path(of: entry.completion.label)
            if seen.insert(path).inserted { ranked.append((path, entry.completion.key)) }
        }
        ranked.sort { a, b in
            if a.key != b.key { return a.key > b.key }
            return a.path.map { graph.candidates[$0].game.id }.lexicographicallyPrecedes(b.path.map { graph.candidates[$0].game.id })
        }
        let primary = result.primary
        var arcs = 0
        for u in 0..<graph.count where primary.isUseful(u) {
            for arc in graph.arcs[u] where primary.isUseful(Int(arc.to)) && graph.allowed(u, Int(arc.to)) { arcs += 1 }
        }
        let optimum = result.isExact ? ranked.first.map { TripKey(coverage: $0.key.coverage, primary: $0.key.primary, secondary: 0) } : nil
        return SearchOutcome(
            paths: ranked.map(\.path), keys: ranked.map(\.key), method: result.method, isExact: result.isExact,
            upperBound: result.upperBound,
            labelsExpanded: result.expanded, arcs: arcs, optimum: optimum, warnings: result.warnings,
            tieBreakExact: result.tieBreakExact)
    }

    /// What one objective's searches found: the search whose graph facts count the arcs, the labels
    /// expanded, the trips found, and how far they are proven.
    struct SearchResult {
        var primary: LabelSearch
        var expanded: Int
        var method: SearchMethod
        var isExact = true
        var upperBound: Double?
        var tieBreakExact: Bool?
        var found: [Found]
        var warnings: [PlanWarning] = []
    }

    /// Target-first passes: count-only exact searches asking "is there a trip reaching this (coverage,
    /// stadiums)?", sharing one label budget; each raises `best` when it reaches its target.
    struct TargetPasses {
        enum Answer { case reached, refuted, outOfBudget }
        let graph: TripGraph
        let excluded: [Bool]?
        let budget: Int
        /// The best (coverage, stadiums) found so far, driving ignored.
        var best: TripKey?
        var spent = 0
        var expanded = 0
        var found: [Found] = []

        mutating func ask(_ target: TripKey) -> Answer {
            var search = LabelSearch(graph: graph, .reaching(target, labelBudget: max(0, budget - spent), excluded: excluded))
            search.run()
            spent += search.labelsCreated
            expanded += search.labelsExpanded
            found += search.found
            guard search.reachedStop else { return search.isExhausted ? .refuted : .outOfBudget }
            let reached = Planning.value(search.pool[0].key)
            if best == nil || reached > best! { best = reached }
            return .reached
        }

        /// From `root` (an upper bound) down: coverage first (the most required stadiums any trip can
        /// attend), then stadiums down to one above the best found. Returns the highest value not refuted
        /// (the proven upper bound) and whether the best found is proven to reach it.
        mutating func prove(from root: TripKey) -> (open: TripKey, proven: Bool) {
            var open = Planning.value(root)
            while best == nil || open.coverage > best!.coverage {
                switch ask(TripKey(coverage: open.coverage, primary: 0, secondary: Int64.min)) {
                case .reached: break
                case .refuted:
                    if open.coverage == 0 { return (open, true) } // no trip at all
                    open = TripKey(coverage: open.coverage - 1, primary: root.primary, secondary: Int64.min)
                case .outOfBudget: return (open, false)
                }
            }
            while open.primary > best!.primary {
                switch ask(open) {
                case .reached: return (open, true)
                case .refuted: open.primary -= 1
                case .outOfBudget: return (open, false)
                }
            }
            return (open, true)
        }
    }

    /// A key's value (coverage, stadiums), driving ignored.
    static func value(_ key: TripKey) -> TripKey { TripKey(coverage: key.coverage, primary: key.primary, secondary: Int64.min) }

    /// Most stadiums, target first. Two beams (one ranking partial trips by value, one by stadium
    /// potential) give a first trip; then, from the root bound downward, count-only exact passes ask
    /// "is there a trip with this (coverage, stadiums)?" — each refuted target lowers the bound, the first
    /// target reached is the proven optimum. A last exact pass, floored at the optimum, proves the
    /// driving tie-break (the least driving among trips of that value) and gathers the k best; when it
    /// runs out of budget the value stays proven and the driving is the best found.
    /// The label budget is shared by the count passes; the tie-break pass has its own.
    func mostStadiums(_ graph: TripGraph, excluded: [Bool]?, pool: Int) -> SearchResult {
        let budget = request.search.labelBudget
        let width = request.search.beamWidth
        let beams = seedBeams(graph, excluded: excluded, pool: pool)
        let seeded = beams.value.found + beams.potential.found
        guard let root = beams.value.rootBound() else {
            return SearchResult(primary: beams.value, expanded: beams.expanded, method: .exactLabelSetting, tieBreakExact: true, found: [])
        }
        var passes = TargetPasses(
            graph: graph, excluded: excluded, budget: budget, best: seeded.map { Self.value($0.completion.key) }.max())
        let (open, proven) = passes.prove(from: root)
        var result = SearchResult(
            primary: beams.value, expanded: beams.expanded + passes.expanded, method: .exactTargetFirst, isExact: proven,
            found: seeded + passes.found)
        if proven, let optimum = passes.best {
            // The tie-break: least driving (then the k best) among trips reaching the optimum.
            var exact = LabelSearch(
                graph: graph, .init(objective: .mostStadiums, poolSize: pool, labelBudget: budget, excluded: excluded, floor: optimum))
            exact.run()
            result.expanded += exact.labelsExpanded
            result.primary = exact
            result.tieBreakExact = exact.isExhausted
            if exact.isExhausted {
                result.found = exact.found
            } else {
                result.found += exact.found
                result.warnings.append(.tieBreakUnproven(stadiums: optimum.primary, labelBudget: budget))
            }
        } else if proven {
            result.tieBreakExact = true // no trip at all
        } else {
            let found = passes.best.map { Double($0.primary) } ?? 0
            let bound = max(Double(open.primary), found)
            result.method = .beam
            result.upperBound = bound
            result.warnings.append(.exactSearchStopped(labelBudget: budget, beamWidth: width, found: found, bound: bound))
        }
        result.found.sort { $0.completion.key > $1.completion.key }
        return result
    }

    /// The two seeding beams, which are independent: the one ranked by potential runs on another core
    /// meanwhile, on a copy of the graph (a graph's memos are not shared between threads).
    func seedBeams(_ graph: TripGraph, excluded: [Bool]?, pool: Int) -> (value: LabelSearch, potential: LabelSearch, expanded: Int) {
        var configuration = LabelSearch.Configuration(
            objective: .mostStadiums, mode: .beam(width: request.search.beamWidth), poolSize: pool,
            labelBudget: request.search.labelBudget, excluded: excluded)
        let copy = HandOver(TripGraph(copying: graph))
        configuration.rankByPotential = true
        let potentialRun = Background { [configuration] () -> HandOver<LabelSearch> in
            var search = LabelSearch(graph: copy.value, configuration)
            search.run()
            return HandOver(search)
        }
        configuration.rankByPotential = false
        var value = LabelSearch(graph: graph, configuration)
        value.run()
        let potential = potentialRun.value().value
        return (value, potential, value.labelsExpanded + potential.labelsExpanded)
    }

    /// The ranking key of a laid-out trip (the same order the search uses).
    func key(of itinerary: Itinerary, graph: TripGraph) -> TripKey {
        var covered = Set<String>()
        for visit in itinerary.visits {
            let id = graph.candidates[visit.candidate].game.stadiumId
            if graph.requiredWithGames.contains(id) { covered.insert(id) }
        }
        let games = Int64(itinerary.visits.count)
        let distinct = Int64(Set(itinerary.visits.map { graph.candidates[$0.candidate].game.stadiumId }).count)
        let driving = itinerary.drivingSeconds
        switch request.objective {
        case .mostGames: return TripKey(coverage: covered.count, primary: games, secondary: -driving)
        case .mostStadiums, .fewestDays: return TripKey(coverage: covered.count, primary: distinct, secondary: -driving)
        case .leastDriving: return TripKey(coverage: covered.count, primary: -driving, secondary: games)
        }
    }

    // MARK: Conflicts, branches, infeasibility

    struct Conflict { var u: Int; var v: Int; var a: String; var b: String; var reason: String }

    /// Must-see pairs no trip can attend both of (no path between them in the DAG of all games).
    func mustSeeConflicts(_ graph: TripGraph, _ explainer: Explainer) -> [Conflict] {
        let order = graph.mustSeeOrder
        guard order.count >= 2 else { return [] }
        var conflicts: [Conflict] = []
        for (i, u) in order.enumerated() {
            var reachable = Array(repeating: false, count: graph.count)
            reachable[u] = true
            let last = order.last!
            for x in u...last where reachable[x] {
                for arc in graph.arcs[x] where Int(arc.to) <= last { reachable[Int(arc.to)] = true }
            }
            for v in order[(i + 1)...] where !reachable[v] {
                let reason =
                    explainer.pairReason(u, v)
                    ?? "no sequence of games joins must-see games \(graph.candidates[u].game.id) and \(graph.candidates[v].game.id) within the limits"
                conflicts.append(Conflict(u: u, v: v, a: graph.candidates[u].game.id, b: graph.candidates[v].game.id, reason: reason))
            }
        }
        return conflicts
    }

    /// The best trip for each largest set of must-see games that do not conflict (at most 4 branches).
    func branches(graph: TripGraph, conflicts: [Conflict]) -> [TripOption] {
        let ids = graph.mustSeeOrder.map { graph.candidates[$0].game.id }
        guard ids.count <= 12 else { return [] }
        var compatible = Array(repeating: Array(repeating: true, count: ids.count), count: ids.count)
        for c in conflicts {
            guard let i = ids.firstIndex(of: c.a), let j = ids.firstIndex(of: c.b) else { continue }
            compatible[i][j] = false; compatible[j][i] = false
        }
        // Maximal compatible sets (Bron–Kerbosch).
        var sets: [[Int]] = []
        func extend(_ r: [Int], _ p: [Int], _ x: [Int]) {
            if p.isEmpty && x.isEmpty { sets.append(r); return }
            var p = p, x = x
            for v in p {
                extend(r + [v], p.filter { $0 != v && compatible[v][$0] }, x.filter { compatible[v][$0] })
                p.removeAll { $0 == v }
                x.append(v)
            }
        }
        extend([], Array(ids.indices), [])
        sets = sets.map { $0.sorted() }.sorted { a, b in a.count != b.count ? a.count > b.count : a.lexicographicallyPrecedes(b) }
        var result: [TripOption] = []
        for set in sets.prefix(4) {
            var sub = request
            sub.mustSeeGameIds = set.map { ids[$0] }
            sub.optionCount = 1
            let plan = Planning(request: sub, catalog: catalog).run()
            guard var option = plan.options.first, plan.conflicts.isEmpty else { continue }
            let dropped = ids.indices.filter { !set.contains($0) }.map { ids[$0] }
            option.rank = result.count + 1
            option.score.mustSeeTotal = ids.count
            option.warnings.insert(
                "attends must-see \(set.map { ids[$0] }.joined(separator: ", ")); leaves out \(dropped.joined(separator: ", ")) (conflict)",
                at: 0)
            result.append(option)
        }
        return result
    }

    func infeasibility(graph: TripGraph, explainer: Explainer, outcome: SearchOutcome, stopFailures: Int) -> String {
        if stopFailures > 0 {
            let stops = request.requiredStadiumIds.joined(separator: ", ")
            return "the required stadiums (\(stops)) cannot all be fitted into any of the \(outcome.paths.count) best trips: "
                + "a stop without a game takes \(Format.hours(graph.model.stadiumVisitHours)) h inside the driving window "
                + "(\(Format.clock(minutes: graph.model.drivingWindowStartMinute))–\(Format.clock(minutes: graph.model.drivingWindowEndMinute))) "
                + "and the drives must still meet every game and the \(Format.hours(graph.model.maxDrivingHoursPerDay)) h daily limit"
        }
        if graph.count == 0 {
            return explainer.noGamesReason(catalog: catalog)
        }
        if let first = graph.mustSeeOrder.first {
            if graph.startArcs[first] == nil { return explainer.startReason(first, label: "must-see game") }
            if let last = graph.mustSeeOrder.last, graph.endArcs[last] == nil { return explainer.endReason(last, label: "must-see game") }
            return "the must-see games \(request.mustSeeGameIds.joined(separator: ", ")) cannot all be attended on one trip: "
                + "each pair can be joined, but not with the drives before and after them on the same days under the "
                + "\(Format.hours(graph.model.maxDrivingHoursPerDay)) h daily limit"
        }
        let reachable = (0..<graph.count).filter { graph.startArcs[$0] != nil }
        if reachable.isEmpty {
            let nearest = (0..<graph.count).min { a, b in
                let da = graph.drive(graph.startPlace, graph.candidates[a].place)?.seconds ?? .max
                let db = graph.drive(graph.startPlace, graph.candidates[b].place)?.seconds ?? .max
                return (da, a) < (db, b)
            }!
            return "no game in the window can be reached from the start in time; the nearest: "
                + explainer.startReason(nearest, label: "game")
        }
        if graph.endPlace != nil {
            let latest = reachable.max()!
            return "no trip can reach the end in time after its games; for example, " + explainer.endReason(latest, label: "game")
        }
        return "no trip satisfies the games-per-day, rest-day and driving limits together"
    }

    func planWarnings(_ graph: TripGraph) -> [PlanWarning] {
        var warnings: [PlanWarning] = []
        if graph.skippedNotPlayable > 0 { warnings.append(.notPlayableLeftOut(games: graph.skippedNotPlayable)) }
        if !graph.skippedNoStadium.isEmpty {
            warnings.append(.noUsableLocation(games: graph.skippedNoStadium.count, example: graph.skippedNoStadium.sorted()[0]))
        }
        let sportsWithGames = Set(graph.candidates.map(\.game.sport))
        for sport in request.sports where !sportsWithGames.contains(sport) && graph.count > 0 {
            warnings.append(.noGamesOfSport(sport, first: request.firstDate, last: request.lastDate))
        }
        return warnings
    }

    func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        var out = first.uppercased() + text.dropFirst()
        if !".!?".contains(out.last!) { out += "." }
        return out
    }
}

extension LabelSearch {
    /// The completed trips of the pool, best first, with the search that holds their labels.
    var found: [Found] { pool.map { (self, $0) } }
}

/// A value made on one thread and used on another only after the first has let go of it (a graph copy
/// handed to a search on another core, and the finished search handed back), so it is never shared.
struct HandOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
