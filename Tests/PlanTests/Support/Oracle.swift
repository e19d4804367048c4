import Foundation
import SportsTimeTestSupport
import SportsTimeCore
@testable import SportsTimePlan

/// Exhaustive search: every subsequence of the candidate games (in time order) that the itinerary
/// simulator accepts, scored with the same key the planner ranks by.
enum Oracle {
    struct Best {
        var key: TripKey
        var path: [Int]
    }

    static func best(graph: TripGraph, objective: Objective) -> Best? {
        all(graph: graph, objective: objective).first
    }

    /// Every feasible trip, best first.
    static func all(graph: TripGraph, objective: Objective) -> [Best] {
        let simulator = ItinerarySimulator(graph: graph)
        let n = graph.count
        let mustSee = Set(graph.mustSeeOrder)
        var found: [Best] = []
        func score(_ path: [Int], _ itinerary: Itinerary) -> TripKey {
            let required = Set(graph.requiredWithGames)
            let covered = Set(path.map { graph.candidates[$0].game.stadiumId }).intersection(required).count
            let driving = itinerary.drivingSeconds
            switch objective {
            case .mostGames: return TripKey(coverage: covered, primary: Int64(path.count), secondary: -driving)
            case .mostStadiums, .fewestDays:
                return TripKey(
                    coverage: covered, primary: Int64(Set(path.map { graph.candidates[$0].game.stadiumId }).count), secondary: -driving)
            case .leastDriving: return TripKey(coverage: covered, primary: -driving, secondary: Int64(path.count))
            }
        }
        func visit(_ path: [Int], next: Int) {
            // Complete here?
            if !path.isEmpty, mustSee.isSubset(of: Set(path)),
                let itinerary = simulator.simulate(path.map { .game($0) }, lateFirstLeg: false)
            {
                found.append(Best(key: score(path, itinerary), path: path))
            }
            guard next < n else { return }
            for v in next..<n {
                // A must-see game skipped before v can never be attended afterwards.
                if (next..<v).contains(where: { mustSee.contains($0) }) { break }
                let extended = path + [v]
                guard simulator.simulate(extended.map { .game($0) }, lateFirstLeg: false, includeEnd: false) != nil else { continue }
                visit(extended, next: v + 1)
            }
        }
        visit([], next: 0)
        return found.sorted { $0.key > $1.key }
    }
}

/// Random small planning instances cut from the real schedules.
enum Instances {
    struct Instance {
        var request: PlanRequest
        var catalog: PlanCatalog
        var seed: UInt64
    }

    static func make(seed: UInt64, maxGames: Int = 11, requiredAllowed: Bool = true) -> Instance? {
        var rng = SplitMix64(seed: seed)
        let all = RealData.shared
        // A window of 2–4 days somewhere in a season.
        let seasons: [(sports: [String], first: String, last: String)] = [
            (["mlb"], "2023-04-10", "2023-09-20"), (["nba", "nhl"], "2025-10-25", "2026-03-30"),
            (["nhl"], "2025-11-01", "2026-03-30"), (["mls", "nhl", "nba"], "2025-10-05", "2025-10-18"),
        ]
        let season = seasons[Int.random(in: 0..<seasons.count, using: &rng)]
        let first = LocalDate(iso8601: season.first)!, last = LocalDate(iso8601: season.last)!
        let start = first.adding(days: Int.random(in: 0...first.days(until: last), using: &rng))
        let end = start.adding(days: Int.random(in: 1...3, using: &rng))
        var games = Array(all.games(from: start, through: end)).filter { season.sports.contains($0.sport) }
        guard !games.isEmpty else { return nil }
        // Games near a random centre.
        let centre = all.stadium(games[Int.random(in: 0..<games.count, using: &rng)].stadiumId)!
        let radius = Double.random(in: 300...900, using: &rng)
        games = games.filter { GreatCircle.kilometres(from: all.stadium($0.stadiumId)!.coordinate, to: centre.coordinate) < radius }
        games.shuffle(using: &rng)
        games = Array(games.prefix(Int.random(in: 4...maxGames, using: &rng)))
        let stadiumIds = Set(games.map(\.stadiumId))
        let near = all.stadiums.filter { GreatCircle.kilometres(from: $0.coordinate, to: centre.coordinate) < radius }
        let catalog = PlanCatalog(
            sports: [], stadiums: all.stadiums.filter { stadiumIds.contains($0.id) || near.contains($0) },
            teams: all.teams, games: games)
        let startStadium = near[Int.random(in: 0..<near.count, using: &rng)]
        var request = PlanRequest(
            id: "oracle-\(seed)", title: "oracle", sports: season.sports, firstDate: start, lastDate: end,
            start: TravelPlace(stadium: startStadium))
        if Bool.random(using: &rng) { request.end = TravelPlace(stadium: near[Int.random(in: 0..<near.count, using: &rng)]) }
        request.travel.maxDrivingHoursPerDay = [3, 4, 6, 8, 10][Int.random(in: 0..<5, using: &rng)]
        if Int.random(in: 0..<4, using: &rng) == 0 {
            request.travel.drivingWindowStartMinute = [6, 8, 10][Int.random(in: 0..<3, using: &rng)] * 60
            request.travel.drivingWindowEndMinute = [18, 20, 23][Int.random(in: 0..<3, using: &rng)] * 60
        }
        request.maxGamesPerDay = Int.random(in: 0..<3, using: &rng) == 0 ? 2 : 1
        // Afternoon starts for TBD and MLB day games (Retrosheet's flag) and shorter buffers make day games
        // with drives before and after them on the same day (the daily cap then couples two legs).
        request.travel.tbdAssumedStartMinute = [12, 13, 19][Int.random(in: 0..<3, using: &rng)] * 60
        request.travel.assumedStarts["mlb"]?.day = [12 * 60 + 5, 13 * 60 + 10, 15 * 60 + 10][Int.random(in: 0..<3, using: &rng)]
        if Bool.random(using: &rng) {
            request.travel.leaveAfterGameMinutes = 0
            request.travel.arriveBeforeGameMinutes = 15
            request.travel.gameHours = request.travel.gameHours.mapValues { _ in 1.5 }
        }
        request.restDays = Int.random(in: 0..<5, using: &rng) == 0 ? 1 : 0
        request.optionCount = Int.random(in: 1...3, using: &rng)
        // Small pools make dominance prune hard (a label needs only that many dominators to go).
        request.search.candidatePool = [1, 1, 2, nil][Int.random(in: 0..<4, using: &rng)]
        let sorted = games.sorted { $0.id < $1.id }
        let mustSeeCount = [0, 0, 1, 1, 2][Int.random(in: 0..<5, using: &rng)]
        request.mustSeeGameIds = Array(sorted.shuffled(using: &rng).prefix(mustSeeCount).map(\.id))
        if requiredAllowed, Int.random(in: 0..<3, using: &rng) == 0 {
            request.requiredStadiumIds = [Array(stadiumIds).sorted()[Int.random(in: 0..<stadiumIds.count, using: &rng)]]
        }
        return Instance(request: request, catalog: catalog, seed: seed)
    }
}
