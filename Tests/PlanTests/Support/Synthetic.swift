import Foundation
import SportsTimeCore
import SportsTimeTestSupport
@testable import SportsTimePlan

/// Hand-made games at real stadiums, for unit tests that need exact start times.
enum Synthetic {
    /// A game starting at `local` (`2026-01-10 14:00`) in the stadium's own zone.
    static func game(
        _ sport: String = "nba", at stadiumId: String, _ local: String, home: String = "home",
        away: String = "away", number: Int? = nil, catalog: PlanCatalog = RealData.shared
    ) -> Game {
        let stadium = catalog.stadium(stadiumId)!
        let parts = local.split(separator: " ")
        let date = LocalDate(iso8601: parts[0])!
        let hm = parts[1].split(separator: ":").map { Int($0)! }
        let start = ZonedTime.instant(date: date, hour: hm[0], minute: hm[1], in: ZonedTime.zone(stadium.timeZone)!)
        let season = sport == "nba" || sport == "nhl" ? "2025-26" : String(date.year)
        return TestRecords.game(
            sport: sport, season: season, date: date, start: start, away: "\(sport)-\(away)", home: "\(sport)-\(home)",
            stadium: stadiumId, number: number, lastModified: RealData.stamp)
    }

    /// `game` with its start unpublished: only a day/night flag (`.day`, `.night`) or nothing (`.unknown`).
    static func unpublished(_ game: Game, _ knowledge: StartKnowledge) -> Game {
        var game = game
        game.startKnowledge = knowledge
        game.startUTC = nil
        return game
    }

    /// A catalog of the real stadiums and teams with only these games (and optional extra sports).
    static func catalog(_ games: [Game], sports: [Sport] = []) -> PlanCatalog {
        PlanCatalog(sports: sports, stadiums: RealData.shared.stadiums, teams: RealData.shared.teams, games: games)
    }

    static func request(
        _ sports: [String], _ first: String, _ last: String, from start: String,
        configure: (inout PlanRequest) -> Void = { _ in }
    ) -> PlanRequest {
        Quick.request(sports, first, last, from: start, configure: configure)
    }
}
