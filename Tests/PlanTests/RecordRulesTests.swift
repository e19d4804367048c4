import Foundation
import SportsTimeCore
import SportsTimeTestSupport
import Testing
@testable import SportsTimePlan

/// The record rules (relay drivers: 24 h of driving a day at any hour; several games a day; every pitch:
/// in the building a stated time before the first pitch, away only at the game's end), checked leg by leg.
@Suite struct RecordRulesTests {
    static func recordRules(_ r: inout PlanRequest, arriveBefore: Double = 30) {
        r.maxGamesPerDay = 2
        r.travel.maxDrivingHoursPerDay = 24
        r.travel.drivingWindowStartMinute = 0
        r.travel.drivingWindowEndMinute = 24 * 60
        r.travel.leaveAfterGameMinutes = 0
        r.travel.arriveBeforeGameMinutes = arriveBefore
    }

    /// Every leg of every option: the drives between two games at different stadiums leave after the first
    /// ends (plus the leave-after time), chain through any stops and arrive by the next game's start less
    /// the arrival margin; no day drives more than the limit.
    static func checkLegs(_ plan: TripPlan, _ request: PlanRequest, seed: UInt64 = 0) {
        let model = request.travel
        for option in plan.options {
            for day in option.days {
                #expect(day.drivingHours <= model.maxDrivingHoursPerDay + 0.01, "seed \(seed): \(day.date) drives \(day.drivingHours) h")
            }
            for (previous, next) in zip(option.visits, option.visits.dropFirst()) where previous.stadiumId != next.stadiumId {
                guard let ended = previous.startUTC?.secondsSinceEpoch, let starts = next.startUTC?.secondsSinceEpoch else { continue }
                let end = ended + Int64(model.hours(ofGameIn: previous.sport) * 3600) + Int64(model.leaveAfterGameMinutes * 60)
                let deadline = starts - Int64(model.arriveBeforeGameMinutes * 60)
                // The legs between the two games (through stops without a game, if any) chain from one to the other.
                let legs = option.legs.filter { $0.departUTC.secondsSinceEpoch >= end && $0.arriveUTC.secondsSinceEpoch <= deadline }
                let chained =
                    legs.first?.fromStadiumId == previous.stadiumId && legs.last?.toStadiumId == next.stadiumId
                    && zip(legs, legs.dropFirst()).allSatisfy { $0.toStadiumId == $1.fromStadiumId }
                #expect(chained, "seed \(seed): no drive from \(previous.gameId) (ends \(end)) to \(next.gameId) by \(deadline)")
            }
        }
    }

    /// A 13:05 game in New York and a 19:05 game in Philadelphia the same day: both, exactly when the
    /// drive fits between the end of one and the arrival margin before the other.
    @Test func aDayGameAndANightGameInTheNextCityExactlyWhenTheDriveFits() throws {
        let day = Synthetic.game("mlb", at: "yankee-stadium", "2023-06-10 13:05", home: "nyy", away: "bos")
        let night = Synthetic.game("mlb", at: "citizens-bank-park", "2023-06-10 19:05", home: "phi", away: "atl")
        let catalog = Synthetic.catalog([day, night])
        let drive = try #require(TravelModel().drive(from: Quick.place("yankee-stadium"), to: Quick.place("citizens-bank-park")))
        // Minutes between the day game's end (3 h) and the night game's start, less the drive.
        let slack = Int((6 * 3600 - 3 * 3600 - drive.seconds) / 60)
        for (margin, both) in [(slack, true), (slack + 1, false)] {
            let request = Quick.request(["mlb"], "2023-06-10", "2023-06-10", from: "yankee-stadium", catalog: catalog) {
                Self.recordRules(&$0, arriveBefore: Double(margin))
            }
            let plan = TripPlanner.plan(request, catalog: catalog)
            let best = try #require(plan.options.first)
            #expect(best.visits.count == (both ? 2 : 1), "arrival margin \(margin) min of \(slack)")
            #expect(best.isProvenOptimal)
            Self.checkLegs(plan, request)
        }
        // The default rules: one game a day.
        let plain = TripPlanner.plan(
            Quick.request(["mlb"], "2023-06-10", "2023-06-10", from: "yankee-stadium", catalog: catalog), catalog: catalog)
        #expect(plain.options.first?.visits.count == 1)
    }

    /// Relay driving crosses midnight: a night game in Chicago and the next night's in Denver (about
    /// 16 h of driving) under record rules, not under the default 8 h a day.
    @Test func relayDriversDriveThroughTheNight() throws {
        let chicago = Synthetic.game("mlb", at: "wrigley-field", "2023-06-10 19:05", home: "chc", away: "stl")
        let denver = Synthetic.game("mlb", at: "coors-field", "2023-06-11 18:40", home: "col", away: "sd")
        let catalog = Synthetic.catalog([chicago, denver])
        let record = Quick.request(["mlb"], "2023-06-10", "2023-06-11", from: "wrigley-field", catalog: catalog) { Self.recordRules(&$0) }
        let plan = TripPlanner.plan(record, catalog: catalog)
        #expect(plan.options.first?.visits.count == 2)
        Self.checkLegs(plan, record)
        let plain = Quick.request(["mlb"], "2023-06-10", "2023-06-11", from: "wrigley-field", catalog: catalog)
        #expect(TripPlanner.plan(plain, catalog: catalog).options.first?.visits.count == 1)
    }

    /// Random small instances of the real schedules, half under record rules: every option passes the check.
    @Test func everyLegOfRandomRecordRuleTripsChecks() {
        var checked = 0, multiGame = 0
        for seed in OracleTests.seeds {
            guard var instance = Instances.make(seed: seed &+ 40_000) else { continue }
            var rng = SplitMix64(seed: seed)
            // Every other instance keeps its own limits (caps of 3–10 h, narrower windows), so the daily limit bites.
            if seed % 2 == 0 { Self.recordRules(&instance.request, arriveBefore: [0, 15, 30, 60][Int.random(in: 0..<4, using: &rng)]) }
            instance.request.restDays = 0
            instance.request.objective = [.mostGames, .mostStadiums][Int.random(in: 0..<2, using: &rng)]
            let plan = TripPlanner.plan(instance.request, catalog: instance.catalog)
            Self.checkLegs(plan, instance.request, seed: seed)
            checked += 1
            if plan.options.contains(where: { $0.days.contains { $0.visitIndices.count >= 2 } }) { multiGame += 1 }
        }
        #expect(checked >= 200)
        #expect(multiGame >= 4, "too few trips with two games a day: \(multiGame)")
    }
}
