import Foundation
import SportsTimeCore

/// One request's games as a DAG: candidate games ordered by start instant (then id), and an arc from a
/// game to every later game that can be reached after it within the driving limits.
///
/// Arcs are computed once with nothing driven yet on the first game's day (the most permissive case);
/// a label that already drove that day re-checks the arc (`TripGraph.extend`).
final class TripGraph {
    /// Holds a game by reference, so copying a candidate in the search's inner loops costs one retain.
    final class GameBox {
        let game: Game
        init(_ game: Game) { self.game = game }
    }

    struct Candidate {
        let box: GameBox
        var game: Game { box.game }
        /// Index into `places`.
        let place: Int
        let zone: Int
        /// Start instant (assumed when the start is not exact: see `knowledge`).
        let start: Int64
        let end: Int64
        let departEarliest: Int64
        let departDate: LocalDate
        /// Latest arrival: start − arrive-before buffer.
        let deadline: Int64
        let date: LocalDate
        let dayStart: Int64
        let dayEnd: Int64
        /// What the source says of the start; anything but `.exact` means `start` is an assumption.
        let knowledge: StartKnowledge
        /// The assumed local start (minutes after midnight) the start rests on; nil when exact. Game 2+ of a
        /// doubleheader may start later than this (see `init`).
        let assumedMinute: Int?
        /// Whether the start is assumed rather than published (day/night flag or nothing known).
        var isTBD: Bool { knowledge != .exact }
        /// Index into the distinct stadiums of the candidates (bit in visited sets).
        let stadiumBit: Int
        var mustSeeRank: Int?
        /// Bit of a required stadium this game covers.
        var requiredBit: Int?
    }

    struct Arc {
        let to: Int32
        let seconds: Int64
        /// Arrival (no carry) and the seconds driven on the destination's date and on the origin's date.
        let arrive: Int64
        let onTarget: Int64
        let onOrigin: Int64
    }

    /// What a label carries into an arc: driving already done on its game's date and games that date.
    struct DayState: Hashable {
        var usedToday: Int64
        var gamesToday: Int
    }

    let request: PlanRequest
    let model: TravelModel
    let clock: DayClock
    let scheduler: DriveScheduler
    /// Stadium places of the candidates, then start, end and stops.
    private(set) var places: [TravelPlace] = []
    private(set) var placeZones: [Int] = []
    private var placeIndexByStadium: [String: Int] = [:]
    private(set) var candidates: [Candidate] = []
    /// Distinct stadium ids of the candidates, indexed by `stadiumBit`.
    private(set) var stadiumIds: [String] = []
    /// Unrestricted arcs (they may skip must-see games); `allowed` filters them.
    private(set) var arcs: [[Arc]] = []
    /// Start → game drives (nil: not reachable from the start).
    private(set) var startArcs: [Arc?] = []
    /// Game → end feasibility with no carry (nil: cannot reach the end in time). Open end: all zero.
    private(set) var endArcs: [Arc?] = []
    private(set) var startPlace = 0
    private(set) var endPlace: Int?
    /// Required stadiums that have at least one candidate game, indexed by bit.
    private(set) var requiredWithGames: [String] = []
    /// Required stadiums with no candidate game: stops without a game.
    private(set) var requiredStops: [String] = []
    /// Candidate indices of the must-see games in time order.
    private(set) var mustSeeOrder: [Int] = []
    /// `nextMustSee[i]`: the smallest must-see candidate index ≥ i (or `n`).
    private(set) var nextMustSee: [Int] = []
    private(set) var startEarliest: Int64 = 0
    private(set) var endDeadline: Int64?
    /// Counts for the plan's warnings and search report.
    private(set) var skippedNotPlayable = 0
    private(set) var skippedNoStadium: [String] = []
    /// Candidates whose start is assumed from a day/night flag, and those with nothing known of it.
    private(set) var dayNightStartCount = 0
    private(set) var unknownStartCount = 0

    let horizonDays: Int?
    var count: Int { candidates.count }
    var capSeconds: Int64 { scheduler.capSeconds }

