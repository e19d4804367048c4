import Foundation
import SportsTimeCore

/// `objective: fewestDays`: the shortest window (leaving the start on its first day, the last game on
/// its last day) in which one trip attends a game at every required stadium, searched over the request's
/// dates. Pure.
///
/// 1. Lower bound: ⌈required / maxGamesPerDay⌉ days.
/// 2. Best found: for every first day, a potential-ranked beam over the window of at most
///    `maxWindowDays` (shrinking to the best found) gives the earliest trip covering every required
///    stadium.
/// 3. Exact, from the lower bound up: for each length L below the best found and each first day, a
///    count-only exact pass asks whether a trip covers every required stadium in that L-day window; the
///    first L with one is proven least, and a length every window refutes raises the lower bound. The
///    label budget is shared by the passes (each window graph's arcs count against it too); when it runs
///    out the answer is the best found, with the lower bound.
/// 4. The chosen window is then planned as most stadiums with the stadiums required (coverage first,
///    then the driving tie-break), and the plan reports days.
struct FewestDays {
    let request: PlanRequest
    let catalog: PlanCatalog

    func window(_ first: LocalDate, days: Int) -> PlanRequest {
        var sub = request
        sub.objective = .mostStadiums
        sub.firstDate = first
        sub.lastDate = first.adding(days: days - 1)
        if sub.lastDate > request.lastDate { sub.lastDate = request.lastDate }
        return sub
    }

    /// Whether a window can hold a trip attending every required stadium at a game, as far as its
    /// required stadiums have games at all.
    func coversAll(_ graph: TripGraph) -> Bool { graph.requiredStops.isEmpty }

    func run() -> TripPlan {
        let required = request.requiredStadiumIds.count
        let perDay = max(1, request.maxGamesPerDay)
        let season = request.firstDate.days(until: request.lastDate) + 1
        let longest = min(season, RequestResolver.maxWindowDays)
        var lower = max(1, (required + perDay - 1) / perDay)
        var best: (first: LocalDate, days: Int)?
        var spent = 0
        let budget = request.search.labelBudget
        var labels = 0

        // Best found: the earliest full-coverage trip from each first day.
        for offset in 0..<season {
            let first = request.firstDate.adding(days: offset)
            let span = min(longest, (best?.days ?? (longest + 1)) - 1, season - offset)
            guard span >= lower else { continue }
            let graph = TripGraph(request: window(first, days: span), catalog: catalog)
            guard coversAll(graph), graph.requiredWithGames.count == required else { continue }
            let beam = LabelSearch(
                graph: graph,
                .init(
                    objective: .mostStadiums, mode: .beam(width: max(4, request.search.beamWidth / 4)), labelBudget: budget,
                    rankByPotential: true, recordFullCoverage: true))
            beam.run()
            labels += beam.labelsExpanded
            if let end = beam.firstFullCoverageDate {
                let days = first.days(until: end) + 1
                if best == nil || days < best!.days { best = (first, days) }
            }
        }

        // Exact, from the lower bound up to the best found.
        var proven = false
        var outOfBudget = false
        exact: while !outOfBudget {
            let target = best?.days ?? (longest + 1)
            guard lower < target else { proven = best != nil || lower > longest; break }
            guard lower <= longest else { proven = true; break }
            var reached: LocalDate?
            for offset in 0...(season - lower) {
                let first = request.firstDate.adding(days: offset)
                let graph = TripGraph(request: window(first, days: lower), catalog: catalog)
                guard coversAll(graph), graph.requiredWithGames.count == required else { continue }
                spent += graph.arcs.reduce(0) { $0 + $1.count }
                let goal = TripKey(coverage: required, primary: 0, secondary: Int64.min)
                let search = LabelSearch(graph: graph, .reaching(goal, labelBudget: max(0, budget - spent)))
                if let root = search.rootBound(), root.coverage < required { continue }
                search.run()
                spent += search.labelsCreated
                labels += search.labelsExpanded
                if search.reachedStop { reached = first; break }
                if !search.isExhausted || spent > budget { outOfBudget = true; break exact }
            }
            if let reached {
                best = (reached, lower)
                proven = true
                break
            }
            lower += 1
        }

        guard let best else {
            var plan = Planning(request: window(request.firstDate, days: longest), catalog: catalog).run()
            plan.request = request.resolved
            plan.options = []
            plan.infeasibility =
                proven
                ? "No trip of at most \(longest) days attends a game at every required stadium (\(required)) between \(request.firstDate) and \(request.lastDate)."
                : "No trip attending a game at every required stadium (\(required)) was found within the label budget; at least \(lower) days are needed."
            plan.search.method = SearchMethods([.windowSearch])
            plan.search.isExact = proven
            plan.search.lowerBound = proven ? nil : Double(lower)
            plan.search.labelsExpanded = labels
            return plan
        }
        var plan = Planning(request: window(best.first, days: best.days), catalog: catalog).run()
        plan.request = request.resolved
        // The window's search works on the trip DAG; only a laid-out option that attends every required
        // stadium at a game within those days confirms it. Otherwise nothing is claimed but the bound.
        let confirmed = plan.options.contains {
            Set($0.visits.map(\.stadiumId)).isSuperset(of: request.requiredStadiumIds) && $0.days.count <= best.days
        }
        if !confirmed {
            if proven { lower = min(lower, best.days) }
            proven = false
        }
        let valueExact = plan.search.isExact
        plan.search.method.steps.insert(.windowSearch, at: 0)
        plan.search.isExact = proven
        plan.search.lowerBound = proven ? nil : Double(lower)
        plan.search.labelsExpanded += labels
        if !valueExact { plan.search.tieBreakExact = false }
        func covers(_ option: TripOption) -> Bool { Set(option.visits.map(\.stadiumId)).isSuperset(of: request.requiredStadiumIds) }
        for i in plan.options.indices {
            plan.options[i].score.total = Double(plan.options[i].days.count)
            plan.options[i].isProvenOptimal = proven && covers(plan.options[i]) && plan.options[i].days.count == best.days
        }
        // Options that attend every required stadium at a game first, then by days.
        plan.options.sort { (covers($0) ? 0 : 1, $0.score.total, $0.rank) < (covers($1) ? 0 : 1, $1.score.total, $1.rank) }
        for i in plan.options.indices { plan.options[i].rank = i + 1 }
        if !confirmed {
            plan.warnings.append(PlanWarning.windowNotLaidOut(days: best.days, first: best.first, atLeast: lower).text)
        } else if !proven {
            plan.warnings.append(PlanWarning.fewestDaysUnproven(best: best.days, atLeast: lower, labelBudget: budget).text)
        }
        return plan
    }
}
