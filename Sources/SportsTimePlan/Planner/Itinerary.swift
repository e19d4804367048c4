import Foundation
import SportsTimeCore

/// A point a trip passes through: a game, or a stop at a required stadium without a game.
enum Waypoint: Hashable {
    case game(Int)
    case stop(Int)
}

/// A trip laid out in time: every leg with its drive schedule, every game with its arrival, every stop.
struct Itinerary {
    struct Leg {
        var from: Int
        var to: Int
        var drive: Drive
        var depart: Int64
        var arrive: Int64
        var segments: [DriveScheduler.Segment]
    }

    struct Visit {
        var candidate: Int
        var arrival: Int64
        /// The earliest arrival the drives allow (the first leg is laid out as late as possible, so its
        /// spare time is measured from the earliest schedule).
        var earliestArrival: Int64
        /// The latest arrival the plan allows (game start − arrive-before, or start for a game at the
        /// stadium one is already at).
        var requiredArrival: Int64
    }

    struct Stop {
        var place: Int
        var arrive: Int64
        var visitStart: Int64
        var visitEnd: Int64
    }

    enum Entry {
        case leg(Int)
        case visit(Int)
        case stop(Int)
    }

    var legs: [Leg] = []
    var visits: [Visit] = []
    var stops: [Stop] = []
    /// Legs, visits and stops in the order they happen.
    var entries: [Entry] = []

    var drivingSeconds: Int64 { legs.reduce(0) { $0 + $1.drive.seconds } }
    var kilometres: Double { legs.reduce(0) { $0 + $1.drive.kilometres } }
}

/// Lays out a sequence of waypoints in time with the same rules the search uses (driving window, daily
/// cap carried across legs, games per day, rest days, deadlines), so any trip the search returns can be
/// written out, and a trip with stops can be checked.
struct ItinerarySimulator {
    let graph: TripGraph

    /// - Parameters:
    ///   - lateFirstLeg: lay the first leg out as late as possible (falls back to the earliest schedule).
    ///   - includeEnd: drive to the request's end after the last waypoint (off when checking a prefix).
    func simulate(_ waypoints: [Waypoint], lateFirstLeg: Bool = true, includeEnd: Bool = true) -> Itinerary? {
        if lateFirstLeg, let late = run(waypoints, late: true, includeEnd: includeEnd) { return late }
        return run(waypoints, late: false, includeEnd: includeEnd)
    }