    /// With `horizonDays`, arcs join only games at most that many dates apart (fewest days: a trip with
    /// little slack never waits longer between two games).
    init(request: PlanRequest, catalog: PlanCatalog, horizonDays: Int? = nil) {
        self.request = request
        self.horizonDays = horizonDays
        self.model = request.travel
        let clock = DayClock(model: request.travel)
        self.clock = clock
        self.scheduler = DriveScheduler(clock: clock, capSeconds: request.travel.maxDrivingSecondsPerDay)

        // Candidate games: in the window, of an active requested sport, playable, passing the home-team
        // filter (must-see games always pass), at a stadium with a usable location.
        let sports = Set(request.sports)
        let homeTeams = Set(request.homeTeamIds)
        let mustSee = Set(request.mustSeeGameIds)
        var games: [(Game, Stadium)] = []
        for game in catalog.games(from: request.firstDate, through: request.lastDate) {
            guard sports.contains(game.sport), catalog.sport(game.sport)?.isActive ?? false else { continue }
            let isMustSee = mustSee.contains(game.id)
            guard isMustSee || homeTeams.isEmpty || homeTeams.contains(game.homeTeamId) else { continue }
            guard game.status.isPlayable else { skippedNotPlayable += 1; continue }
            guard let stadium = catalog.stadium(game.stadiumId), stadium.coordinate.isPlausible,
                ZonedTime.isValidZone(stadium.timeZone)
            else { skippedNoStadium.append(game.id); continue }
            games.append((game, stadium))
        }

        // Places: stadiums first (sorted by id for stable bits), then start, end, stops.
        for stadium in Set(games.map(\.1.id)).sorted() {
            let s = games.first { $0.1.id == stadium }!.1
            _ = addPlace(TravelPlace(stadium: s))
        }
        stadiumIds = places.compactMap(\.stadiumId)
        startPlace = places.count
        places.append(request.start); placeZones.append(clock.zone(request.start.timeZone) ?? 0)
        if let end = request.end {
            endPlace = places.count
            places.append(end); placeZones.append(clock.zone(end.timeZone) ?? 0)
        } else {
            endPlace = nil
        }
        startEarliest = clock.day(placeZones[startPlace], request.firstDate).windowStart
        endDeadline = endPlace.map { clock.day(placeZones[$0], request.lastDate).windowEnd }

        // Candidates with their times. A start that is not exact is assumed (`TravelModel.assumedStartMinute`);
        // game n of a doubleheader starts at its own assumed start, but no earlier than game n − 1's start +
        // game hours + leave-after (without game n − 1 among the games: (n − 1) × that after its own).
        // Games are laid out by game number so game n − 1's start is known before game n's.
        var built: [Candidate] = []
        var startByGameSlot: [String: Int64] = [:]
        func slot(_ game: Game, number: Int) -> String { "\(game.stadiumId)|\(game.localDate)|\(number)" }
        let byNumber = games.sorted { ($0.0.gameNumber ?? 0, $0.0.id) < ($1.0.gameNumber ?? 0, $1.0.id) }
        for (game, stadium) in byNumber {
            let place = placeIndexByStadium[stadium.id]!
            let zone = placeZones[place]
            let knowledge: StartKnowledge = game.timeTBD ? (game.startKnowledge == .exact ? .unknown : game.startKnowledge) : .exact
            let assumedMinute = model.assumedStartMinute(knowledge, sport: game.sport)
            var start: Int64
            if let assumedMinute {
                start = clock.instant(game.localDate, minute: assumedMinute, zone: zone)
                if let number = game.gameNumber, number > 1 {
                    let gap = model.gameSeconds(game.sport) + model.leaveAfterSeconds
                    if let previous = startByGameSlot[slot(game, number: number - 1)] {
                        start = max(start, previous + gap)
                    } else {
                        start += Int64(number - 1) * gap
                    }
                }
            } else {
                start = game.startUTC!.secondsSinceEpoch
            }
            if let number = game.gameNumber { startByGameSlot[slot(game, number: number)] = start }
            let end = start + model.gameSeconds(game.sport)
            let departEarliest = end + model.leaveAfterSeconds
            let day = clock.day(zone, game.localDate)
            built.append(
                Candidate(
                    box: GameBox(game), place: place, zone: zone, start: start, end: end, departEarliest: departEarliest,
                    departDate: clock.localDate(departEarliest, zone: zone), deadline: start - model.arriveBeforeSeconds,
                    date: game.localDate, dayStart: day.start, dayEnd: day.end, knowledge: knowledge,
                    assumedMinute: assumedMinute, stadiumBit: place, mustSeeRank: nil, requiredBit: nil))
            switch knowledge {
            case .exact: break
            case .day, .night: dayNightStartCount += 1
            case .unknown: unknownStartCount += 1
            }
        }
        built.sort { ($0.start, $0.game.id) < ($1.start, $1.game.id) }

        // Required stadiums: with candidate games (covered by attending one) or stops.
        let stadiumsWithGames = Set(built.map(\.game.stadiumId))
        for id in request.requiredStadiumIds {
            if stadiumsWithGames.contains(id) { requiredWithGames.append(id) } else { requiredStops.append(id) }
        }
        let requiredBitByStadium = Dictionary(uniqueKeysWithValues: requiredWithGames.enumerated().map { ($1, $0) })
        for i in built.indices {
            built[i].requiredBit = requiredBitByStadium[built[i].game.stadiumId]
        }
        for (rank, index) in built.indices.filter({ mustSee.contains(built[$0].game.id) }).enumerated() {
            built[index].mustSeeRank = rank
            mustSeeOrder.append(index)
        }
        candidates = built
        let n = built.count
        nextMustSee = Array(repeating: n, count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            nextMustSee[i] = candidates[i].mustSeeRank != nil ? i : nextMustSee[i + 1]
        }
        for id in requiredStops {
            if let stadium = catalog.stadium(id) { _ = addPlace(TravelPlace(stadium: stadium)) }
        }
        buildArcs()
    }

