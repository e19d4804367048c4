import Foundation
import SportsTimeCore

/// How hard the search may work, and how alternatives are gathered.
public struct SearchSettings: Sendable, Hashable {
    /// Labels the exact most-stadiums search may create before it stops and returns the beam result,
    /// marked heuristic with its proven bound.
    public var labelBudget: Int = 1_000_000
    /// Labels kept per game by the beam search that seeds the exact search.
    public var beamWidth: Int = 48
    /// How many best trips are gathered before the diversity rule picks the options
    /// (nil: 2 × options; more distinct alternatives come from searches that avoid a stadium).
    public var candidatePool: Int?
    /// Up to this many stops without a game are ordered exactly (Held–Karp); more use 2-opt + Or-opt.
    public var heldKarpLimit: Int = 15
    public init() {}
}

/// A request after resolution against the catalog: ids checked, defaults filled in.
public struct PlanRequest: Sendable, Hashable {
    public var id: String
    public var title: String
    public var sports: [String]
    public var firstDate: LocalDate
    public var lastDate: LocalDate
    /// Where the trip starts; with `startsAnywhere`, only the place a plan with no trip names.
    public var start: TravelPlace
    /// `start: any`: the trip may begin at any game, with no drive before it (`fewestDays` only).
    public var startsAnywhere = false
    public var end: TravelPlace?
    public var objective: Objective
    /// In the order the request lists them.
    public var mustSeeGameIds: [String]
    public var requiredStadiumIds: [String]
    /// Empty: every home team.
    public var homeTeamIds: [String]
    public var maxGamesPerDay: Int
    /// Days with neither a game nor driving required between two game days.
    public var restDays: Int
    public var optionCount: Int
    public var travel: TravelModel
    public var search: SearchSettings

    public init(
        id: String, title: String, sports: [String], firstDate: LocalDate, lastDate: LocalDate,
        start: TravelPlace, end: TravelPlace? = nil, objective: Objective = .mostGames,
        mustSeeGameIds: [String] = [], requiredStadiumIds: [String] = [], homeTeamIds: [String] = [],
        maxGamesPerDay: Int = 1, restDays: Int = 0, optionCount: Int = 3,
        travel: TravelModel = TravelModel(), search: SearchSettings = SearchSettings()
    ) {
        self.id = id; self.title = title; self.sports = sports; self.firstDate = firstDate; self.lastDate = lastDate
        self.start = start; self.end = end; self.objective = objective; self.mustSeeGameIds = mustSeeGameIds
        self.requiredStadiumIds = requiredStadiumIds; self.homeTeamIds = homeTeamIds
        self.maxGamesPerDay = maxGamesPerDay; self.restDays = restDays; self.optionCount = optionCount
        self.travel = travel; self.search = search
    }

    /// The request as written into the plan: resolved ids and every constant used.
    public var resolved: ResolvedRequest {
        var constants = travel.constants
        constants["search.labelBudget"] = Double(search.labelBudget)
        constants["search.beamWidth"] = Double(search.beamWidth)
        constants["search.candidatePool"] = Double(candidatePool)
        constants["search.heldKarpLimit"] = Double(search.heldKarpLimit)
        return ResolvedRequest(
            title: title, sports: sports, firstDate: firstDate, lastDate: lastDate,
            start: start.planPoint, end: end?.planPoint, objective: objective,
            mustSeeGameIds: mustSeeGameIds, requiredStadiumIds: requiredStadiumIds, homeTeamIds: homeTeamIds,
            maxGamesPerDay: maxGamesPerDay, restDays: restDays, optionCount: optionCount, constants: constants)
    }

    /// The number of best trips gathered before the diversity rule picks the options.
    public var candidatePool: Int {
        if let pool = search.candidatePool { return max(pool, optionCount) }
        return 2 * optionCount
    }
}

extension TravelPlace {
    var planPoint: PlacePoint {
        PlacePoint(
            name: name, stadiumId: stadiumId, latitude: coordinate.latitude, longitude: coordinate.longitude,
            timeZone: timeZone)
    }
}