    private func run(_ waypoints: [Waypoint], late: Bool, includeEnd: Bool) -> Itinerary? {
        let request = graph.request
        var itinerary = Itinerary()
        var place = graph.startPlace
        var time = graph.startEarliest
        var timeDate = request.firstDate
        var carry: DriveScheduler.Carry?
        var lastGame: Int?
        var lastWasGameHere = false
        var gamesToday = 0
        var isFirstLeg = true

        for waypoint in waypoints {
            switch waypoint {
            case .game(let v):
                let cv = graph.candidates[v]
                if let u = lastGame {
                    let cu = graph.candidates[u]
                    if cu.date == cv.date {
                        if gamesToday + 1 > request.maxGamesPerDay { return nil }
                    } else if cu.date > cv.date || cu.date.days(until: cv.date) - 1 < request.restDays {
                        return nil
                    }
                }
                let sameSpot = place == cv.place || (place == graph.startPlace && graph.placesCoincide(place, cv.place))
                var arrival = time
                var earliestArrival = time
                var used: Int64 = 0
                var required = cv.deadline
                if sameSpot {
                    if lastWasGameHere, let u = lastGame {
                        required = cv.start
                        if graph.candidates[u].end > cv.start { return nil }
                        arrival = graph.candidates[u].end
                        earliestArrival = arrival
                    } else if time > cv.deadline {
                        return nil
                    }
                    used = (carry?.date == cv.date) ? carry!.seconds : 0
                } else {
                    guard let drive = graph.drive(place, cv.place) else { return nil }
                    var rest: DriveScheduler.RestRule?
                    if let u = lastGame, request.restDays > 0, graph.candidates[u].date < cv.date {
                        let cu = graph.candidates[u]
                        rest = DriveScheduler.RestRule(
                            lastGameDate: cu.date, nextGameDate: cv.date,
                            usableDays: cu.date.days(until: cv.date) - 1 - request.restDays)
                    }
                    var result: DriveScheduler.Result?
                    let earliest = graph.scheduler.schedule(
                        seconds: drive.seconds, zone: graph.placeZones[place], earliest: time, earliestDate: timeDate,
                        carry: carry, deadline: cv.deadline, target: (cv.dayStart, cv.dayEnd), rest: rest,
                        recordSegments: true)
                    if late, isFirstLeg {
                        result = graph.scheduler.scheduleLatest(
                            seconds: drive.seconds, zone: graph.placeZones[place],
                            notBefore: time, deadline: cv.deadline,
                            target: (cv.dayStart, cv.dayEnd))
                    } else {
                        result = earliest
                    }
                    guard let result, let earliest else { return nil }
                    earliestArrival = earliest.arrive
                    itinerary.legs.append(
                        Itinerary.Leg(
                            from: place, to: cv.place, drive: drive, depart: result.depart,
                            arrive: result.arrive, segments: result.segments))
                    itinerary.entries.append(.leg(itinerary.legs.count - 1))
                    isFirstLeg = false
                    arrival = result.arrive
                    used = result.onTargetDay + ((carry?.date == cv.date) ? carry!.seconds : 0)
                }
                if used > graph.capSeconds { return nil }
                itinerary.visits.append(
                    Itinerary.Visit(
                        candidate: v, arrival: arrival, earliestArrival: earliestArrival,
                        requiredArrival: required))
                itinerary.entries.append(.visit(itinerary.visits.count - 1))
                if let u = lastGame, graph.candidates[u].date == cv.date { gamesToday += 1 } else { gamesToday = 1 }
                lastGame = v
                lastWasGameHere = true
                place = cv.place
                time = cv.departEarliest
                timeDate = cv.departDate
                carry = DriveScheduler.Carry(date: cv.date, seconds: used)

            case .stop(let p):
                let zone = graph.placeZones[p]
                var arrive = time
                var arriveDate = timeDate
                var driven: Int64 = (carry?.date == timeDate) ? carry!.seconds : 0
                if p != place {
                    guard let drive = graph.drive(place, p) else { return nil }
                    guard
                        let result = graph.scheduler.schedule(
                            seconds: drive.seconds, zone: graph.placeZones[place], earliest: time, earliestDate: timeDate,
                            carry: carry, deadline: nil, target: nil, recordSegments: true)
                    else { return nil }
                    itinerary.legs.append(
                        Itinerary.Leg(
                            from: place, to: p, drive: drive, depart: result.depart,
                            arrive: result.arrive, segments: result.segments))
                    itinerary.entries.append(.leg(itinerary.legs.count - 1))
                    isFirstLeg = false
                    arrive = result.arrive
                    if let lastSegment = result.segments.last {
                        arriveDate = lastSegment.date
                        driven =
                            result.segments.filter { $0.date == lastSegment.date }.reduce(0) { $0 + $1.end - $1.start }
                            + ((carry?.date == lastSegment.date) ? carry!.seconds : 0)
                    }
                }
                // The visit happens inside the driving window of the stadium's own day.
                var date = graph.clock.localDate(arrive, zone: zone)
                var visitStart = max(arrive, graph.clock.day(zone, date).windowStart)
                let visit = graph.model.stadiumVisitSeconds
                var guardDays = 3
                while visitStart + visit > graph.clock.day(zone, date).windowEnd {
                    guardDays -= 1
                    if guardDays < 0 { return nil }
                    date = date.adding(days: 1)
                    visitStart = graph.clock.day(zone, date).windowStart
                }
                itinerary.stops.append(Itinerary.Stop(place: p, arrive: arrive, visitStart: visitStart, visitEnd: visitStart + visit))
                itinerary.entries.append(.stop(itinerary.stops.count - 1))
                place = p
                time = visitStart + visit
                timeDate = date
                carry = arriveDate == date ? DriveScheduler.Carry(date: date, seconds: driven) : nil
                lastWasGameHere = false
                if date > request.lastDate { return nil }
            }
        }
        if includeEnd, let endPlace = graph.endPlace, let deadline = graph.endDeadline {
            let sameSpot = place == endPlace || graph.placesCoincide(place, endPlace)
            if !sameSpot {
                guard let drive = graph.drive(place, endPlace) else { return nil }
                guard
                    let result = graph.scheduler.schedule(
                        seconds: drive.seconds, zone: graph.placeZones[place], earliest: time, earliestDate: timeDate,
                        carry: carry, deadline: deadline, target: nil, recordSegments: true)
                else { return nil }
                itinerary.legs.append(
                    Itinerary.Leg(
                        from: place, to: endPlace, drive: drive, depart: result.depart,
                        arrive: result.arrive, segments: result.segments))
                itinerary.entries.append(.leg(itinerary.legs.count - 1))
            } else if time > deadline && !itinerary.visits.isEmpty {
                // Ending where the last game was: only the game's own end must fall inside the window.
                if let last = itinerary.visits.last, graph.candidates[last.candidate].end > deadline { return nil }
            }
        }
        return satisfiesRest(itinerary) ? itinerary : nil
    }

    /// Between two game days, at least `restDays` dates without driving and without stops.
    private func satisfiesRest(_ itinerary: Itinerary) -> Bool {
        let restDays = graph.request.restDays
        guard restDays > 0 else { return true }
        var busy = Set<LocalDate>()
        for leg in itinerary.legs { for s in leg.segments { busy.insert(s.date) } }
        for stop in itinerary.stops { busy.insert(graph.clock.localDate(stop.visitStart, zone: graph.placeZones[stop.place])) }
        let dates = itinerary.visits.map { graph.candidates[$0.candidate].date }
        for (a, b) in zip(dates, dates.dropFirst()) where a < b {
            var free = 0
            var d = a.adding(days: 1)
            while d < b { if !busy.contains(d) { free += 1 }; d = d.adding(days: 1) }
            if free < restDays { return false }
        }
        return true
    }
}
