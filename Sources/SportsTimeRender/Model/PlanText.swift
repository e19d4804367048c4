import Foundation
import SportsTimeCore

/// Sentences and phrases both the Markdown and the HTML itinerary use, so they say the same thing.
struct PlanText {
    var plan: TripPlan
    var catalog: RenderCatalog
    var outlines: [OptionOutline]

    /// Every visit of every option by game id, to describe games that conflicts name.
    var visitsById: [String: GameVisit] {
        var result: [String: GameVisit] = [:]
        for option in plan.options { for visit in option.visits where result[visit.gameId] == nil { result[visit.gameId] = visit } }
        return result
    }

    /// `NBA, NHL · Nov 1–7, 2025 · most distinct stadiums`.
    var subtitleParts: [String] {
        [Format.sports(plan.request.sports, catalog: catalog),
         Format.dateRange(plan.request.firstDate, plan.request.lastDate),
         Format.objective(plan.request.objective)]
    }

    /// `from TD Garden, back to TD Garden` / `from Prudential Center, ending wherever the last game is`.
    var route: String {
        let start = plan.request.start.name
        guard let end = plan.request.end else { return "from \(start), ending at the last game" }
        return end.name == start ? "from and back to \(start)" : "from \(start) to \(end.name)"
    }

    /// One sentence about the best option, or that there is none.
    var headline: String {
        guard let best = outlines.first else { return "No trip fits this request." }
        let option = best.option
        var text = "Best trip: \(Format.count(option.score.games, "game")) at \(Format.count(option.score.distinctStadiums, "stadium"))"
        if let first = best.firstDate, let last = best.lastDate {
            let span = first == last ? Format.longDate(first) : "\(Format.longDate(first)) to \(Format.longDate(last))"
            text += " in \(Format.count(first.days(until: last) + 1, "day")) (\(span))"
        }
        text += ", \(Format.distance(kilometres: option.score.drivingKilometres)) and \(Format.duration(hours: option.score.drivingHours)) of driving."
        return text
    }

    func title(of visit: GameVisit) -> String { "\(visit.awayTeamName) at \(visit.homeTeamName)" }

    /// `Madison Square Garden, New York, NY`.
    func venue(of visit: GameVisit) -> String { "\(visit.stadiumName), \(catalog.place(of: visit))" }

    /// A game a conflict names, described when some option holds it.
    func describeGame(_ id: String) -> String? {
        guard let visit = visitsById[id] else { return nil }
        return "\(catalog.abbreviation(ofSport: visit.sport)) \(title(of: visit)), \(Format.shortDate(visit.localDate)), \(Format.gameTime(visit)), \(visit.city)"
    }

    /// `Proven optimal for most distinct stadiums.` and the like.
    func optimality(of option: TripOption) -> String {
        if option.isProvenOptimal {
            if option.rank == 1, plan.search.tieBreakExact == false {
                return "Proven optimal for \(Format.objective(plan.request.objective)); its driving is the least found, not proven least."
            }
            return "Proven optimal for \(Format.objective(plan.request.objective))."
        }
        if option.rank == 1, !plan.search.isExact, let bound = plan.search.lowerBound {
            return "Best found by a heuristic search; no trip takes fewer than \(Format.trimmed(bound, 3)) days."
        }
        if option.rank == 1 && !plan.search.isExact {
            if let bound = plan.search.upperBound {
                return "Best found by a heuristic search; no trip can score above \(Format.trimmed(bound, 3))."
            }
            return "Best found by a heuristic search (not proven optimal)."
        }
        return "Alternative \(option.rank - 1) of \(max(plan.options.count - 1, 1)), distinct from the options above it."
    }

    /// `exact label-setting search (proven)`.
    var searchSummary: String {
        let method = plan.search.method.replacingOccurrences(of: "-", with: " ")
        var text = plan.search.isExact ? "\(method) (exact)" : "\(method) (heuristic)"
        if let bound = plan.search.upperBound { text += ", upper bound \(Format.trimmed(bound, 3))" }
        return text
    }