    /// A graph equal to `other` with memos of its own (of drives and of the clock's days), for a search
    /// on another thread: the memos are the only state a graph changes after it is built, so a graph and
    /// its copy may be searched at the same time. The copy shares the games and arcs (copy on write).
    init(copying other: TripGraph) {
        request = other.request
        horizonDays = other.horizonDays
        model = other.model
        clock = DayClock(copying: other.clock)
        scheduler = DriveScheduler(clock: clock, capSeconds: other.scheduler.capSeconds)
        places = other.places
        placeZones = other.placeZones
        placeIndexByStadium = other.placeIndexByStadium
        candidates = other.candidates
        stadiumIds = other.stadiumIds
        arcs = other.arcs
        startArcs = other.startArcs
        endArcs = other.endArcs
        startPlace = other.startPlace
        endPlace = other.endPlace
        requiredWithGames = other.requiredWithGames
        requiredStops = other.requiredStops
        mustSeeOrder = other.mustSeeOrder
        nextMustSee = other.nextMustSee
        startEarliest = other.startEarliest
        endDeadline = other.endDeadline
        skippedNotPlayable = other.skippedNotPlayable
        skippedNoStadium = other.skippedNoStadium
        dayNightStartCount = other.dayNightStartCount
        unknownStartCount = other.unknownStartCount
        driveCache = other.driveCache
    }

    private func addPlace(_ place: TravelPlace) -> Int {
        if let id = place.stadiumId, let index = placeIndexByStadium[id] { return index }
        places.append(place)
        placeZones.append(clock.zone(place.timeZone) ?? 0)
        if let id = place.stadiumId { placeIndexByStadium[id] = places.count - 1 }
        return places.count - 1
    }

    func placeIndex(ofStadium id: String) -> Int? { placeIndexByStadium[id] }

    // MARK: Drives between places (memoised)

    private var driveCache: [Int: Drive?] = [:]

