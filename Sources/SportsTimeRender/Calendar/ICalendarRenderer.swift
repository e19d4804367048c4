import Foundation
import SportsTimeCore

/// Writes the best option's games as an RFC 5545 calendar.
///
/// - One `VEVENT` per game, `UID` `<game id>@sportstime` (stable across runs and re-plans).
/// - `DTSTART;TZID=<IANA zone>` in stadium-local time, with a `VTIMEZONE` per zone generated from
///   tzdata for the trip's years; `DTSTART;VALUE=DATE` (an all-day event) when the start is not published,
///   whether only a day/night flag is known or nothing: the summary says `(day game, time to be announced)` or
///   `(time to be announced)` and the description names the start the plan assumed.
/// - `DTEND` = start + how long the sport occupies a visitor (`gameHours.<sport>` from the plan's
///   constants, else `occupancyHours`).
/// - `DTSTAMP` and `LAST-MODIFIED` = the game's `lastModified` in the merged store (the data, never
///   the clock); `fallbackTimestamp` when the store no longer has the game.
/// - A plan without options still gets a valid calendar: no events, its description says why, and
///   the start's `VTIMEZONE` keeps it a non-empty iCalendar object.
struct ICalendarRenderer {
    var catalog: RenderCatalog

    static let productId = "-//SportsTime//sportstime-render//EN"

    /// Hours a game takes from first pitch / tip-off / puck drop to the end, by sport.
    static let occupancyHours: [String: Double] = [
        "mlb": 3.0, "nba": 2.5, "nhl": 2.5, "nfl": 3.25, "mls": 2.0, "wnba": 2.0, "nwsl": 2.0,
    ]
    /// For sports not in `occupancyHours`.
    static let defaultOccupancyHours = 3.0
    /// DTSTAMP for a game the merged store no longer has: the date the built-in sport definitions
    /// were last revised (a fixed value, documented in the module README).
    static let fallbackTimestamp = BuiltInSport.definitionsRevised

    func render(_ plan: TripPlan) -> (data: Data, problems: [String]) {
        var problems: [String] = []
        var w = ICalendarWriter()
        w.begin("VCALENDAR")
        w.raw("VERSION", "2.0")
        w.raw("PRODID", ICalendarRenderer.productId)
        w.raw("CALSCALE", "GREGORIAN")
        w.raw("METHOD", "PUBLISH")
        w.text("NAME", plan.request.title)
        w.text("X-WR-CALNAME", plan.request.title)
        let description: String
        let option = plan.options.first
        if let option {
            let first = option.visits.map(\.localDate).min() ?? plan.request.firstDate
            let last = option.days.map(\.date).max() ?? option.visits.map(\.localDate).max() ?? plan.request.lastDate
            description =
                "Option 1 of \(plan.options.count): \(Format.count(option.visits.count, "game")), "
                + "\(Format.dateRange(first, last)), \(Format.distance(kilometres: option.score.drivingKilometres)) of driving. "
                + "Times are local to each stadium."
        } else {
            description = "No trip was found for this request. " + (plan.infeasibility ?? "The plan gives no reason.")
        }
        w.text("DESCRIPTION", description)
        w.text("X-WR-CALDESC", description)

        let visits = option?.visits ?? []
        // Zones used, each with the years its events fall in.
        var yearsByZone: [String: ClosedRange<Int>] = [:]
        func note(_ zone: String, _ year: Int) {
            if let range = yearsByZone[zone] {
                yearsByZone[zone] = min(range.lowerBound, year)...max(range.upperBound, year)
            } else {
                yearsByZone[zone] = year...year
            }
        }
        for visit in visits where visit.localTime != nil { note(visit.timeZone, visit.localDate.year) }
        if visits.isEmpty {
            note(plan.request.start.timeZone, plan.request.firstDate.year)
            note(plan.request.start.timeZone, plan.request.lastDate.year)
        }
        var validZones: Set<String> = []
        for zoneId in yearsByZone.keys.sorted() {
            guard let zone = ZonedTime.zone(zoneId), let years = yearsByZone[zoneId] else {
                problems.append("Time zone '\(zoneId)' is not in tzdata; its games are written in UTC.")
                continue
            }
            validZones.insert(zoneId)
            w.begin("VTIMEZONE")
            w.raw("TZID", zoneId)
            for observance in TimeZoneRules.observances(of: zone, years: years) {
                let kind = observance.isDaylight ? "DAYLIGHT" : "STANDARD"
                w.begin(kind)
                w.raw("DTSTART", observance.localOnset)
                w.raw("TZOFFSETFROM", ICalendarFormat.offset(observance.offsetFrom))
                w.raw("TZOFFSETTO", ICalendarFormat.offset(observance.offsetTo))
                w.text("TZNAME", observance.name)
                w.end(kind)
            }
            w.end("VTIMEZONE")
        }

        if let option {
            for (index, visit) in option.visits.enumerated() {
                event(for: visit, number: index + 1, option: option, plan: plan, validZones: validZones, writer: &w)
            }
            let missing = option.visits.map(\.gameId).filter { catalog.gameLastModified[$0] == nil }
            if let first = missing.first {
                problems.append(
                    "\(Format.count(missing.count, "game")) of option 1 \(missing.count == 1 ? "is" : "are") not in the merged store "
                        + "(\(first)\(missing.count > 1 ? ", ..." : "")); the calendar uses the fixed DTSTAMP \(ICalendarRenderer.fallbackTimestamp.iso8601)"
                )
            }
        }
        w.end("VCALENDAR")
        return (w.data, problems)
    }

