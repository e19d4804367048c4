import Foundation

/// The planner's answer to one request: the request as understood, ranked options, conflicts,
/// and, when nothing fits, which constraint makes it impossible. Written by plan, read by render.
public struct TripPlan: Codable, Sendable, Hashable, Identifiable {
    /// The request id.
    public var id: String
    public var request: ResolvedRequest
    /// Ranked best first; empty when infeasible.
    public var options: [TripOption]
    /// Wanted games that cannot both be attended (same day, different cities, or too far apart).
    public var conflicts: [PlanConflict]
    /// When `options` is empty: the constraint that makes the request impossible, in one sentence.
    public var infeasibility: String?
    public var warnings: [String]
    public var search: SearchReport
    /// When must-see games conflict (so `options` is empty): the best trip for each branch, each
    /// attending a largest compatible subset of the must-see games. Absent otherwise. (Added, optional.)
    public var branches: [TripOption]?

    public init(
        id: String, request: ResolvedRequest, options: [TripOption], conflicts: [PlanConflict],
        infeasibility: String?, warnings: [String], search: SearchReport, branches: [TripOption]? = nil
    ) {
        self.id = id; self.request = request; self.options = options; self.conflicts = conflicts
        self.infeasibility = infeasibility; self.warnings = warnings; self.search = search
        self.branches = branches
    }
}

/// A request after resolution: ids instead of names, defaults filled in, every constant used.
public struct ResolvedRequest: Codable, Sendable, Hashable {
    public var title: String
    public var sports: [String]
    public var firstDate: LocalDate
    public var lastDate: LocalDate
    public var start: PlacePoint
    public var end: PlacePoint?
    public var objective: Objective
    public var mustSeeGameIds: [String]
    public var requiredStadiumIds: [String]
    public var homeTeamIds: [String]
    public var maxGamesPerDay: Int
    public var restDays: Int
    public var optionCount: Int
    /// Travel-model constants in effect, by name (e.g. `maxDrivingHoursPerDay`, `averageSpeedMph`).
    public var constants: [String: Double]

    public init(
        title: String, sports: [String], firstDate: LocalDate, lastDate: LocalDate, start: PlacePoint,
        end: PlacePoint?, objective: Objective, mustSeeGameIds: [String], requiredStadiumIds: [String],
        homeTeamIds: [String], maxGamesPerDay: Int, restDays: Int, optionCount: Int, constants: [String: Double]
    ) {
        self.title = title; self.sports = sports; self.firstDate = firstDate; self.lastDate = lastDate
        self.start = start; self.end = end; self.objective = objective; self.mustSeeGameIds = mustSeeGameIds
        self.requiredStadiumIds = requiredStadiumIds; self.homeTeamIds = homeTeamIds
        self.maxGamesPerDay = maxGamesPerDay; self.restDays = restDays; self.optionCount = optionCount
        self.constants = constants
    }
}

/// What a trip is optimised for.
public enum Objective: String, Codable, Sendable, Hashable, CaseIterable {
    /// The most games (then the least driving).
    case mostGames
    /// The most distinct stadiums (then the least driving).
    case mostStadiums
    /// The least driving that still attends every must-see game (then the most games).
    case leastDriving
    /// The fewest days (leaving the start to the last game) for a trip that attends a game at every
    /// required stadium, searched over every window of the request's dates (then the least driving).
    case fewestDays
}

