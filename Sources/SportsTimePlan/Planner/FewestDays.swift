import Foundation
import SportsTimeCore

/// `objective: fewestDays`: the shortest window (leaving the start on its first day, the last game on
/// its last day) in which one trip attends a game at every required stadium, searched over the request's
/// dates. Pure.
///
/// Each window (a first day and a length) is put to `SpanSearch` (exact, with a budget of partial trips
/// expanded, `search.labelBudget` in all; a window gets a share of it).
/// 1. A trip: from ⌈required / maxGamesPerDay⌉ + 15 days down, every first day in turn, with limited
///    discrepancy (0 to 3) and then exactly; each trip found sets the length to one day less than its
///    own, a length without one ends the descent (while no trip is found at all, the length grows by 15
///    days).
/// 2. Every window shorter than that trip, shortest first: refuted, open (its share ran out) or a shorter
///    trip. The relaxation bound is the shortest length whose cuts pass before any game is tried in
///    some window; the proven lower bound is the shortest length with an open window.
/// 3. The open windows, shortest first, with what is left of the budget. The days are proven when no
///    window shorter than the trip stays open.
/// 4. The window is then laid out with the trip found (stops fitted, options picked); the plan reports
///    days and `search.lowerBound` (the days themselves when proven).
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

    /// What the search established: the best trip (first day, days, game ids), the proven lower bound,
    /// the relaxation's bound, and whether the days are proven.
    struct Outcome {
        var best: (first: LocalDate, days: Int, games: [String])?
        var lower: Int
        var relaxation: Int?
        var proven: Bool
        var expanded = 0
    }

    func search() -> Outcome {
        let required = request.requiredStadiumIds.count
        let perDay = max(1, request.maxGamesPerDay)
        let season = request.firstDate.days(until: request.lastDate) + 1
        let longest = min(season, RequestResolver.maxWindowDays)
        let least = max(1, (required + perDay - 1) / perDay)
        let budget = request.search.labelBudget
        var outcome = Outcome(lower: least, proven: false)
        var sub = request
        sub.objective = .mostStadiums
        // Idle days are at most days − least, so consecutive games of a trip lie at most that + 1 apart.
        var horizon = 0
        var span: SpanSearch?
        var spentBefore = 0
        /// The search, its graph long enough for `days`, kept and widened as longer windows need it.
        func searcher(days: Int) -> SpanSearch? {
            let needed = days - least + 1
            if needed > horizon || span == nil {
                spentBefore += span?.expanded ?? 0
                horizon = min(longest, max(needed, 2 * horizon, 8))
                span = SpanSearch(graph: TripGraph(request: sub, catalog: catalog, horizonDays: horizon))
            }
            return span
        }
        /// One window solved by the kept search (which remembers what it learns across windows).
        func solve(_ first: Int, days: Int, budget: Int, discrepancies: Int? = nil) -> SpanSearch.Answer {
            span!.solve(first: first, end: first + days - 1, budget: budget, discrepancies: discrepancies)
        }
        func spent() -> Int { spentBefore + (span?.expanded ?? 0) }
        func found(_ first: Int, _ path: [Int], in search: SpanSearch) -> (first: LocalDate, days: Int, games: [String]) {
            let last = path.map { search.day[$0] }.max() ?? first
            return (request.firstDate.adding(days: first), last - first + 1, path.map { search.graph.candidates[$0].game.id })
        }
        guard let probe = searcher(days: least), probe.graph.requiredStops.isEmpty, least <= longest else {
            outcome.proven = true // a required stadium without a game in the season, or too many days needed
            outcome.lower = longest + 1
            return outcome
        }
        // Geography and the schedule first (`StadiumGaps`): no window shorter than that is searched.
        let floor = max(least, min(longest + 1, StadiumGaps(graph: probe.graph).days))
        outcome.lower = floor
        let share = max(200, budget / 1_000)
        // A trip first: from a loose length down, each trip found lowering the length; a length without
        // one (within each window's share) ends the descent, or loosens it while nothing is found.
        var days = min(longest, floor + 15)
        while days >= floor, searcher(days: days) != nil {
            let before = outcome.best?.days
            // Limited discrepancy first (the search's order, then up to three departures from it), then exact.
            windows: for discrepancies in [0, 1, 2, 3, nil] {
                for first in 0...(season - days) {
                    if case .found(let path) = solve(first, days: days, budget: share, discrepancies: discrepancies) {
                        outcome.best = found(first, path, in: span!)
                        break windows
                    }
                }
            }
            if let best = outcome.best?.days, best != before {
                days = best - 1
            } else if outcome.best == nil, days < longest {
                days = min(longest, days + 15)
            } else {
                break
            }
        }
        // Then every window shorter than the trip found, shortest first: refuted, open, or a shorter trip.
        var open: [(first: Int, days: Int)] = []
        lengths: for days in floor..<max(floor, min(longest + 1, outcome.best?.days ?? (longest + 1))) {
            guard searcher(days: days) != nil else { break }
            var pastRoot = false
            for first in 0...(season - days) {
                guard spent() < budget else {
                    open.append((first, days))
                    continue
                }
                switch solve(first, days: days, budget: share) {
                case .found(let path):
                    outcome.best = found(first, path, in: span!)
                    pastRoot = true
                    break lengths
                case .refuted(let atRoot): pastRoot = pastRoot || !atRoot
                case .outOfBudget: open.append((first, days)); pastRoot = true
                }
            }
            if pastRoot, outcome.relaxation == nil { outcome.relaxation = days }
        }
        if outcome.relaxation == nil { outcome.relaxation = outcome.best?.days }
        // The open windows, shortest first, with what is left of the budget.
        var stillOpen: [(first: Int, days: Int)] = []
        retry: for (index, window) in open.enumerated() {
            if let best = outcome.best, window.days >= best.days { break }
            let left = budget - spent()
            guard left > 0, searcher(days: window.days) != nil else {
                stillOpen += open[index...]
                break
            }
            switch solve(window.first, days: window.days, budget: left) {
            case .found(let path): outcome.best = found(window.first, path, in: span!)
            case .refuted: continue
            case .outOfBudget:
                stillOpen += open[index...]
                break retry
            }
        }
        let bestDays = outcome.best?.days ?? (longest + 1)
        stillOpen.removeAll { $0.days >= bestDays }
        outcome.lower = stillOpen.map(\.days).min() ?? bestDays
        outcome.proven = stillOpen.isEmpty
        outcome.expanded = spent()
        return outcome
    }

    func run() -> TripPlan {
        let required = request.requiredStadiumIds.count
        let season = request.firstDate.days(until: request.lastDate) + 1
        let longest = min(season, RequestResolver.maxWindowDays)
        let budget = request.search.labelBudget
        let outcome = search()
        var lower = outcome.lower
        var proven = outcome.proven
        let labels = outcome.expanded
        guard let best = outcome.best else {
            var plan = Planning(request: window(request.firstDate, days: longest), catalog: catalog).run()
            plan.request = request.resolved
            plan.options = []
            plan.infeasibility =
                proven
                ? "No trip of at most \(longest) days attends a game at every required stadium (\(required)) between \(request.firstDate) and \(request.lastDate)."
                : "No trip attending a game at every required stadium (\(required)) was found within the label budget; at least \(lower) days are needed."
            plan.search.method = SearchMethods([.windowSearch])
            plan.search.isExact = proven
            plan.search.lowerBound = Double(lower)
            plan.search.labelsExpanded = labels
            return plan
        }
        // With `start: any` the trip starts where its first game is; the search's days and bound hold for
        // every start, so that place is laid out like any other.
        var laidOut = window(best.first, days: best.days)
        var shown = request
        var chosen: (stadium: Stadium, game: String)?
        if request.startsAnywhere, let first = best.games.first, let index = catalog.gameIndexById[first],
            let stadium = catalog.stadium(catalog.games[index].stadiumId)
        {
            chosen = (stadium, first)
            laidOut.start = TravelPlace(stadium: stadium)
            laidOut.startsAnywhere = false
            shown.start = laidOut.start
        }
        var plan = Planning(request: laidOut, catalog: catalog, given: best.games).run()
        plan.request = shown.resolved
        if let chosen { plan.warnings.append(PlanWarning.startChosen(stadium: chosen.stadium.name, game: chosen.game).text) }
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
        plan.search.isExact = proven
        plan.search.lowerBound = Double(lower)
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