    func drive(_ a: Int, _ b: Int) -> Drive? {
        let key = a * 100_003 + b
        if let cached = driveCache[key] { return cached }
        let value = model.drive(from: places[a], to: places[b])
        driveCache[key] = value
        return value
    }

    // MARK: Arcs

    private func buildArcs() {
        let n = candidates.count
        arcs = Array(repeating: [], count: n)
        startArcs = Array(repeating: nil, count: n)
        endArcs = Array(repeating: nil, count: n)
        for v in 0..<n {
            startArcs[v] = startArc(to: v)
            endArcs[v] = endArc(from: v, state: DayState(usedToday: 0, gamesToday: 1))
        }
        for u in 0..<n {
            let cu = candidates[u]
            var list: [Arc] = []
            for v in (u + 1)..<max(u + 1, n) {
                if let horizonDays, cu.date.days(until: candidates[v].date) > horizonDays {
                    // Start order and date order agree but for games hours apart across zones.
                    if cu.date.days(until: candidates[v].date) > horizonDays + 1 { break } else { continue }
                }
                if let arc = baseArc(from: u, to: v, cu: cu) { list.append(arc) }
            }
            arcs[u] = list
        }
    }

    /// The arc u → v with nothing driven yet on u's date, or nil.
    private func baseArc(from u: Int, to v: Int, cu: Candidate) -> Arc? {
        let cv = candidates[v]
        if cv.date == cu.date {
            if request.maxGamesPerDay < 2 { return nil }
        } else if cu.date.days(until: cv.date) - 1 < request.restDays {
            return nil
        }
        if cu.place == cv.place {
            return cu.end <= cv.start ? Arc(to: Int32(v), seconds: 0, arrive: cu.end, onTarget: 0, onOrigin: 0) : nil
        }
        guard cv.deadline > cu.departEarliest, let drive = drive(cu.place, cv.place),
            drive.seconds <= cv.deadline - cu.departEarliest
        else { return nil }
        guard let result = schedule(from: u, to: v, seconds: drive.seconds, carry: nil) else { return nil }
        return Arc(
            to: Int32(v), seconds: drive.seconds, arrive: result.arrive, onTarget: result.onTargetDay,
            onOrigin: result.onCarryDate)
    }

    private func restRule(_ cu: Candidate, _ cv: Candidate) -> DriveScheduler.RestRule? {
        guard request.restDays > 0, cu.date < cv.date else { return nil }
        return DriveScheduler.RestRule(
            lastGameDate: cu.date, nextGameDate: cv.date,
            usableDays: cu.date.days(until: cv.date) - 1 - request.restDays)
    }

    func schedule(from u: Int, to v: Int, seconds: Int64, carry: Int64?, recordSegments: Bool = false) -> DriveScheduler.Result? {
        let cu = candidates[u], cv = candidates[v]
        return scheduler.schedule(
            seconds: seconds, zone: cu.zone, earliest: cu.departEarliest, earliestDate: cu.departDate,
            carry: DriveScheduler.Carry(date: cu.date, seconds: carry ?? 0), deadline: cv.deadline,
            target: (cv.dayStart, cv.dayEnd), rest: restRule(cu, cv), recordSegments: recordSegments)
    }

    /// The drive from the start, leaving on `date` (default: the request's first date), to game v. With
    /// `start: any` the trip begins at the game itself: no drive, there from that day's driving window on.
    func startArc(to v: Int, leaving date: LocalDate? = nil) -> Arc? {
        let cv = candidates[v]
        if request.startsAnywhere {
            let earliest = clock.day(cv.zone, date ?? request.firstDate).windowStart
            return earliest <= cv.deadline ? Arc(to: Int32(v), seconds: 0, arrive: earliest, onTarget: 0, onOrigin: 0) : nil
        }
        let earliest = date.map { clock.day(placeZones[startPlace], $0).windowStart } ?? startEarliest
        if placesCoincide(startPlace, cv.place) {
            return earliest <= cv.deadline ? Arc(to: Int32(v), seconds: 0, arrive: earliest, onTarget: 0, onOrigin: 0) : nil
        }
        guard let drive = drive(startPlace, cv.place) else { return nil }
        guard
            let result = scheduler.schedule(
                seconds: drive.seconds, zone: placeZones[startPlace], earliest: earliest, earliestDate: date ?? request.firstDate,
                carry: nil, deadline: cv.deadline, target: (cv.dayStart, cv.dayEnd))
        else { return nil }
        return Arc(to: Int32(v), seconds: drive.seconds, arrive: result.arrive, onTarget: result.onTargetDay, onOrigin: 0)
    }

