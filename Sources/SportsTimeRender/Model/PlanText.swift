import Foundation
import SportsTimeCore

/// Sentences and phrases both the Markdown and the HTML itinerary use, so they say the same thing.
struct PlanText {
    let plan: TripPlan
    let catalog: RenderCatalog
    let outlines: [OptionOutline]
    /// For an infeasible request: the best trip for each compatible set of must-see games (`plan.branches`).
    let branchOutlines: [OptionOutline]
    /// Every visit of every option by game id, to describe games that conflicts name.
    let visitsById: [String: GameVisit]
    /// The game ids a planner message may name: visits, must-see games and the games of conflicts.
    private let knownGameIds: Set<String>

    init(plan: TripPlan, catalog: RenderCatalog, outlines: [OptionOutline], branchOutlines: [OptionOutline] = []) {
        self.plan = plan
        self.catalog = catalog
        self.outlines = outlines
        self.branchOutlines = branchOutlines
        var visits: [String: GameVisit] = [:]
        for option in plan.options + (plan.branches ?? []) {
            for visit in option.visits where visits[visit.gameId] == nil { visits[visit.gameId] = visit }
        }
        visitsById = visits
        var known = Set(visits.keys).union(plan.request.mustSeeGameIds)
        for conflict in plan.conflicts { known.formUnion(conflict.gameIds) }
        knownGameIds = known
    }

    /// `NBA, NHL · Nov 1–7, 2025 · most distinct stadiums`.
    var subtitleParts: [String] {
        [
            Format.sports(plan.request.sports, catalog: catalog),
            Format.dateRange(plan.request.firstDate, plan.request.lastDate),
            Format.objective(plan.request.objective),
        ]
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
        text +=
            ", \(Format.distance(kilometres: option.score.drivingKilometres)) and \(Format.duration(hours: option.score.drivingHours)) of driving."
        return text
    }

    func title(of visit: GameVisit) -> String { "\(visit.awayTeamName) at \(visit.homeTeamName)" }

    /// `Madison Square Garden, New York, NY`.
    /// `United Center, Chicago, IL`; when no source states the venue, `venue to be confirmed (planned at the
    /// home team's stadium, United Center, Chicago, IL)`.
    func venue(of visit: GameVisit) -> String {
        let place = "\(visit.stadiumName), \(catalog.place(of: visit))"
        return visit.venueAssumed == true ? "venue to be confirmed (planned at the home team's stadium, \(place))" : place
    }

    /// A planner message as a traveller reads it: game ids become the game (`Denver Nuggets at New York
    /// Knicks, Wed, Feb 4`), kilometres become miles with kilometres, decimal hours hours and minutes.
    func readable(_ message: String) -> String {
        let known = knownGameIds
        var words: [String] = []
        for word in message.split(separator: " ", omittingEmptySubsequences: false) {
            var core = Substring(word), tail = ""
            while let last = core.last, ",;:.)".contains(last) { tail = String(last) + tail; core = core.dropLast() }
            words.append(known.contains(String(core)) ? gameName(String(core)) + tail : String(word))
        }
        var text = words.joined(separator: " ")
        text = replacing(Self.kilometres, in: text) { number in
            Double(number.replacingOccurrences(of: ",", with: "")).map { Format.distance(kilometres: $0) }
        }
        text = replacing(Self.hours, in: text) { number in Double(number).map { Format.duration(hours: $0) } }
        text = text.replacingOccurrences(
            of: "branches lists the best trip for each compatible set",
            with: "the best trip for each compatible set is shown below")
        return text
    }

    /// `Denver Nuggets at New York Knicks, Wed, Feb 4` for a game on some trip; else from its id
    /// (`GSW at LAL, Sat, Feb 7`).
    func gameName(_ id: String) -> String {
        if let visit = visitsById[id] { return "\(title(of: visit)), \(Format.shortDate(visit.localDate))" }
        let parts = id.split(separator: "-").map(String.init)
        for i in 1..<max(1, parts.count - 2) {
            guard let date = LocalDate(iso8601: parts[i...(i + 2)].joined(separator: "-")) else { continue }
            let rest = parts[(i + 3)...].filter { !($0.hasPrefix("g") && Int($0.dropFirst()) != nil) }
            guard let at = rest.firstIndex(of: "at"), at > rest.startIndex, at < rest.endIndex - 1 else { break }
            let away = rest[rest.startIndex..<at].joined(separator: "-").uppercased()
            let home = rest[(at + 1)...].joined(separator: "-").uppercased()
            return "\(away) at \(home), \(Format.shortDate(date))"
        }
        return id
    }

