import Foundation
import SportsTimeCore

/// One thing that happens on a day: a drive or a game, with its index in the option.
enum DayEvent: Sendable, Hashable {
    case drive(index: Int, leg: DriveLeg)
    /// One day's share of a drive that spans several days.
    case drivePart(index: Int, leg: DriveLeg, part: DrivePart)
    case game(index: Int, visit: GameVisit)
}

/// The share of a multi-day drive driven on one date (in the zone the drive leaves from, as the planner
/// schedules it): inside the driving window, at most the daily cap counting what was driven before.
struct DrivePart: Sendable, Hashable {
    /// 1-based part and how many parts the drive has.
    var part: Int
    var parts: Int
    var date: LocalDate
    /// Wall-clock texts like the plan's, `2025-05-12 09:00 PDT`.
    var startLocal: String
    var endLocal: String
    var hours: Double
    /// Share of the drive done at the end of this part (0…1), and where that is on the straight line
    /// between the ends: the overnight stop when this is not the last part.
    var startFraction: Double
    var doneFraction: Double
    var endCoordinate: Coordinate?
    var isLast: Bool { part == parts }
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
    /// Every drive on the day, whole or a day's part of a longer one.
    var driveEvents: [DayEvent] {
        events.filter { if case .game = $0 { return false } else { return true } }
    }
}

