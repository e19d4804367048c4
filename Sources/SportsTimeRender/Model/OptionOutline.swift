import Foundation
import SportsTimeCore

/// One thing that happens on a day: a drive or a game, with its index in the option.
enum DayEvent: Sendable, Hashable {
    case drive(index: Int, leg: DriveLeg)
    case game(index: Int, visit: GameVisit)
}

/// One stadium-local day of an option with its events in time order.
struct DayOutline: Sendable {
    /// 1-based day of the trip.
    var number: Int
    var date: LocalDate
    var drivingHours: Double
    var isRestDay: Bool
    var events: [DayEvent]

    var games: [(index: Int, visit: GameVisit)] {
        events.compactMap { if case .game(let index, let visit) = $0 { return (index, visit) } else { return nil } }
    }
    var drives: [(index: Int, leg: DriveLeg)] {
        events.compactMap { if case .drive(let index, let leg) = $0 { return (index, leg) } else { return nil } }
    }
}

/// A place on the route: the start, a game (numbered in visit order), or the end.
struct RouteStop: Sendable {
    enum Kind: String, Sendable { case start, game, end }
    var kind: Kind
    /// 1-based game number on the option; nil for start and end.
    var number: Int?
    var visitIndex: Int?
    var name: String
    var city: String
    var coordinate: Coordinate
    var sport: String?
    var dayNumber: Int?
    var date: LocalDate?
}

/// A drive placed on the map.
struct RoutePath: Sendable {
    var legIndex: Int
    var leg: DriveLeg
    var from: Coordinate
    var to: Coordinate
    var dayNumber: Int?
    /// Whether the drive starts at the trip's start or ends at its end (drawn dashed).
    var touchesStartOrEnd: Bool
}

/// What render derives from one option before writing any format: days with events in time
/// order, the stops and drives placed on the map, and any inconsistencies found in the plan.
struct OptionOutline: Sendable {
    var option: TripOption
    var days: [DayOutline]
    var stops: [RouteStop]
    var paths: [RoutePath]
    /// Problems with the plan that render worked around (shown as notes, printed as warnings).
    var problems: [String]

    var firstDate: LocalDate? { days.first?.date }
    var lastDate: LocalDate? { days.last?.date }

