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

/// The result of the search phase, before stops and diversity.
struct SearchOutcome {
    /// Candidate trips (game candidate indices), best first.
    var paths: [[Int]]
    var keys: [TripKey]
    var method: String
    var isExact: Bool
    var upperBound: Double?
    var labelsExpanded: Int
    var arcs: Int
    /// The best (coverage, primary) any trip reaches, when the search was exact.
    var optimum: TripKey?
    var warnings: [String]
    /// Most stadiums: whether the driving tie-break among trips of the optimal value is proven too
    /// (nil for the other objectives, whose single exact search decides both at once).
    var tieBreakExact: Bool? = nil
}

struct Planning {
    let request: PlanRequest
    let catalog: PlanCatalog
    /// At most this many extra searches (each avoiding one stadium) look for distinct alternatives.
    static let maxAvoidSearches = 12

    struct LaidOut {
        var path: [Int]
        var placement: StopInserter.Placement
        var key: TripKey
        var order: Int
    }

    func run() -> TripPlan {
        let graph = TripGraph(request: request, catalog: catalog)
        let explainer = Explainer(graph: graph)
        var warnings = planWarnings(graph)

        let conflicts = mustSeeConflicts(graph, explainer)
        let outcome = search(graph)
        warnings += outcome.warnings
        let report = SearchReport(
            method: outcome.method, isExact: outcome.isExact, upperBound: outcome.upperBound,
            candidateGames: graph.count, arcs: outcome.arcs, labelsExpanded: outcome.labelsExpanded,
            tieBreakExact: outcome.tieBreakExact)

        if !conflicts.isEmpty {
            let branches = self.branches(graph: graph, conflicts: conflicts)
            if !branches.isEmpty {
                warnings.append("no trip attends every must-see game; branches lists the best trip for each compatible set")
            }
            return TripPlan(
                id: request.id, request: request.resolved, options: [],
                conflicts: conflicts.map { PlanConflict(gameIds: [$0.a, $0.b], reason: $0.reason) },
                infeasibility: sentence(conflicts[0].reason), warnings: warnings, search: report,
                branches: branches.isEmpty ? nil : branches)
        }

        // Lay out every candidate trip (fitting stops), rank by what the trips really are.
        let simulator = ItinerarySimulator(graph: graph)
        let inserter = StopInserter(graph: graph, simulator: simulator)
        var candidatePaths = outcome.paths
        if graph.mustSeeOrder.isEmpty, !graph.requiredStops.isEmpty || (!request.requiredStadiumIds.isEmpty && candidatePaths.isEmpty) {
            candidatePaths.append([]) // a trip of stops only
        }
        var laidOut: [LaidOut] = []
        var seenPaths = Set<[Int]>()
        var stopFailures = 0
        var internalFailures = 0
        func layOut(_ paths: [[Int]]) {
            for path in paths where seenPaths.insert(path).inserted {
                let covered = Set(path.map { graph.candidates[$0].game.stadiumId })
                let stops = request.requiredStadiumIds.filter { !covered.contains($0) }.compactMap { graph.placeIndex(ofStadium: $0) }
                guard let placement = inserter.place(stops: stops, into: path) else {
                    if stops.isEmpty { internalFailures += 1 } else { stopFailures += 1 }
                    continue
                }
                laidOut.append(
                    LaidOut(
                        path: path, placement: placement, key: key(of: placement.itinerary, graph: graph),
                        order: laidOut.count))
            }
            laidOut.sort { a, b in
                if a.key != b.key { return a.key > b.key }
                let ia = a.path.map { graph.candidates[$0].game.id }, ib = b.path.map { graph.candidates[$0].game.id }
                if ia != ib { return ia.lexicographicallyPrecedes(ib) }
                return a.order < b.order
            }
        }
        layOut(candidatePaths)

        guard !laidOut.isEmpty else {
            let reason = infeasibility(graph: graph, explainer: explainer, outcome: outcome, stopFailures: stopFailures)
            return TripPlan(
                id: request.id, request: request.resolved, options: [], conflicts: [],
                infeasibility: sentence(reason), warnings: warnings, search: report)
        }

        // Distinct options: each differs from every better option in at least 2 stadiums. When the k best
        // trips are variants of the same stadiums, more candidates come from exact searches that avoid one
        // stadium of the options chosen so far (never a must-see or required one).
        func stadiums(_ entry: LaidOut) -> Set<String> {
            Set(entry.path.map { graph.candidates[$0].game.stadiumId }).union(request.requiredStadiumIds)
        }
        func selectDistinct() -> [Int] {
            var chosen: [Int] = []
            for i in laidOut.indices where chosen.count < request.optionCount {
                let set = stadiums(laidOut[i])
                if chosen.allSatisfy({ set.symmetricDifference(stadiums(laidOut[$0])).count >= 2 }) { chosen.append(i) }
            }
            return chosen
        }
        var chosen = selectDistinct()
        let protected = Set(request.requiredStadiumIds).union(graph.mustSeeOrder.map { graph.candidates[$0].game.stadiumId })
        var avoided: [String] = []
        var extraLabels = 0
        while chosen.count < request.optionCount, avoided.count < Self.maxAvoidSearches {
            // Avoid first the stadium the chosen options visit least: dropping it changes a trip least.
            var visits: [String: Int] = [:]
            for i in chosen {
                for node in laidOut[i].path { visits[graph.candidates[node].game.stadiumId, default: 0] += 1 }
            }
            let next = visits.keys.filter { !protected.contains($0) && !avoided.contains($0) }
                .sorted { (visits[$0]!, $0) < (visits[$1]!, $1) }
            guard let stadium = next.first else { break }
            avoided.append(stadium)
            let extra = search(graph, avoiding: [stadium], poolSize: 1)
            extraLabels += extra.labelsExpanded
            layOut(extra.paths)
            chosen = selectDistinct()
        }
        var optionWarnings: [Int: [String]] = [:]
        if chosen.count < request.optionCount {
            for i in laidOut.indices where chosen.count < request.optionCount && !chosen.contains(i) {
                let set = stadiums(laidOut[i])
                let closest = chosen.min {
                    set.symmetricDifference(stadiums(laidOut[$0])).count < set.symmetricDifference(stadiums(laidOut[$1])).count
                }
                if let closest {
                    let d = set.symmetricDifference(stadiums(laidOut[closest])).count
                    let rank = chosen.firstIndex(of: closest)! + 1
                    let avoidedText = avoided.isEmpty ? "" : ", nor the best trips avoiding \(avoided.joined(separator: ", ")),"
                    optionWarnings[i] = [
                        "differs from option \(rank) in only \(d) stadium\(d == 1 ? "" : "s"): no trip among the "
                            + "\(outcome.paths.count) best\(avoidedText) differs from every better option in at least 2"
                    ]
                }
                chosen.append(i)
            }
            chosen.sort()
        }
        if chosen.count < request.optionCount {
            let scope =
                outcome.isExact && outcome.paths.count < request.candidatePool
                ? "exist" : "were found among the \(outcome.paths.count) best"
            warnings.append(
                "only \(chosen.count) distinct trip\(chosen.count == 1 ? "" : "s") \(scope); \(request.optionCount) were asked for")
        }
        if internalFailures > 0 {
            warnings.append(
                "\(internalFailures) trip\(internalFailures == 1 ? "" : "s") found by the search could not be laid out in time and were left out"
            )
        }

        let builder = OptionBuilder(graph: graph, catalog: catalog)
        var methods = Set<String>()
        var options: [TripOption] = []
        for (rank, i) in chosen.enumerated() {
            let entry = laidOut[i]
            if !entry.placement.method.isEmpty { methods.insert(entry.placement.method) }
            let hasStops = !entry.placement.itinerary.stops.isEmpty
            var proven = false
            if outcome.isExact, let optimum = outcome.optimum {
                let sameValue = entry.key.coverage == optimum.coverage && entry.key.primary == optimum.primary
                proven = sameValue && !(hasStops && request.objective == .leastDriving)
            }
            var extra = optionWarnings[i] ?? []
            if entry.key.coverage < graph.requiredWithGames.count || hasStops {
                let stopped = entry.placement.itinerary.stops.compactMap { graph.places[$0.place].stadiumId }
                if !stopped.isEmpty {
                    extra.append(
                        "required stadium\(stopped.count == 1 ? "" : "s") \(stopped.joined(separator: ", ")) visited without a game (a \(Format.hours(graph.model.stadiumVisitHours)) h stop)"
                    )
                }
            }
            options.append(builder.option(entry.placement.itinerary, rank: rank + 1, isProvenOptimal: proven, warnings: extra))
        }
        var finalReport = report
        finalReport.labelsExpanded += extraLabels
        if !methods.isEmpty { finalReport.method += "+" + methods.sorted().joined(separator: "+") }
        if methods.contains("2-opt-or-opt") || methods.contains("cheapest-insertion") {
            warnings.append(
                "stops were ordered heuristically (more than \(request.search.heldKarpLimit) stops, or no single gap held them)")
        }
        return TripPlan(
            id: request.id, request: request.resolved, options: options, conflicts: [], infeasibility: nil,
            warnings: warnings, search: finalReport)
    }