/// A named place with coordinates and zone: a stadium, a city, or a raw lat/lon.
public struct PlacePoint: Codable, Sendable, Hashable {
    public var name: String
    public var stadiumId: String?
    public var latitude: Double
    public var longitude: Double
    public var timeZone: String
    public init(name: String, stadiumId: String?, latitude: Double, longitude: Double, timeZone: String) {
        self.name = name; self.stadiumId = stadiumId
        self.latitude = latitude.rounded(toPlaces: 6); self.longitude = longitude.rounded(toPlaces: 6)
        self.timeZone = timeZone
    }
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// One ranked trip.
public struct TripOption: Codable, Sendable, Hashable {
    /// 1 = best.
    public var rank: Int
    /// Whether the search proved no better trip exists for the objective.
    public var isProvenOptimal: Bool
    public var score: ScoreBreakdown
    /// The games attended, in order.
    public var visits: [GameVisit]
    /// Drives between consecutive places (start → first game, game → game, last game → end).
    public var legs: [DriveLeg]
    /// Stadium-local days from the first to the last day of the trip, each with what happens.
    public var days: [TripDay]
    public var warnings: [String]
    /// Required stadiums visited without a game, in order (absent when there are none). (Added, optional.)
    public var stops: [StadiumStop]?

    public init(
        rank: Int, isProvenOptimal: Bool, score: ScoreBreakdown, visits: [GameVisit], legs: [DriveLeg],
        days: [TripDay], warnings: [String], stops: [StadiumStop]? = nil
    ) {
        self.rank = rank; self.isProvenOptimal = isProvenOptimal; self.score = score; self.visits = visits
        self.legs = legs; self.days = days; self.warnings = warnings; self.stops = stops
    }
}

/// How an option scored; `total` is what the ranking used.
public struct ScoreBreakdown: Codable, Sendable, Hashable {
    public var total: Double
    public var games: Int
    public var distinctStadiums: Int
    public var mustSeeCovered: Int
    public var mustSeeTotal: Int
    public var drivingHours: Double
    public var drivingKilometres: Double
    public var restDays: Int
    /// The smallest spare time (hours) between arriving and a game's required arrival.
    public var minSlackHours: Double
    public init(
        total: Double, games: Int, distinctStadiums: Int, mustSeeCovered: Int, mustSeeTotal: Int,
        drivingHours: Double, drivingKilometres: Double, restDays: Int, minSlackHours: Double
    ) {
        self.total = total.rounded(toPlaces: 3); self.games = games; self.distinctStadiums = distinctStadiums
        self.mustSeeCovered = mustSeeCovered; self.mustSeeTotal = mustSeeTotal
        self.drivingHours = drivingHours.rounded(toPlaces: 2); self.drivingKilometres = drivingKilometres.rounded(toPlaces: 1)
        self.restDays = restDays; self.minSlackHours = minSlackHours.rounded(toPlaces: 2)
    }
}

/// A game on the trip, with what render needs to show it without another lookup.
public struct GameVisit: Codable, Sendable, Hashable {
    public var gameId: String
    public var sport: String
    public var startUTC: Instant?
    public var localDate: LocalDate
    /// `19:05` at the stadium, nil when the start is not exact (see `startKnowledge`).
    public var localTime: String?
    /// What the plan knows of the start: `exact`, `day`, `night` (only a day/night flag) or `unknown`.
    /// Absent in plans written before it was added: read `knowledge`. (Added, optional.)
    public var startKnowledge: StartKnowledge?
    /// When the start is not exact: the local start (`13:10`) the plan assumed and laid the drives out
    /// around. Absent when the start is exact. (Added, optional.)
    public var assumedLocalTime: String?
    public var timeZone: String
    /// Zone abbreviation at the game's start (`EDT`).
    public var timeZoneAbbreviation: String
    public var homeTeamId: String
    public var homeTeamName: String
    public var awayTeamId: String
    public var awayTeamName: String
    public var stadiumId: String
    public var stadiumName: String
    /// True when no source states the venue: the game is planned at the home team's home on its date, and
    /// the itinerary says "venue to be confirmed". Absent when the venue is stated. (Added, optional.)
    public var venueAssumed: Bool?
    public var city: String
    public var latitude: Double
    public var longitude: Double
    public var isMustSee: Bool

