import Foundation
import SportsTimeCore

/// Says, with numbers, which constraint stops a trip: a must-see pair too far apart for the time
/// between them, a must-see game out of reach of the start or the end, an ocean, the rest rule.
struct Explainer {
    let graph: TripGraph

    private var model: TravelModel { graph.model }
    private var request: PlanRequest { graph.request }

    private var limitText: String {
        "the driving limit allows \(Format.hours(model.maxDrivingHoursPerDay)) h per day between "
            + "\(Format.clock(minutes: model.drivingWindowStartMinute)) and \(Format.clock(minutes: model.drivingWindowEndMinute)) local"
    }

    private func when(_ c: TripGraph.Candidate) -> String {
        switch c.knowledge {
        case .exact: graph.clock.localText(c.start, zone: c.zone)
        case .day, .night:
            "\(c.date) (\(c.knowledge.rawValue) game, exact time not published, assumed \(graph.clock.localClock(c.start, zone: c.zone)))"
        case .unknown: "\(c.date) (time TBD, assumed \(graph.clock.localClock(c.start, zone: c.zone)))"
        }
    }

    /// ` (assumed starts: <id> 13:10, day game; <id> 19:00, time TBD)` when the numbers rest on starts that
    /// are not published; empty when every start is exact.
    private func assumedStarts(_ games: [TripGraph.Candidate]) -> String {
        let parts = games.filter(\.isTBD).map { c in
            "\(c.game.id) \(graph.clock.localClock(c.start, zone: c.zone)), "
                + (c.knowledge == .unknown ? "time TBD" : "\(c.knowledge.rawValue) game")
        }
        return parts.isEmpty ? "" : " (assumed starts: \(parts.joined(separator: "; ")))"
    }

    private func cityOf(_ place: Int) -> String {
        let p = graph.places[place]
        return p.city.isEmpty ? p.name : p.city
    }

    /// Why game `v` cannot follow game `u` on one trip (nil when it can).
    func pairReason(_ u: Int, _ v: Int, label: String = "must-see games") -> String? {
        let cu = graph.candidates[u], cv = graph.candidates[v]
        let a = cu.game.id, b = cv.game.id
        if cu.date == cv.date, request.maxGamesPerDay < 2 {
            let cities =
                cu.place == cv.place
                ? "at \(graph.places[cu.place].name)"
                : "in different cities (\(cityOf(cu.place)) and \(cityOf(cv.place)))"
            return "\(label) \(a) and \(b) are on the same day (\(cu.date)) \(cities); maxGamesPerDay is \(request.maxGamesPerDay)"
        }
        if cu.date < cv.date, cu.date.days(until: cv.date) - 1 < request.restDays {
            let gap = cu.date.days(until: cv.date) - 1
            return "\(label) \(a) and \(b) have \(gap) day\(gap == 1 ? "" : "s") between them; restDays \(request.restDays) "
                + "needs \(request.restDays) day\(request.restDays == 1 ? "" : "s") without games or driving between game days"
        }
        if cu.place == cv.place {
            if cu.end > cv.start {
                return "\(label) \(a) and \(b) overlap: \(b) starts at \(when(cv)) before \(a) ends "
                    + "(a \(cu.game.sport) game takes \(Format.hours(model.hours(ofGameIn: cu.game.sport))) h)"
            }
            return nil
        }
        guard let drive = graph.drive(cu.place, cv.place) else {
            return "\(label) \(a) and \(b) cannot be joined by road: "
                + (model.undrivableReason(from: graph.places[cu.place], to: graph.places[cv.place]) ?? "no road")
        }
        if graph.schedule(from: u, to: v, seconds: drive.seconds, carry: nil) != nil { return nil }
        let between = Double(cv.start - cu.end) / 3600
        return
            "\(label) \(a) and \(b) are \(Format.kilometres(drive.kilometres)) km apart (about \(Format.hours(drive.hours)) h of driving) "
            + "with \(Format.hours(max(0, between))) h between the end of the first and the start of the second"
            + assumedStarts([cu, cv]) + " "
            + "(leaving \(NumberText.decimal(model.leaveAfterGameMinutes, places: 0)) min after, arriving \(NumberText.decimal(model.arriveBeforeGameMinutes, places: 0)) min before); "
            + limitText
            + (request.restDays > 0 ? ", and restDays \(request.restDays) keeps the days between game days free" : "")
    }

    /// Why game `v` cannot be reached from the start.
    func startReason(_ v: Int, label: String) -> String {
        let cv = graph.candidates[v]
        let start = graph.places[graph.startPlace]
        guard let drive = graph.drive(graph.startPlace, cv.place) else {
            return "\(label) \(cv.game.id) cannot be reached by road from the start: "
                + (model.undrivableReason(from: start, to: graph.places[cv.place]) ?? "no road")
        }
        return "\(label) \(cv.game.id) starts \(when(cv)) at \(graph.places[cv.place].name), \(Format.kilometres(drive.kilometres)) km "
            + "(about \(Format.hours(drive.hours)) h of driving) from the start (\(start.name)); leaving no earlier than "
            + "\(graph.clock.localText(graph.startEarliest, zone: graph.placeZones[graph.startPlace])) on the first day of the window, "
            + limitText + ", which cannot get there \(NumberText.decimal(model.arriveBeforeGameMinutes, places: 0)) min before the start"
    }

    /// Why the end cannot be reached after game `u`.
    func endReason(_ u: Int, label: String) -> String {
        let cu = graph.candidates[u]
        guard let endPlace = graph.endPlace, let deadline = graph.endDeadline else { return "" }
        let end = graph.places[endPlace]
        guard let drive = graph.drive(cu.place, endPlace) else {
            return "the end (\(end.name)) cannot be reached by road after \(label) \(cu.game.id): "
                + (model.undrivableReason(from: graph.places[cu.place], to: end) ?? "no road")
        }
        return "after \(label) \(cu.game.id) (\(when(cu)) at \(graph.places[cu.place].name)) the end (\(end.name)) is "
            + "\(Format.kilometres(drive.kilometres)) km away (about \(Format.hours(drive.hours)) h of driving) and must be reached by "
            + "\(graph.clock.localText(deadline, zone: graph.placeZones[endPlace])), the end of the window; " + limitText
    }

    /// Why there are no candidate games at all.
    func noGamesReason(catalog: PlanCatalog) -> String {
        let sports = request.sports.joined(separator: ", ")
        var text = "there are no \(sports) games between \(request.firstDate) and \(request.lastDate)"
        if !request.homeTeamIds.isEmpty { text += " with home team \(request.homeTeamIds.joined(separator: " or "))" }
        let outOfSeason = request.sports.compactMap { catalog.sport($0) }.filter { sport in
            var date = request.firstDate
            while date <= request.lastDate { if sport.isInSeason(month: date.month) { return false }; date = date.adding(days: 1) }
            return true
        }
        if !outOfSeason.isEmpty {
            text +=
                " ("
                + outOfSeason.map { "the \($0.id) season runs \(Self.month($0.seasonStartMonth))–\(Self.month($0.seasonEndMonth))" }
                .joined(separator: "; ") + ")"
        }
        return text
    }

    static func month(_ m: Int) -> String {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][max(0, min(11, m - 1))]
    }
}