    private func event(
        for visit: GameVisit, number: Int, option: TripOption, plan: TripPlan, validZones: Set<String>,
        writer w: inout ICalendarWriter
    ) {
        w.begin("VEVENT")
        w.raw("UID", "\(visit.gameId)@sportstime")
        let stamp = catalog.gameLastModified[visit.gameId] ?? ICalendarRenderer.fallbackTimestamp
        w.raw("DTSTAMP", ICalendarFormat.utcDateTime(stamp))

        let hours =
            plan.request.constants["gameHours.\(visit.sport)"]
            ?? ICalendarRenderer.occupancyHours[visit.sport] ?? ICalendarRenderer.defaultOccupancyHours
        let duration = Int64((hours * 3600).rounded())
        let zone = validZones.contains(visit.timeZone) ? ZonedTime.zone(visit.timeZone) : nil
        if let start = ICalendarRenderer.startInstant(of: visit, zone: zone) {
            let end = start.adding(seconds: duration)
            if let zone {
                let local = { (instant: Instant) in instant.adding(seconds: Int64(ZonedTime.offset(of: instant, in: zone))) }
                w.raw("DTSTART", ICalendarFormat.localDateTime(local(start)), parameters: [("TZID", visit.timeZone)])
                w.raw("DTEND", ICalendarFormat.localDateTime(local(end)), parameters: [("TZID", visit.timeZone)])
            } else {
                w.raw("DTSTART", ICalendarFormat.utcDateTime(start))
                w.raw("DTEND", ICalendarFormat.utcDateTime(end))
            }
        } else {
            w.raw("DTSTART", ICalendarFormat.basicDate(visit.localDate), parameters: [("VALUE", "DATE")])
            w.raw("DTEND", ICalendarFormat.basicDate(visit.localDate.adding(days: 1)), parameters: [("VALUE", "DATE")])
        }
        let sport = catalog.abbreviation(ofSport: visit.sport)
        let tbd: String =
            switch visit.knowledge {
            case .exact: visit.localTime == nil ? " (time to be announced)" : ""
            case .day, .night: " (\(visit.knowledge.rawValue) game, time to be announced)"
            case .unknown: " (time to be announced)"
            }
        w.text("SUMMARY", "\(sport): \(visit.awayTeamName) at \(visit.homeTeamName)\(tbd)")
        w.text("LOCATION", "\(visit.stadiumName), \(catalog.place(of: visit))")
        w.raw("GEO", "\(NumberText.trimmed(visit.latitude, 6));\(NumberText.trimmed(visit.longitude, 6))")
        w.raw("CATEGORIES", ([sport] + (visit.isMustSee ? ["Must-see"] : [])).map(ICalendarText.escape).joined(separator: ","))
        var lines = ["Game \(number) of \(option.visits.count) on \"\(plan.request.title)\" (option 1)."]
        if visit.isMustSee { lines.append("Must-see game.") }
        if visit.venueAssumed == true {
            lines.append("Venue to be confirmed: planned at the home team's stadium, \(visit.stadiumName).")
        }
        if visit.knowledge != .exact {
            let assumed = Format.assumedTime(visit).map { "; the plan assumes \($0) and lays the drives out around it" } ?? ""
            lines.append(
                visit.knowledge == .unknown
                    ? "Start time to be announced\(assumed)."
                    : "Start time not published, only that it is a \(visit.knowledge.rawValue) game\(assumed).")
        }
        let plannedStart = OptionOutline.plannedStart(of: visit)
        for leg in option.legs
        where leg.toStadiumId == visit.stadiumId && OptionOutline.localDate(of: leg.arriveLocal) == visit.localDate
            && (plannedStart.map { leg.arriveUTC <= $0 } ?? true)
        {
            let note = (leg.assumedStartGameIds ?? []).contains(visit.gameId) ? " (planned around the assumed start)" : ""
            lines.append(
                "Drive before: \(leg.fromName) to \(leg.toName), \(Format.distance(kilometres: leg.kilometres)), "
                    + "\(Format.duration(hours: leg.hours)), leaving \(Format.legTime(leg.departLocal, on: visit.localDate))\(note).")
        }
        lines.append("Game id: \(visit.gameId)")
        w.text("DESCRIPTION", lines.joined(separator: "\n"))
        if catalog.gameLastModified[visit.gameId] != nil {
            w.raw("LAST-MODIFIED", ICalendarFormat.utcDateTime(stamp))
        }
        w.raw("TRANSP", "OPAQUE")
        w.end("VEVENT")
    }

    /// The game's start: its UTC instant, else its local time in its zone; nil when the time is TBD
    /// (`localTime` is nil, whatever placeholder instant the plan carries).
    static func startInstant(of visit: GameVisit, zone: TimeZone?) -> Instant? {
        guard let time = visit.localTime else { return nil }
        if let start = visit.startUTC { return start }
        guard let zone else { return nil }
        let parts = time.split(separator: ":")
        guard parts.count >= 2, let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        return ZonedTime.instant(date: visit.localDate, hour: hour, minute: minute, in: zone)
    }
}