    public init(
        gameId: String, sport: String, startUTC: Instant?, localDate: LocalDate, localTime: String?,
        timeZone: String, timeZoneAbbreviation: String, homeTeamId: String, homeTeamName: String,
        awayTeamId: String, awayTeamName: String, stadiumId: String, stadiumName: String, city: String,
        latitude: Double, longitude: Double, isMustSee: Bool, startKnowledge: StartKnowledge? = nil,
        assumedLocalTime: String? = nil, venueAssumed: Bool? = nil
    ) {
        self.startKnowledge = startKnowledge; self.assumedLocalTime = assumedLocalTime
        self.venueAssumed = venueAssumed == true ? true : nil
        self.gameId = gameId; self.sport = sport; self.startUTC = startUTC; self.localDate = localDate
        self.localTime = localTime; self.timeZone = timeZone; self.timeZoneAbbreviation = timeZoneAbbreviation
        self.homeTeamId = homeTeamId; self.homeTeamName = homeTeamName; self.awayTeamId = awayTeamId
        self.awayTeamName = awayTeamName; self.stadiumId = stadiumId; self.stadiumName = stadiumName; self.city = city
        self.latitude = latitude.rounded(toPlaces: 6); self.longitude = longitude.rounded(toPlaces: 6)
        self.isMustSee = isMustSee
    }