/// A place on the route: the start, a game (numbered in visit order), or the end.
struct RouteStop: Sendable {
    enum Kind: String, Sendable { case start, game, stop, end }
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
                if visits.indices.contains(index) {
                    entry.visits.append(index)
                } else {
                    problems.append("Day \(day.date.iso8601) lists game \(index + 1), but the option has \(visits.count) games.")
                }
            }
            for index in day.legIndices {
                if legs.indices.contains(index) {
                    entry.legs.append(index)
                } else {
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
            if !option.days.isEmpty {
                problems.append("Game \(visit.gameId) was on no day of the plan; shown on \(visit.localDate.iso8601).")
            }
        }
        let listedLegs = Set(dayByDate.values.flatMap(\.legs))
        for (index, leg) in legs.enumerated() where !listedLegs.contains(index) {
            let date = OptionOutline.localDate(of: leg.departLocal) ?? leg.departUTC.utcDate
            var entry = dayByDate[date] ?? (0, false, [], [])
            entry.legs.append(index)
            entry.drivingHours += leg.hours
            entry.isRestDay = false
            dayByDate[date] = entry
            if !option.days.isEmpty {
                problems.append("The drive \(leg.fromName) to \(leg.toName) was on no day of the plan; shown on \(date.iso8601).")
            }
        }

        // Where each stadium is: games, stadium stops without a game, a start or end at a stadium.
        var stadiumCoordinates: [String: Coordinate] = [:]
        for visit in visits where stadiumCoordinates[visit.stadiumId] == nil {
            stadiumCoordinates[visit.stadiumId] = Coordinate(latitude: visit.latitude, longitude: visit.longitude)
        }
        for stop in option.stops ?? [] where stadiumCoordinates[stop.stadiumId] == nil {
            stadiumCoordinates[stop.stadiumId] = Coordinate(latitude: stop.latitude, longitude: stop.longitude)
        }
        if let id = request.start.stadiumId, stadiumCoordinates[id] == nil { stadiumCoordinates[id] = request.start.coordinate }
        if let end = request.end, let id = end.stadiumId, stadiumCoordinates[id] == nil { stadiumCoordinates[id] = end.coordinate }
        func ends(of leg: DriveLeg, index: Int) -> (from: Coordinate?, to: Coordinate?) {
            var from = leg.fromStadiumId.flatMap { stadiumCoordinates[$0] }
            if from == nil && (leg.fromName == request.start.name || index == 0) { from = request.start.coordinate }
            var to = leg.toStadiumId.flatMap { stadiumCoordinates[$0] }
            if to == nil, let end = request.end, leg.toName == end.name || index == legs.count - 1 { to = end.coordinate }
            return (from, to)
        }

        // Drives that span several dates, split per date as the planner schedules them.
        let planHours = Dictionary(option.days.map { ($0.date, $0.drivingHours) }, uniquingKeysWith: +)
        var partsByDate: [LocalDate: [(index: Int, part: DrivePart)]] = [:]
        var splitLegs: Set<Int> = []
        var used: [LocalDate: Int64] = [:]
        for (index, leg) in legs.enumerated() {
            let (from, to) = ends(of: leg, index: index)
            let parts = OptionOutline.split(
                leg, used: &used, planHours: planHours, constants: request.constants,
                from: from, to: to)
            guard parts.count > 1 else { continue }
            splitLegs.insert(index)
            for part in parts {
                partsByDate[part.date, default: []].append((index, part))
                if dayByDate[part.date] == nil {
                    dayByDate[part.date] = (part.hours, false, [], [])
                }
            }
        }

        var days: [DayOutline] = []
        for (offset, date) in dayByDate.keys.sorted().enumerated() {
            let entry = dayByDate[date]!
            var timed: [(key: Int64, order: Int, event: DayEvent)] = []
            for index in Set(entry.legs).sorted() where !splitLegs.contains(index) {
                timed.append((legs[index].departUTC.secondsSinceEpoch, 0, .drive(index: index, leg: legs[index])))
            }
            for (index, part) in partsByDate[date] ?? [] {
                let key = part.part == 1 ? legs[index].departUTC.secondsSinceEpoch : Instant(utc: date).secondsSinceEpoch
                timed.append((key, 0, .drivePart(index: index, leg: legs[index], part: part)))
            }
            for index in Set(entry.visits).sorted() {
                let visit = visits[index]
                // A game sorts by the start the plan laid it out at (published or assumed); one the plan
                // gives no time for sorts after everything else that day.
                let key =
                    OptionOutline.plannedStart(of: visit)?.secondsSinceEpoch
                    ?? Instant(utc: visit.localDate.adding(days: 2)).secondsSinceEpoch
                timed.append((key, 1, .game(index: index, visit: visit)))
            }
            timed.sort { ($0.key, $0.order) < ($1.key, $1.order) }
            let isRest = entry.isRestDay && entry.visits.isEmpty && entry.legs.isEmpty && (partsByDate[date] ?? []).isEmpty
            days.append(
                DayOutline(
                    number: offset + 1, date: date, drivingHours: entry.drivingHours.rounded(toPlaces: 2),
                    isRestDay: isRest, events: timed.map(\.event)))
        }
        // Number days by calendar distance from the first, so a gap in the plan's days still reads right.
        if let first = days.first?.date {
            for index in days.indices { days[index].number = first.days(until: days[index].date) + 1 }
        }
        self.days = days

        let dayNumberByDate = Dictionary(days.map { ($0.date, $0.number) }, uniquingKeysWith: { a, _ in a })
        var stops: [RouteStop] = [
            RouteStop(
                kind: .start, number: nil, visitIndex: nil, name: request.start.name, city: request.start.name,
                coordinate: request.start.coordinate, sport: nil, dayNumber: days.first?.number, date: days.first?.date)
        ]
        for (index, visit) in visits.enumerated() {
            stops.append(
                RouteStop(
                    kind: .game, number: index + 1, visitIndex: index, name: visit.stadiumName, city: visit.city,
                    coordinate: Coordinate(latitude: visit.latitude, longitude: visit.longitude), sport: visit.sport,
                    dayNumber: dayNumberByDate[visit.localDate], date: visit.localDate))
        }
        for stop in option.stops ?? [] {
            stops.append(
                RouteStop(
                    kind: .stop, number: nil, visitIndex: nil, name: stop.stadiumName, city: stop.city,
                    coordinate: Coordinate(latitude: stop.latitude, longitude: stop.longitude), sport: nil,
                    dayNumber: dayNumberByDate[stop.localDate], date: stop.localDate))
        }
        if let end = request.end {
            stops.append(
                RouteStop(
                    kind: .end, number: nil, visitIndex: nil, name: end.name, city: end.name,
                    coordinate: end.coordinate, sport: nil, dayNumber: days.last?.number, date: days.last?.date))
        }
        self.stops = stops

        // Place each drive: by stadium id (games and stadium stops), else by the start's or end's name.
        var dayOfLeg: [Int: Int] = [:]
        for day in days.reversed() {
            for event in day.driveEvents {
                switch event {
                case .drive(let index, _), .drivePart(let index, _, _): dayOfLeg[index] = day.number
                case .game: break
                }
            }
        }
        func roughStart(_ visit: GameVisit) -> Instant { OptionOutline.plannedStart(of: visit) ?? Instant(utc: visit.localDate, hour: 12) }
        var paths: [RoutePath] = []
        for (index, leg) in legs.enumerated() {
            // A drive from the start is the first, before any game (a trip starting at a stadium whose game
            // is the first leaves it after that game: a drive between games, drawn solid); a drive to the
            // finish is the last, after every game.
            let leavesStart = index == 0 && visits.first.map { leg.departUTC < roughStart($0) } ?? true
            let reachesEnd =
                index == legs.count - 1 && request.end != nil
                && (visits.last.map { leg.departUTC > roughStart($0) } ?? true)
            let (from, to) = ends(of: leg, index: index)
            guard let from, let to else {
                problems.append("The drive \(leg.fromName) to \(leg.toName) names a place without coordinates; it is not drawn on the map.")
                continue
            }
            paths.append(
                RoutePath(
                    legIndex: index, leg: leg, from: from, to: to, dayNumber: dayOfLeg[index],
                    touchesStartOrEnd: leavesStart || reachesEnd))
        }
        self.paths = paths
        self.problems = problems
    }

    /// A drive's parts per date: one part when it is driven within one date (in the zone it leaves from),
    /// else as the planner schedules it: the first date from the departure, later dates from the driving
    /// window's start, each up to the window's end and the daily cap less what was driven that date before
    /// (`used`, carried across the option's drives), skipping dates the plan gives no driving (a rest day
    /// between games). The last part ends at the plan's arrival.
    static func split(
        _ leg: DriveLeg, used: inout [LocalDate: Int64], planHours: [LocalDate: Double],
        constants: [String: Double], from: Coordinate?, to: Coordinate?
    ) -> [DrivePart] {
        let depart = leg.departUTC.secondsSinceEpoch, arrive = leg.arriveUTC.secondsSinceEpoch
        let pieces = leg.departLocal.split(separator: " ")
        guard pieces.count >= 2, let departDate = LocalDate(iso8601: pieces[0]) else { return [] }
        let clock = pieces[1].split(separator: ":").compactMap { Int64($0) }
        guard clock.count == 2 else { return [] }
        let zone = pieces.count >= 3 ? " " + pieces[2...].joined(separator: " ") : ""
        // Origin-zone offset: local wall clock minus UTC.
        let offset = departDate.daysSinceEpoch * 86_400 + clock[0] * 3600 + clock[1] * 60 - depart
        func dayStart(_ date: LocalDate) -> Int64 { date.daysSinceEpoch * 86_400 - offset }
        func local(_ instant: Int64) -> String {
            let seconds = instant + offset
            let date = LocalDate(daysSinceEpoch: Int64((Double(seconds) / 86_400).rounded(.down)))
            let inDay = seconds - date.daysSinceEpoch * 86_400
            let hh = inDay / 3600, mm = inDay / 60 % 60
            return "\(date.iso8601) \(hh < 10 ? "0" : "")\(hh):\(mm < 10 ? "0" : "")\(mm)\(zone)"
        }
        let total = max(Int64(1), arrive - depart)
        let lastDate = LocalDate(daysSinceEpoch: Int64((Double(arrive - 1 + offset) / 86_400).rounded(.down)))
        guard lastDate > departDate else {
            used[departDate, default: 0] += total
            return []
        }
        let cap = Int64((constants["maxDrivingHoursPerDay"] ?? 24) * 3600)
        let windowStart = Int64((constants["drivingWindowStartHour"] ?? 0) * 3600)
        let windowEnd = Int64((constants["drivingWindowEndHour"] ?? 24) * 3600)
        let driving = Int64((leg.hours * 3600).rounded())
        var remaining = driving
        var spans: [(date: LocalDate, start: Int64, end: Int64)] = []
        var date = departDate
        while remaining > 0 && date <= lastDate && spans.count < 60 {
            let begin = date == departDate ? depart : dayStart(date) + windowStart
            let canDrive = date == departDate || (planHours[date] ?? 1) > 0
            let room = min(dayStart(date) + windowEnd - begin, cap - used[date, default: 0])
            let hours = canDrive ? min(remaining, max(0, room)) : 0
            if hours > 0 || date == lastDate {
                let end = date == lastDate || remaining - hours <= 0 ? arrive : begin + hours
                spans.append((date, begin, end))
                used[date, default: 0] += hours
                remaining -= hours
            }
            date = date.adding(days: 1)
        }
        guard spans.count > 1 else { return [] }
        var parts: [DrivePart] = []
        var done: Int64 = 0
        var previous = 0.0
        for (number, span) in spans.enumerated() {
            let isLast = number == spans.count - 1
            let seconds = isLast ? max(0, driving - done) : span.end - span.start
            done += seconds
            let fraction = isLast ? 1 : Double(done) / Double(max(1, driving))
            var point: Coordinate?
            if let from, let to, !isLast {
                point = Coordinate(
                    latitude: from.latitude + (to.latitude - from.latitude) * fraction,
                    longitude: from.longitude + (to.longitude - from.longitude) * fraction)
            }
            parts.append(
                DrivePart(
                    part: number + 1, parts: spans.count, date: span.date,
                    startLocal: number == 0 ? leg.departLocal : local(span.start),
                    endLocal: isLast ? leg.arriveLocal : local(span.end),
                    hours: (Double(seconds) / 3600).rounded(toPlaces: 2),
                    startFraction: previous, doneFraction: fraction,
                    endCoordinate: point ?? (isLast ? to : nil)))
            previous = fraction
        }
        return parts
    }

    /// The instant the plan laid a game out at: its published start, else the start it assumed (a day/night
    /// flag or TBD) in the stadium's zone; nil when the plan gives neither.
    static func plannedStart(of visit: GameVisit) -> Instant? {
        if visit.knowledge == .exact, let start = visit.startUTC { return start }
        let text = visit.knowledge == .exact ? visit.localTime : visit.assumedLocalTime
        guard let text, let zone = ZonedTime.zone(visit.timeZone) else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
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