    /// The end of the driving window at the end place on `date` (nil with an open end).
    func endDeadline(on date: LocalDate) -> Int64? { endPlace.map { clock.day(placeZones[$0], date).windowEnd } }

    /// Whether a start/end place and a stadium are the same spot (no drive at all).
    func placesCoincide(_ a: Int, _ b: Int) -> Bool {
        if let sa = places[a].stadiumId, let sb = places[b].stadiumId { return sa == sb }
        return drive(a, b)?.seconds == 0
    }

    /// The drive from game u to the end (or a zero arc when the end is open), given u's day state, arriving
    /// by `deadline` (default: the end of the request's last driving window).
    func endArc(from u: Int, state: DayState, deadline: Int64? = nil) -> Arc? {
        guard let endPlace, let endDeadline = deadline ?? endDeadline else {
            return Arc(to: -1, seconds: 0, arrive: candidates[u].departEarliest, onTarget: 0, onOrigin: 0)
        }
        let cu = candidates[u]
        if placesCoincide(cu.place, endPlace) {
            return cu.end <= endDeadline ? Arc(to: -1, seconds: 0, arrive: cu.end, onTarget: 0, onOrigin: 0) : nil
        }
        guard let drive = drive(cu.place, endPlace) else { return nil }
        guard
            let result = scheduler.schedule(
                seconds: drive.seconds, zone: cu.zone, earliest: cu.departEarliest, earliestDate: cu.departDate,
                carry: DriveScheduler.Carry(date: cu.date, seconds: state.usedToday), deadline: endDeadline,
                target: nil)
        else { return nil }
        return Arc(to: -1, seconds: drive.seconds, arrive: result.arrive, onTarget: 0, onOrigin: result.onCarryDate)
    }

    /// Whether the search may use arc u → v: it may not jump over a must-see game.
    @inline(__always) func allowed(_ u: Int, _ v: Int) -> Bool { nextMustSee[u + 1] >= v }
    @inline(__always) func startAllowed(_ v: Int) -> Bool { nextMustSee[0] >= v }
    @inline(__always) func mayFinish(at u: Int) -> Bool { mustSeeOrder.last.map { u >= $0 } ?? true }

    /// Extends a label at u with day state `state` along `arc`: the new day state at v, or nil when the
    /// daily cap or the games-per-day limit forbids it.
    func extend(from u: Int, state: DayState, arc: Arc) -> (state: DayState, arrive: Int64)? {
        let v = Int(arc.to)
        let cu = candidates[u], cv = candidates[v]
        let sameDate = cu.date == cv.date
        if sameDate, state.gamesToday >= request.maxGamesPerDay { return nil }
        var onTarget = arc.onTarget
        var arrive = arc.arrive
        if state.usedToday > 0, arc.seconds > 0, state.usedToday + arc.onOrigin > capSeconds {
            guard let result = schedule(from: u, to: v, seconds: arc.seconds, carry: state.usedToday) else { return nil }
            onTarget = result.onTargetDay
            arrive = result.arrive
        }
        let used = onTarget + (sameDate ? state.usedToday : 0)
        return (DayState(usedToday: used, gamesToday: sameDate ? state.gamesToday + 1 : 1), arrive)
    }

    /// The end arc for a label (re-checked when the label already drove on its last game's date).
    func finish(from u: Int, state: DayState) -> Arc? {
        guard let base = endArcs[u] else { return nil }
        if state.usedToday == 0 || base.seconds == 0 || state.usedToday + base.onOrigin <= capSeconds { return base }
        return endArc(from: u, state: state)
    }
}