    var searchFigures: String {
        "\(Format.grouped(plan.search.candidateGames)) candidate games, \(Format.grouped(plan.search.arcs)) feasible drives between them, "
            + "\(Format.grouped(plan.search.labelsExpanded)) search states expanded."
    }

    /// One row of the request's settings: a label and one or more values (ids are listed one by one).
    struct SettingRow {
        var label: String
        var values: [String]
        /// Whether the values are ids (shown as code).
        var isIdList: Bool
    }

    /// The request's settings.
    var requestRows: [SettingRow] {
        let request = plan.request
        func ids(_ label: String, _ values: [String], empty: String) -> SettingRow {
            values.isEmpty ? SettingRow(label: label, values: [empty], isIdList: false) : SettingRow(label: label, values: values, isIdList: true)
        }
        func row(_ label: String, _ value: String) -> SettingRow { SettingRow(label: label, values: [value], isIdList: false) }
        return [
            row("Sports", Format.sports(request.sports, catalog: catalog)),
            row("Dates", request.firstDate == request.lastDate ? Format.longDate(request.firstDate)
                : "\(Format.longDate(request.firstDate)) to \(Format.longDate(request.lastDate))"),
            row("Start", request.start.name),
            row("End", request.end?.name ?? "none (the trip ends at the last game)"),
            row("Objective", Format.objective(request.objective)),
            ids("Must-see games", request.mustSeeGameIds, empty: "none"),
            ids("Required stadiums", request.requiredStadiumIds, empty: "none"),
            ids("Home teams", request.homeTeamIds, empty: "any"),
            row("Max games per day", String(request.maxGamesPerDay)),
            row("Rest days", String(request.restDays)),
            row("Options asked for", String(request.optionCount)),
        ]
    }

    /// The travel-model constants the planner used, sorted by name.
    var constantRows: [(String, String)] {
        plan.request.constants.keys.sorted().map { ($0, Format.trimmed(plan.request.constants[$0] ?? 0, 4)) }
    }

    /// Rows of the score breakdown. The margin before a game is measured against the starts the plan
    /// used; when some of them are assumed (not published) the row says so.
    func scoreRows(_ option: TripOption) -> [(String, String)] {
        let score = option.score
        let assumed = option.visits.filter { $0.knowledge != .exact }.count
        let margin = Format.duration(hours: score.minSlackHours)
            + (assumed == 0 ? "" : " (\(Format.count(assumed, "start")) assumed)")
        return [
            ("Total (ranking score)", Format.trimmed(score.total, 3)),
            ("Games", String(score.games)),
            ("Distinct stadiums", String(score.distinctStadiums)),
            ("Must-see games covered", "\(score.mustSeeCovered) of \(score.mustSeeTotal)"),
            ("Driving time", Format.duration(hours: score.drivingHours)),
            ("Driving distance", Format.distance(kilometres: score.drivingKilometres)),
            ("Rest days", String(score.restDays)),
            ("Smallest margin before a game", margin),
        ]
    }

    /// `TD Garden → Madison Square Garden`.
    func driveTitle(_ leg: DriveLeg) -> String { "\(leg.fromName) → \(leg.toName)" }

    /// `11:00 AM EST to 2:37 PM EST, 226 mi (364 km), 3 h 37 min`.
    func driveDetail(_ leg: DriveLeg, on date: LocalDate) -> String {
        "\(Format.legTime(leg.departLocal, on: date)) to \(Format.legTime(leg.arriveLocal, on: date)), "
            + "\(Format.distance(kilometres: leg.kilometres)), \(Format.duration(hours: leg.hours))"
    }

    /// Notes render adds about the plan itself (inconsistencies it worked around).
    var renderNotes: [String] { outlines.flatMap { outline in outline.problems.map { "Option \(outline.option.rank): \($0)" } } }
}
