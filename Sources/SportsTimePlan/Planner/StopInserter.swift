import Foundation
import SportsTimeCore

/// Fits stops without a game (required stadiums the games do not cover) into a trip.
///
/// First all stops go into one gap of the trip (start → first game, between two games, or last game →
/// end), ordered by `StopRouter` (Held–Karp up to the limit, else 2-opt + Or-opt); the feasible gap with
/// the least driving wins. When no single gap holds them, stops are inserted one by one at their
/// cheapest feasible position.
struct StopInserter {
    let graph: TripGraph
    let simulator: ItinerarySimulator

    struct Placement {
        var waypoints: [Waypoint]
        var itinerary: Itinerary
        /// How the stops were ordered (nil when there are none).
        var method: SearchMethod?
    }

    private func cost(_ a: Int, _ b: Int) -> Int64 {
        if a == b { return 0 }
        return graph.drive(a, b)?.seconds ?? StopRouter.unreachable
    }

    func place(stops: [Int], into games: [Int]) -> Placement? {
        let base = games.map { Waypoint.game($0) }
        guard !stops.isEmpty else {
            return simulator.simulate(base).map { Placement(waypoints: base, itinerary: $0, method: nil) }
        }
        var best: Placement?
        let between = stops.map { a in stops.map { b in cost(a, b) } }
        for gap in 0...games.count {
            let origin = gap == 0 ? graph.startPlace : graph.candidates[games[gap - 1]].place
            let destination: Int? = gap == games.count ? graph.endPlace : graph.candidates[games[gap]].place
            guard
                let route = StopRouter.order(
                    stops: stops.count, fromOrigin: stops.map { cost(origin, $0) }, between: between,
                    toDestination: destination.map { d in stops.map { cost($0, d) } },
                    exactLimit: graph.request.search.heldKarpLimit)
            else { continue }
            var waypoints = base
            waypoints.insert(contentsOf: route.order.map { Waypoint.stop(stops[$0]) }, at: gap)
            guard let itinerary = simulator.simulate(waypoints) else { continue }
            if best == nil || itinerary.drivingSeconds < best!.itinerary.drivingSeconds {
                best = Placement(waypoints: waypoints, itinerary: itinerary, method: route.isExact ? .heldKarp : .twoOptOrOpt)
            }
        }
        if let best { return best }

        // Cheapest feasible insertion, one stop at a time.
        var waypoints = base
        var itinerary: Itinerary?
        for stop in stops {
            var chosen: (Int, Itinerary)?
            for position in 0...waypoints.count {
                var trial = waypoints
                trial.insert(.stop(stop), at: position)
                guard let laidOut = simulator.simulate(trial) else { continue }
                if chosen == nil || laidOut.drivingSeconds < chosen!.1.drivingSeconds { chosen = (position, laidOut) }
            }
            guard let chosen else { return nil }
            waypoints.insert(.stop(stop), at: chosen.0)
            itinerary = chosen.1
        }
        guard let itinerary else { return nil }
        return Placement(waypoints: waypoints, itinerary: itinerary, method: .cheapestInsertion)
    }
}
