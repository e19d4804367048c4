import Foundation
import SportsTimeCore

/// Turns a laid-out itinerary into the `TripOption` render reads: visits with names and local times,
/// legs with local departure/arrival, stadium-local days, and the score breakdown.
struct OptionBuilder {
    let graph: TripGraph
    let catalog: PlanCatalog

    /// The team's full name on `date` (a 2019 game is the Oakland Raiders'); its id when the store has no name for it.
    func teamName(_ id: String, on date: LocalDate) -> String {
        let name = catalog.team(id).map { catalog.names.name(of: $0, on: date) }?.trimmingCharacters(in: .whitespaces) ?? ""
        return name.isEmpty ? id : name
    }

    func option(
        _ itinerary: Itinerary, rank: Int, isProvenOptimal: Bool, warnings extra: [String] = [],
        mustSeeTotal: Int? = nil
    ) -> TripOption {
        let clock = graph.clock
        let request = graph.request
        let mustSee = Set(request.mustSeeGameIds)

        var visits: [GameVisit] = []
        // Each stadium under the name it had on the day of its game, for the visits and the drives to them.
        var stadiumNames: [String: String] = [:]
        for visit in itinerary.visits {
            let c = graph.candidates[visit.candidate]
            let game = c.game
            let stadium = catalog.stadium(game.stadiumId)
            let stadiumName = stadium.map { catalog.names.name(of: $0, on: game.localDate) } ?? game.stadiumId
            stadiumNames[game.stadiumId] = stadiumName
            visits.append(
                GameVisit(
                    gameId: game.id, sport: game.sport, startUTC: c.isTBD ? nil : game.startUTC, localDate: game.localDate,
                    localTime: c.isTBD ? nil : clock.localClock(c.start, zone: c.zone), timeZone: clock.zoneIds[c.zone],
                    timeZoneAbbreviation: clock.abbreviation(c.start, zone: c.zone),
                    homeTeamId: game.homeTeamId, homeTeamName: teamName(game.homeTeamId, on: game.localDate),
                    awayTeamId: game.awayTeamId, awayTeamName: teamName(game.awayTeamId, on: game.localDate),
                    stadiumId: game.stadiumId, stadiumName: stadiumName, city: stadium?.city ?? "",
                    latitude: stadium?.latitude ?? 0, longitude: stadium?.longitude ?? 0, isMustSee: mustSee.contains(game.id),
                    startKnowledge: c.knowledge, assumedLocalTime: c.isTBD ? clock.localClock(c.start, zone: c.zone) : nil,
                    venueAssumed: game.venueAssumed))
        }

        // A drive's times rest on an assumed start when it leaves a game or drives to one whose start is assumed.
        var assumedAround: [Int: [String]] = [:]
        for (position, entry) in itinerary.entries.enumerated() {
            guard case .leg(let index) = entry else { continue }
            var ids: [String] = []
            for neighbour in [position - 1, position + 1] where itinerary.entries.indices.contains(neighbour) {
                guard case .visit(let visit) = itinerary.entries[neighbour] else { continue }
                let c = graph.candidates[itinerary.visits[visit].candidate]
                if c.isTBD { ids.append(c.game.id) }
            }
            if !ids.isEmpty { assumedAround[index] = ids }
        }

        var legs: [DriveLeg] = []
        for (index, leg) in itinerary.legs.enumerated() {
            let from = graph.places[leg.from], to = graph.places[leg.to]
            func name(_ place: TravelPlace) -> String { place.stadiumId.flatMap { stadiumNames[$0] } ?? place.name }
            legs.append(
                DriveLeg(
                    fromName: name(from), toName: name(to), fromStadiumId: from.stadiumId, toStadiumId: to.stadiumId,
                    kilometres: leg.drive.kilometres, hours: leg.drive.hours,
                    departLocal: clock.localText(leg.depart, zone: graph.placeZones[leg.from]),
                    arriveLocal: clock.localText(leg.arrive, zone: graph.placeZones[leg.to]),
                    departUTC: Instant(secondsSinceEpoch: leg.depart), arriveUTC: Instant(secondsSinceEpoch: leg.arrive),
                    assumedStartGameIds: assumedAround[index]))
        }

        var stops: [StadiumStop] = []
        for stop in itinerary.stops {
            let place = graph.places[stop.place]
            let zone = graph.placeZones[stop.place]
            stops.append(
                StadiumStop(
                    stadiumId: place.stadiumId ?? "", stadiumName: place.stadiumId.flatMap { stadiumNames[$0] } ?? place.name,
                    city: place.city,
                    latitude: place.coordinate.latitude, longitude: place.coordinate.longitude, timeZone: place.timeZone,
                    localDate: clock.localDate(stop.visitStart, zone: zone),
                    arriveLocal: clock.localText(stop.arrive, zone: zone),
                    visitStartLocal: clock.localText(stop.visitStart, zone: zone),
                    visitEndLocal: clock.localText(stop.visitEnd, zone: zone)))
        }

        // Days: every date from the first event to the last, each event on its own local date.
        let visitDates: [LocalDate] = itinerary.visits.map { graph.candidates[$0.candidate].date }
        let legDates: [LocalDate] = itinerary.legs.map { clock.localDate($0.depart, zone: graph.placeZones[$0.from]) }
        let stopDates: [LocalDate] = stops.map(\.localDate)
        var drivingByDate: [LocalDate: Int64] = [:]
        for leg in itinerary.legs { for s in leg.segments { drivingByDate[s.date, default: 0] += s.end - s.start } }
        let arrivalDates = itinerary.legs.map { clock.localDate($0.arrive, zone: graph.placeZones[$0.to]) }
        let allDates = visitDates + legDates + stopDates + arrivalDates + Array(drivingByDate.keys)
        var days: [TripDay] = []
        if let first = allDates.min(), let last = allDates.max() {
            var date = first
            while date <= last {
                let v = visitDates.indices.filter { visitDates[$0] == date }
                let l = legDates.indices.filter { legDates[$0] == date }
                let s = stopDates.indices.filter { stopDates[$0] == date }
                let driving = drivingByDate[date] ?? 0
                days.append(
                    TripDay(
                        date: date, visitIndices: v, legIndices: l, drivingHours: Double(driving) / 3600,
                        isRestDay: v.isEmpty && driving == 0 && s.isEmpty, stopIndices: s.isEmpty ? nil : s))
                date = date.adding(days: 1)
            }
        }

        // Score.
        let games = itinerary.visits.count
        let distinct = Set(itinerary.visits.map { graph.candidates[$0.candidate].game.stadiumId }).count
        let covered = itinerary.visits.filter { mustSee.contains(graph.candidates[$0.candidate].game.id) }.count
        let drivingSeconds = itinerary.drivingSeconds
        let minSlack = itinerary.visits.map { Double($0.requiredArrival - $0.earliestArrival) / 3600 }.min() ?? 0
        let total: Double =
            switch request.objective {
            case .mostGames: Double(games)
            case .mostStadiums, .fewestDays: Double(distinct)
            case .leastDriving: Double(drivingSeconds) / 3600
            }
        let score = ScoreBreakdown(
            total: total, games: games, distinctStadiums: distinct, mustSeeCovered: covered,
            mustSeeTotal: mustSeeTotal ?? request.mustSeeGameIds.count, drivingHours: Double(drivingSeconds) / 3600,
            drivingKilometres: itinerary.kilometres, restDays: days.filter(\.isRestDay).count, minSlackHours: minSlack)

        var warnings = extra
        // Assumed starts, counted apart: day/night flags (per kind and sport) and nothing known.
        let assumed = itinerary.visits.map { graph.candidates[$0.candidate] }.filter(\.isTBD)
        let flagged = assumed.filter { $0.knowledge != .unknown }
        if !flagged.isEmpty {
            var assumptions: [String] = []
            for knowledge in [StartKnowledge.day, .night] {
                for sport in Set(flagged.filter { $0.knowledge == knowledge }.map(\.game.sport)).sorted() {
                    guard let minute = graph.model.assumedStartMinute(knowledge, sport: sport) else { continue }
                    assumptions.append("\(sport) \(knowledge.rawValue) games at \(Format.clock(minutes: minute))")
                }
            }
            warnings.append(
                "\(flagged.count) of \(games) game\(games == 1 ? "" : "s") \(flagged.count == 1 ? "is" : "are") only known to be "
                    + "a day or night game (exact time not published); planned from assumed local starts: "
                    + assumptions.joined(separator: ", ") + " (travel.assumedStarts)")
        }
        let unknown = assumed.filter { $0.knowledge == .unknown }
        if !unknown.isEmpty {
            let minutes = Set(
                unknown.map { graph.model.assumedStartMinute(.unknown, sport: $0.game.sport) ?? graph.model.tbdAssumedStartMinute })
            let at = minutes.sorted().map { Format.clock(minutes: $0) }.joined(separator: " or ")
            warnings.append(
                "\(unknown.count) of \(games) game\(games == 1 ? "" : "s") \(unknown.count == 1 ? "has" : "have") no start time yet (TBD); "
                    + "planned as starting at \(at) local (travel.tbdAssumedStart)")
        }
        if let tightest = itinerary.visits.min(by: { ($0.requiredArrival - $0.earliestArrival) < ($1.requiredArrival - $1.earliestArrival) }
        ),
            tightest.requiredArrival - tightest.earliestArrival < 1800
        {
            let id = graph.candidates[tightest.candidate].game.id
            let minutes = Int((Double(tightest.requiredArrival - tightest.earliestArrival) / 60).rounded())
            let c = graph.candidates[tightest.candidate]
            let basis =
                c.isTBD
                ? ", a start assumed at \(clock.localClock(c.start, zone: c.zone)) local because "
                    + (c.knowledge == .unknown ? "the time is TBD" : "only the \(c.knowledge.rawValue)-game flag is published") : ""
            warnings.append(
                "tight connection: the arrival for \(id) is only \(minutes) min ahead of the planned arrival time "
                    + "(\(NumberText.decimal(graph.model.arriveBeforeGameMinutes, places: 0)) min before the start\(basis))")
        }
        return TripOption(
            rank: rank, isProvenOptimal: isProvenOptimal, score: score, visits: visits, legs: legs,
            days: days, warnings: warnings, stops: stops.isEmpty ? nil : stops)
    }
}