    /// `12,345.6 km` and `3.25 h` in planner messages, compiled once (a compiled expression is immutable
    /// and may match on several threads at once; render writes plans on all cores).
    private static let kilometres = try? NSRegularExpression(pattern: #"(\d[\d,]*(?:\.\d+)?) km\b"#)
    private static let hours = try? NSRegularExpression(pattern: #"(\d+\.\d+) h\b"#)

    /// `text` with each match of `regex`'s first group replaced by `transform` of it (kept when nil).
    private func replacing(_ regex: NSRegularExpression?, in text: String, _ transform: (String) -> String?) -> String {
        guard let regex else { return text }
        var result = text
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
        for match in matches.reversed() {
            guard let whole = Range(match.range, in: text), let group = Range(match.range(at: 1), in: text),
                let replacement = transform(String(text[group]))
            else { continue }
            result.replaceSubrange(whole, with: replacement)
        }
        return result
    }

    /// A game a conflict names, described when some option holds it.
    func describeGame(_ id: String) -> String? {
        guard let visit = visitsById[id] else { return nil }
        return
            "\(catalog.abbreviation(ofSport: visit.sport)) \(title(of: visit)), \(Format.shortDate(visit.localDate)), \(Format.gameTime(visit)), \(visit.city)"
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
            return "Best found by a heuristic search; no trip takes fewer than \(NumberText.trimmed(bound, 3)) days."
        }
        if option.rank == 1 && !plan.search.isExact {
            if let bound = plan.search.upperBound {
                return "Best found by a heuristic search; no trip can score above \(NumberText.trimmed(bound, 3))."
            }
            return "Best found by a heuristic search (not proven optimal)."
        }
        return "Alternative \(option.rank - 1) of \(max(plan.options.count - 1, 1)), distinct from the options above it."
    }

    /// `exact label-setting search (proven)`.
    var searchSummary: String {
        let method = plan.search.method.description.replacingOccurrences(of: "-", with: " ")
        var text = plan.search.isExact ? "\(method) (exact)" : "\(method) (heuristic)"
        if let bound = plan.search.upperBound { text += ", upper bound \(NumberText.trimmed(bound, 3))" }
        return text
    }

    var searchFigures: String {
        "\(NumberText.grouped(plan.search.candidateGames)) candidate games, "
            + "\(NumberText.grouped(plan.search.arcs)) feasible drives between them, "
            + "\(NumberText.grouped(plan.search.labelsExpanded)) search states expanded."
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
            values.isEmpty
                ? SettingRow(label: label, values: [empty], isIdList: false) : SettingRow(label: label, values: values, isIdList: true)
        }
        func row(_ label: String, _ value: String) -> SettingRow { SettingRow(label: label, values: [value], isIdList: false) }
        return [
            row("Sports", Format.sports(request.sports, catalog: catalog)),
            row(
                "Dates",
                request.firstDate == request.lastDate
                    ? Format.longDate(request.firstDate)
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
        plan.request.constants.keys.sorted().map { ($0, NumberText.trimmed(plan.request.constants[$0] ?? 0, 4)) }
    }

    /// Rows of the score breakdown. The margin before a game is measured against the starts the plan
    /// used; when some of them are assumed (not published) the row says so.
    func scoreRows(_ option: TripOption) -> [(String, String)] {
        let score = option.score
        let assumed = option.visits.filter { $0.knowledge != .exact }.count
        let margin =
            Format.duration(hours: score.minSlackHours)
            + (assumed == 0 ? "" : " (\(Format.count(assumed, "start")) assumed)")
        return [
            ("Total (ranking score)", NumberText.trimmed(score.total, 3)),
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

    /// `BC Place → PayPal Park, day 2 of 4`.
    func drivePartTitle(_ leg: DriveLeg, _ part: DrivePart) -> String {
        "\(leg.fromName) → \(leg.toName), day \(part.part) of \(part.parts)"
    }

    /// `9:00 AM PDT to 3:00 PM PDT, about 397 mi (639 km), 6 h; overnight about 40 mi (64 km) from Portland, OR`.
    /// The first part also gives the whole drive's distance and time; the last says it arrives.
    func drivePartDetail(_ leg: DriveLeg, _ part: DrivePart, on date: LocalDate, separator: String = ", ") -> String {
        var text =
            "\(Format.legTime(part.startLocal, on: date)) to \(Format.legTime(part.endLocal, on: date))" + separator
            + "about \(Format.distance(kilometres: leg.kilometres * (part.doneFraction - part.startFraction)))" + separator
            + Format.duration(hours: part.hours)
        if part.part == 1 {
            text += " (of \(Format.distance(kilometres: leg.kilometres)), \(Format.duration(hours: leg.hours)) in all)"
        }
        if part.isLast {
            text += "; arrive at \(leg.toName)"
        } else if let point = part.endCoordinate {
            text += "; \(overnight(at: point))"
        } else {
            text += "; overnight on the way"
        }
        return text
    }

    /// Where a night on the road is: by the nearest city with a stadium in the merged data.
    func overnight(at point: Coordinate) -> String {
        var best: (Double, Stadium)?
        for stadium in catalog.stadiumsInIdOrder {
            let km = GreatCircle.kilometres(from: point, to: Coordinate(latitude: stadium.latitude, longitude: stadium.longitude))
            if best == nil || km < best!.0 { best = (km, stadium) }
        }
        guard let (km, stadium) = best else { return "overnight on the way" }
        let city = stadium.region.isEmpty ? stadium.city : "\(stadium.city), \(stadium.region)"
        return km < 30 ? "overnight in \(city)" : "overnight about \(Format.distance(kilometres: km)) from \(city)"
    }

    /// Notes render adds about the plan itself (inconsistencies it worked around).
    var renderNotes: [String] { outlines.flatMap { outline in outline.problems.map { "Option \(outline.option.rank): \($0)" } } }
}