    init(option: TripOption, request: ResolvedRequest) {
        self.option = option
        var problems: [String] = []
        let visits = option.visits, legs = option.legs

        // Days as the plan gives them; any visit or leg no day lists is placed on its own date.
        var dayByDate: [LocalDate: (drivingHours: Double, isRestDay: Bool, visits: [Int], legs: [Int])] = [:]
        for day in option.days {
            var entry = dayByDate[day.date] ?? (0, true, [], [])
            entry.drivingHours += day.drivingHours
            entry.isRestDay = entry.isRestDay && day.isRestDay
            for index in day.visitIndices {
                if visits.indices.contains(index) { entry.visits.append(index) } else {
                    problems.append("Day \(day.date.iso8601) lists game \(index + 1), but the option has \(visits.count) games.")
                }
            }
            for index in day.legIndices {
                if legs.indices.contains(index) { entry.legs.append(index) } else {
                    problems.append("Day \(day.date.iso8601) lists drive \(index + 1), but the option has \(legs.count) drives.")
                }
            }
            dayByDate[day.date] = entry
        }
        let listedVisits = Set(dayByDate.values.flatMap(\.visits))
        for (index, visit) in visits.enumerated() where !listedVisits.contains(index) {
            var entry = dayByDate[visit.localDate] ?? (0, false, [], [])
            entry.visits.append(index)
            entry.isRestDay = false
            dayByDate[visit.localDate] = entry
            if !option.days.isEmpty { problems.append("Game \(visit.gameId) was on no day of the plan; shown on \(visit.localDate.iso8601).") }
        }
        let listedLegs = Set(dayByDate.values.flatMap(\.legs))
        for (index, leg) in legs.enumerated() where !listedLegs.contains(index) {
            let date = OptionOutline.localDate(of: leg.departLocal) ?? leg.departUTC.utcDate
            var entry = dayByDate[date] ?? (0, false, [], [])
            entry.legs.append(index)
            entry.drivingHours += leg.hours
            entry.isRestDay = false
            dayByDate[date] = entry
            if !option.days.isEmpty { problems.append("The drive \(leg.fromName) to \(leg.toName) was on no day of the plan; shown on \(date.iso8601).") }
        }

        var days: [DayOutline] = []
        for (offset, date) in dayByDate.keys.sorted().enumerated() {
            let entry = dayByDate[date]!
            var timed: [(key: Int64, order: Int, event: DayEvent)] = []
            for index in Set(entry.legs).sorted() {
                timed.append((legs[index].departUTC.secondsSinceEpoch, 0, .drive(index: index, leg: legs[index])))
            }
            for index in Set(entry.visits).sorted() {
                let visit = visits[index]
                // A game sorts by the start the plan laid it out at (published or assumed); one the plan
                // gives no time for sorts after everything else that day.
                let key = OptionOutline.plannedStart(of: visit)?.secondsSinceEpoch
                    ?? Instant(utc: visit.localDate.adding(days: 2)).secondsSinceEpoch
                timed.append((key, 1, .game(index: index, visit: visit)))
            }
            timed.sort { ($0.key, $0.order) < ($1.key, $1.order) }
            let isRest = entry.isRestDay && entry.visits.isEmpty && entry.legs.isEmpty
            days.append(DayOutline(number: offset + 1, date: date, drivingHours: entry.drivingHours.rounded(toPlaces: 2),
                                   isRestDay: isRest, events: timed.map(\.event)))
        }
        // Number days by calendar distance from the first, so a gap in the plan's days still reads right.
        if let first = days.first?.date {
            for index in days.indices { days[index].number = first.days(until: days[index].date) + 1 }
        }
        self.days = days

        let dayNumberByDate = Dictionary(days.map { ($0.date, $0.number) }, uniquingKeysWith: { a, _ in a })
        var stops: [RouteStop] = [RouteStop(
            kind: .start, number: nil, visitIndex: nil, name: request.start.name, city: request.start.name,
            coordinate: request.start.coordinate, sport: nil, dayNumber: days.first?.number, date: days.first?.date)]
        for (index, visit) in visits.enumerated() {
            stops.append(RouteStop(
                kind: .game, number: index + 1, visitIndex: index, name: visit.stadiumName, city: visit.city,
                coordinate: Coordinate(latitude: visit.latitude, longitude: visit.longitude), sport: visit.sport,
                dayNumber: dayNumberByDate[visit.localDate], date: visit.localDate))
        }
        if let end = request.end {
            stops.append(RouteStop(kind: .end, number: nil, visitIndex: nil, name: end.name, city: end.name,
                                   coordinate: end.coordinate, sport: nil, dayNumber: days.last?.number, date: days.last?.date))
        }
        self.stops = stops

        // Place each drive: by stadium id, else by the start's or end's name, else by position.
        var stadiumCoordinates: [String: Coordinate] = [:]
        for visit in visits where stadiumCoordinates[visit.stadiumId] == nil {
            stadiumCoordinates[visit.stadiumId] = Coordinate(latitude: visit.latitude, longitude: visit.longitude)
        }
        if let id = request.start.stadiumId, stadiumCoordinates[id] == nil { stadiumCoordinates[id] = request.start.coordinate }
        if let end = request.end, let id = end.stadiumId, stadiumCoordinates[id] == nil { stadiumCoordinates[id] = end.coordinate }
        var dayOfLeg: [Int: Int] = [:]
        for day in days { for (index, _) in day.drives { dayOfLeg[index] = day.number } }
        func roughStart(_ visit: GameVisit) -> Instant { OptionOutline.plannedStart(of: visit) ?? Instant(utc: visit.localDate, hour: 12) }
        var paths: [RoutePath] = []
        for (index, leg) in legs.enumerated() {
            let leavesStart = index == 0 && visits.first.map { leg.departUTC < roughStart($0) } ?? true
            let reachesEnd = index == legs.count - 1 && request.end != nil
                && (visits.last.map { leg.departUTC > roughStart($0) } ?? true)
            var from = leg.fromStadiumId.flatMap { stadiumCoordinates[$0] }
            if from == nil && (leavesStart || leg.fromName == request.start.name) { from = request.start.coordinate }
            var to = leg.toStadiumId.flatMap { stadiumCoordinates[$0] }
            if to == nil, let end = request.end, reachesEnd || leg.toName == end.name { to = end.coordinate }
            guard let from, let to else {
                problems.append("The drive \(leg.fromName) to \(leg.toName) names a place without coordinates; it is not drawn on the map.")
                continue
            }
            paths.append(RoutePath(legIndex: index, leg: leg, from: from, to: to, dayNumber: dayOfLeg[index],
                                   touchesStartOrEnd: leavesStart || reachesEnd))
        }
        self.paths = paths
        self.problems = problems
    }

    /// The instant the plan laid a game out at: its published start, else the start it assumed (a day/night
    /// flag or TBD) in the stadium's zone; nil when the plan gives neither.
    static func plannedStart(of visit: GameVisit) -> Instant? {
        if visit.knowledge == .exact, let start = visit.startUTC { return start }
        let text = visit.knowledge == .exact ? visit.localTime : visit.assumedLocalTime
        guard let text, let zone = ZonedTime.zone(visit.timeZone) else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return ZonedTime.instant(date: visit.localDate, hour: hour, minute: minute, in: zone)
    }

    /// The date of a planner wall-clock text like `2025-11-02 11:00 EST`.
    static func localDate(of text: String) -> LocalDate? {
        guard let first = text.split(separator: " ").first else { return nil }
        return LocalDate(iso8601: first)
    }

    /// Total kilometres and hours of all drives (from the score when the plan gives it).
    var drivingKilometres: Double { option.score.drivingKilometres }
    var drivingHours: Double { option.score.drivingHours }

    /// Distinct cities in visit order.
    var cities: [String] {
        var seen: Set<String> = []
        return option.visits.compactMap { seen.insert($0.city).inserted ? $0.city : nil }
    }
}