    // MARK: Search

    func search(_ graph: TripGraph, avoiding: Set<String> = [], poolSize: Int? = nil) -> SearchOutcome {
        let pool = poolSize ?? request.candidatePool
        let excluded = avoiding.isEmpty ? nil : graph.candidates.map { avoiding.contains($0.game.stadiumId) }
        var warnings: [String] = []
        let primary: LabelSearch
        var method: String
        var isExact = true
        var upperBound: Double?
        var expanded = 0
        var completions: [(search: LabelSearch, completion: LabelSearch.Completion)]
        var tieBreakExact: Bool?
        switch request.objective {
        case .mostGames, .leastDriving:
            primary = LabelSearch(
                graph: graph, objective: request.objective, mode: .exact, poolSize: pool, labelBudget: request.search.labelBudget,
                excluded: excluded)
            primary.run()
            expanded = primary.labelsExpanded
            method = request.objective == .mostGames ? "exact-longest-path" : "exact-shortest-path"
            completions = primary.pool.map { (primary, $0) }
        case .fewestDays:
            preconditionFailure("fewestDays is planned by FewestDays, which plans its window as most stadiums")
        case .mostStadiums where !avoiding.isEmpty:
            // Alternatives that avoid a stadium: a narrower beam search is enough (whether an alternative is
            // optimal is decided against the main search's proven value).
            let beam = LabelSearch(
                graph: graph, objective: .mostStadiums, mode: .beam(width: max(4, request.search.beamWidth / 4)),
                poolSize: pool, labelBudget: request.search.labelBudget, excluded: excluded)
            beam.run()
            primary = beam
            expanded = beam.labelsExpanded
            method = "beam"
            isExact = false
            completions = beam.pool.map { (beam, $0) }
        case .mostStadiums:
            let result = mostStadiums(graph, excluded: excluded, pool: pool)
            primary = result.primary
            expanded = result.expanded
            method = result.method
            isExact = result.isExact
            upperBound = result.upperBound
            tieBreakExact = result.tieBreakExact
            completions = result.completions
            warnings += result.warnings
        }
        // Unique paths, best first; ties by the games' ids.
        var seen = Set<[Int]>()
        var ranked: [(path: [Int], key: TripKey)] = []
        for entry in completions {
            let path = entry.search.path(of: entry.completion.label)
            if seen.insert(path).inserted { ranked.append((path, entry.completion.key)) }
        }
        ranked.sort { a, b in
            if a.key != b.key { return a.key > b.key }
            return a.path.map { graph.candidates[$0].game.id }.lexicographicallyPrecedes(b.path.map { graph.candidates[$0].game.id })
        }
        var arcs = 0
        for u in 0..<graph.count where primary.useful[u] {
            for arc in graph.arcs[u] where primary.useful[Int(arc.to)] && graph.allowed(u, Int(arc.to)) { arcs += 1 }
        }
        let optimum = isExact ? ranked.first.map { TripKey(coverage: $0.key.coverage, primary: $0.key.primary, secondary: 0) } : nil
        return SearchOutcome(
            paths: ranked.map(\.path), keys: ranked.map(\.key), method: method, isExact: isExact,
            upperBound: upperBound, labelsExpanded: expanded, arcs: arcs, optimum: optimum, warnings: warnings,
            tieBreakExact: tieBreakExact)
    }