    /// `startKnowledge`, or for older plans: exact when the plan gives a local time, else unknown.
    public var knowledge: StartKnowledge { startKnowledge ?? (localTime == nil ? .unknown : .exact) }
}

/// One drive.
public struct DriveLeg: Codable, Sendable, Hashable {
    public var fromName: String
    public var toName: String
    public var fromStadiumId: String?
    public var toStadiumId: String?
    public var kilometres: Double
    public var hours: Double
    /// Local wall-clock departure and arrival, `2023-06-02 10:00 EDT`.
    public var departLocal: String
    public var arriveLocal: String
    public var departUTC: Instant
    public var arriveUTC: Instant
    /// The games next to this drive (the one it leaves, the one it drives to, in that order) whose start
    /// is assumed rather than published, so the drive's times rest on that assumption. Absent when none.
    /// (Added, optional.)
    public var assumedStartGameIds: [String]?
    public init(
        fromName: String, toName: String, fromStadiumId: String?, toStadiumId: String?, kilometres: Double,
        hours: Double, departLocal: String, arriveLocal: String, departUTC: Instant, arriveUTC: Instant,
        assumedStartGameIds: [String]? = nil
    ) {
        self.assumedStartGameIds = assumedStartGameIds
        self.fromName = fromName; self.toName = toName; self.fromStadiumId = fromStadiumId
        self.toStadiumId = toStadiumId; self.kilometres = kilometres.rounded(toPlaces: 1)
        self.hours = hours.rounded(toPlaces: 2); self.departLocal = departLocal; self.arriveLocal = arriveLocal
        self.departUTC = departUTC; self.arriveUTC = arriveUTC
    }
}

/// One stadium-local day of an option.
public struct TripDay: Codable, Sendable, Hashable {
    public var date: LocalDate
    /// Indices into the option's `visits`.
    public var visitIndices: [Int]
    /// Indices into the option's `legs` that start on this day.
    public var legIndices: [Int]
    public var drivingHours: Double
    public var isRestDay: Bool
    /// Indices into the option's `stops` visited on this day (absent when none). (Added, optional.)
    public var stopIndices: [Int]?
    public init(
        date: LocalDate, visitIndices: [Int], legIndices: [Int], drivingHours: Double, isRestDay: Bool,
        stopIndices: [Int]? = nil
    ) {
        self.date = date; self.visitIndices = visitIndices; self.legIndices = legIndices
        self.drivingHours = drivingHours.rounded(toPlaces: 2); self.isRestDay = isRestDay
        self.stopIndices = stopIndices
    }
}

/// A required stadium visited without attending a game there (a stop). (Added with `TripOption.stops`.)
public struct StadiumStop: Codable, Sendable, Hashable {
    public var stadiumId: String
    public var stadiumName: String
    public var city: String
    public var latitude: Double
    public var longitude: Double
    public var timeZone: String
    public var localDate: LocalDate
    /// Local wall-clock arrival and visit, `2023-06-04 14:00 EDT`.
    public var arriveLocal: String
    public var visitStartLocal: String
    public var visitEndLocal: String
    public init(
        stadiumId: String, stadiumName: String, city: String, latitude: Double, longitude: Double,
        timeZone: String, localDate: LocalDate, arriveLocal: String, visitStartLocal: String, visitEndLocal: String
    ) {
        self.stadiumId = stadiumId; self.stadiumName = stadiumName; self.city = city
        self.latitude = latitude.rounded(toPlaces: 6); self.longitude = longitude.rounded(toPlaces: 6)
        self.timeZone = timeZone; self.localDate = localDate; self.arriveLocal = arriveLocal
        self.visitStartLocal = visitStartLocal; self.visitEndLocal = visitEndLocal
    }
}

/// Two wanted games that one trip cannot both attend.
public struct PlanConflict: Codable, Sendable, Hashable {
    public var gameIds: [String]
    public var reason: String
    public init(gameIds: [String], reason: String) { self.gameIds = gameIds; self.reason = reason }
}

/// How the answer was found: exact or heuristic, and how hard the search worked.
public struct SearchReport: Codable, Sendable, Hashable {
    /// The steps that found the answer, in order; written `window-search+exact-target-first+held-karp`.
    public var method: SearchMethods
    public var isExact: Bool
    /// For heuristic answers: the best proven upper bound on the objective.
    public var upperBound: Double?
    public var candidateGames: Int
    public var arcs: Int
    public var labelsExpanded: Int
    /// Most stadiums and fewest days (added, optional): whether the driving tie-break is proven too.
    /// `isExact` says the objective's value (coverage, stadiums or days) is proven; `tieBreakExact` false
    /// means the best option's driving is only the least found among trips of that value.
    public var tieBreakExact: Bool?
    /// Fewest days (added, optional): the proven lower bound on the days; equal to them when they are proven.
    public var lowerBound: Double?
    public init(
        method: SearchMethods, isExact: Bool, upperBound: Double?, candidateGames: Int, arcs: Int, labelsExpanded: Int,
        tieBreakExact: Bool? = nil, lowerBound: Double? = nil
    ) {
        self.method = method; self.isExact = isExact; self.upperBound = upperBound
        self.candidateGames = candidateGames; self.arcs = arcs; self.labelsExpanded = labelsExpanded
        self.tieBreakExact = tieBreakExact; self.lowerBound = lowerBound
    }
}

/// One step of how a plan was found: a search over the trips, or how stops without a game were ordered.
public enum SearchMethod: String, Sendable, Hashable, CaseIterable {
    /// Fewest days: the search over windows of the request's dates.
    case windowSearch = "window-search"
    case exactLongestPath = "exact-longest-path"
    case exactShortestPath = "exact-shortest-path"
    case exactLabelSetting = "exact-label-setting"
    /// Most stadiums: count-only passes from the root bound down, then the driving tie-break.
    case exactTargetFirst = "exact-target-first"
    case beam
    /// Stops ordered exactly.
    case heldKarp = "held-karp"
    /// Stops ordered heuristically, in one gap of the trip.
    case twoOptOrOpt = "2-opt-or-opt"
    /// Stops inserted one at a time where each costs least (heuristic).
    case cheapestInsertion = "cheapest-insertion"

    /// Stop orderings that are not proven least.
    public var isHeuristicStopOrdering: Bool { self == .twoOptOrOpt || self == .cheapestInsertion }
}

/// The steps of a `SearchReport`, in order; in JSON one string, the steps joined by `+`.
public struct SearchMethods: Codable, Sendable, Hashable, CustomStringConvertible {
    public var steps: [SearchMethod]
    public init(_ steps: [SearchMethod]) { self.steps = steps }

    public var description: String { steps.map(\.rawValue).joined(separator: "+") }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        steps = try text.split(separator: "+").map { step in
            guard let method = SearchMethod(rawValue: String(step)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown search method '\(step)'")
            }
            return method
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