    struct StadiumSearch {
        var primary: LabelSearch
        var expanded: Int
        var method: String
        var isExact: Bool
        var upperBound: Double?
        var tieBreakExact: Bool?
        var completions: [(search: LabelSearch, completion: LabelSearch.Completion)]
        var warnings: [String]
    }

    /// Most stadiums, target first. Two beams (one ranking partial trips by value, one by stadium
    /// potential) give a first trip; then, from the root bound downward, count-only exact passes ask
    /// "is there a trip with this (coverage, stadiums)?" — each refuted target lowers the bound, the first
    /// target reached is the proven optimum. A last exact pass, floored at the optimum, proves the
    /// driving tie-break (the least driving among trips of that value) and gathers the k best; when it
    /// runs out of budget the value stays proven and the driving is the best found.
    /// The label budget is shared by the count passes; the tie-break pass has its own.
    func mostStadiums(_ graph: TripGraph, excluded: [Bool]?, pool: Int) -> StadiumSearch {
        let budget = request.search.labelBudget
        let width = request.search.beamWidth
        var completions: [(search: LabelSearch, completion: LabelSearch.Completion)] = []
        // The two beams are independent: the one ranked by potential runs on another core meanwhile, on a
        // copy of the graph (a graph's memos are not shared between threads).
        let copy = HandOver(TripGraph(copying: graph))
        let potentialRun = Background { () -> HandOver<LabelSearch> in
            let search = LabelSearch(
                graph: copy.value, objective: .mostStadiums, mode: .beam(width: width), poolSize: pool,
                labelBudget: budget, excluded: excluded)
            search.rankByPotential = true
            search.run()
            return HandOver(search)
        }
        let valueBeam = LabelSearch(
            graph: graph, objective: .mostStadiums, mode: .beam(width: width), poolSize: pool,
            labelBudget: budget, excluded: excluded)
        valueBeam.run()
        let potentialBeam = potentialRun.value().value
        completions += valueBeam.pool.map { (valueBeam, $0) } + potentialBeam.pool.map { (potentialBeam, $0) }
        var expanded = valueBeam.labelsExpanded + potentialBeam.labelsExpanded
        func value(_ key: TripKey) -> TripKey { TripKey(coverage: key.coverage, primary: key.primary, secondary: Int64.min) }
        var best: TripKey? = completions.map { value($0.completion.key) }.max()
        guard let root = valueBeam.rootBound() else {
            return StadiumSearch(
                primary: valueBeam, expanded: expanded, method: "exact-label-setting", isExact: true,
                upperBound: nil, tieBreakExact: true, completions: [], warnings: [])
        }
        var spent = 0
        enum Pass { case reached, refuted, outOfBudget }
        // One count-only pass: is there a trip reaching `target`?
        func pass(_ target: TripKey) -> Pass {
            let search = LabelSearch(
                graph: graph, objective: .mostStadiums, mode: .exact, poolSize: 1,
                labelBudget: max(0, budget - spent), excluded: excluded)
            search.countOnly = true
            search.floor = target
            search.stopAt = target
            search.run()
            spent += search.labelsCreated
            expanded += search.labelsExpanded
            completions += search.pool.map { (search, $0) }
            if search.reachedStop {
                let found = value(search.pool[0].key)
                if best == nil || found > best! { best = found }
                return .reached
            }
            return search.isExhausted ? .refuted : .outOfBudget
        }
        // The highest (coverage, stadiums) not yet refuted: the proven upper bound.
        var open = value(root)
        var proven = false
        search: do {
            // Coverage first: the most required stadiums any trip can attend.
            while best == nil || open.coverage > best!.coverage {
                switch pass(TripKey(coverage: open.coverage, primary: 0, secondary: Int64.min)) {
                case .reached: break
                case .refuted:
                    if open.coverage == 0 { proven = true; break search } // no trip at all
                    open = TripKey(coverage: open.coverage - 1, primary: root.primary, secondary: Int64.min)
                    continue
                case .outOfBudget: break search
                }
            }
            // Then stadiums, from the bound down to one above the best found.
            while open.primary > best!.primary {
                switch pass(open) {
                case .reached: proven = true; break search
                case .refuted: open.primary -= 1
                case .outOfBudget: break search
                }
            }
            proven = true
        }
        var method = "exact-target-first"
        var isExact = proven
        var upperBound: Double?
        var tieBreakExact: Bool?
        var warnings: [String] = []
        var primarySearch = valueBeam
        if proven, let optimum = best {
            // The tie-break: least driving (then the k best) among trips reaching the optimum.
            let exact = LabelSearch(
                graph: graph, objective: .mostStadiums, mode: .exact, poolSize: pool, labelBudget: budget,
                excluded: excluded)
            exact.floor = optimum
            exact.run()
            expanded += exact.labelsExpanded
            primarySearch = exact
            if exact.isExhausted {
                tieBreakExact = true
                completions = exact.pool.map { (exact, $0) }
            } else {
                tieBreakExact = false
                completions += exact.pool.map { (exact, $0) }
                warnings.append(
                    "the most stadiums (\(optimum.primary)) is proven, but the tie-break search stopped at its budget of "
                        + "\(Format.grouped(Int64(budget))) labels: the driving of the options is the least found, not proven least")
            }
        } else if proven {
            tieBreakExact = true // no trip at all
        } else {
            method = "beam"
            isExact = false
            let found = best.map { Double($0.primary) } ?? 0
            let bound = max(Double(open.primary), found)
            upperBound = bound
            let ratio = bound > 0 ? found / bound : 1
            warnings.append(
                "the exact search stopped at its budget of \(Format.grouped(Int64(budget))) labels; "
                    + "the options come from a beam search (width \(width)) and target-first passes and may not be optimal: best found "
                    + "\(Format.decimal(found, places: 0)) stadiums, proven upper bound \(Format.decimal(bound, places: 0)) (ratio \(Format.decimal(ratio, places: 3)))"
            )
        }
        completions.sort { $0.completion.key > $1.completion.key }
        return StadiumSearch(
            primary: primarySearch, expanded: expanded, method: method, isExact: isExact, upperBound: upperBound,
            tieBreakExact: tieBreakExact, completions: completions, warnings: warnings)
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

    func planWarnings(_ graph: TripGraph) -> [String] {
        var warnings: [String] = []
        if graph.skippedNotPlayable > 0 {
            warnings.append(
                "\(graph.skippedNotPlayable) postponed or cancelled game\(graph.skippedNotPlayable == 1 ? " was" : "s were") left out of the window"
            )
        }
        if !graph.skippedNoStadium.isEmpty {
            warnings.append(
                "\(graph.skippedNoStadium.count) game\(graph.skippedNoStadium.count == 1 ? "" : "s") at a stadium without a usable location left out (e.g. \(graph.skippedNoStadium.sorted()[0]))"
            )
        }
        let sportsWithGames = Set(graph.candidates.map(\.game.sport))
        for sport in request.sports where !sportsWithGames.contains(sport) && graph.count > 0 {
            warnings.append("no \(sport) games in the window \(request.firstDate)…\(request.lastDate)")
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

/// A value made on one thread and used on another only after the first has let go of it (a graph copy
/// handed to a search on another core, and the finished search handed back), so it is never shared.
struct HandOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
