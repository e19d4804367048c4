import Foundation
import SportsTimeTestSupport
import Testing
import SportsTimeCore
@testable import SportsTimePlan

@Suite struct PlannerTests {
    let catalog = RealData.shared

    // MARK: Days, windows and the daily cap

    /// Boston → New York for a 14:00 game (3.6 h of driving that morning), then New York → Philadelphia
    /// after it for a 20:00 game (1.7 h): 5.4 h on one day. A 5 h cap forbids the pair, 6 h allows it.
    @Test func theDailyCapCountsEveryLegOfTheDay() throws {
        let games = [
            Synthetic.game(at: "madison-square-garden", "2026-01-10 14:00", home: "nyk", away: "bos"),
            Synthetic.game(at: "xfinity-mobile-arena", "2026-01-10 20:00", home: "phi", away: "mia"),
        ]
        let store = Synthetic.catalog(games)
        for (cap, expected) in [(5.0, 1), (6.0, 2)] {
            let request = Synthetic.request(["nba"], "2026-01-10", "2026-01-10", from: "td-garden") {
                $0.maxGamesPerDay = 2; $0.travel.maxDrivingHoursPerDay = cap
            }
            let plan = TripPlanner.plan(request, catalog: store)
            let best = try #require(plan.options.first)
            #expect(best.score.games == expected, "cap \(cap)")
            #expect(!plan.warnings.contains { $0.contains("could not be laid out") }, "the search and the layout disagree")
            #expect(
                Planning(request: request, catalog: store).search(TripGraph(request: request, catalog: store)).keys.first?.primary
                    == Int64(expected))
            #expect(best.days.allSatisfy { $0.drivingHours <= cap + 1e-9 })
        }
    }

    @Test func gamesPerDayIsALimit() throws {
        let games = ["12:00", "15:00", "18:00"].map {
            Synthetic.game(at: "td-garden", "2026-01-10 \($0)", home: "bos", away: "x\($0.prefix(2))")
        }
        for limit in 1...3 {
            let request = Synthetic.request(["nba"], "2026-01-10", "2026-01-10", from: "td-garden") { $0.maxGamesPerDay = limit }
            let plan = TripPlanner.plan(request, catalog: Synthetic.catalog(games))
            #expect(plan.options.first?.score.games == limit)
        }
    }

    @Test func daysAreTheStadiumsLocalDates() throws {
        // 19:30 in Los Angeles is 03:30 UTC the next day; the visit still belongs to its local date.
        let games = [
            Synthetic.game(at: "cryptocom-arena", "2026-01-10 19:30", home: "lal", away: "bos"),
            Synthetic.game(at: "intuit-dome", "2026-01-11 19:30", home: "lac", away: "bos"),
        ]
        let request = Synthetic.request(["nba"], "2026-01-10", "2026-01-11", from: "cryptocom-arena")
        let best = try #require(TripPlanner.plan(request, catalog: Synthetic.catalog(games)).options.first)
        #expect(best.visits.map(\.localDate.iso8601) == ["2026-01-10", "2026-01-11"])
        #expect(best.visits.map(\.localTime) == ["19:30", "19:30"])
        #expect(best.visits.first?.timeZoneAbbreviation == "PST")
        #expect(best.days.map(\.date.iso8601) == ["2026-01-10", "2026-01-11"])
        #expect(best.days.map(\.visitIndices) == [[0], [1]])
    }

    @Test func drivesStayInsideTheRequestedWindow() throws {
        let request = Quick.request(["mlb"], "2023-06-05", "2023-06-11", from: "fenway-park") {
            $0.travel.drivingWindowStartMinute = 10 * 60; $0.travel.drivingWindowEndMinute = 18 * 60
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(!plan.options.isEmpty)
        for option in plan.options {
            for leg in option.legs {
                let depart = leg.departLocal.split(separator: " ")[1], arrive = leg.arriveLocal.split(separator: " ")[1]
                #expect(depart >= "10:00" && arrive <= "18:00", "\(leg.departLocal) → \(leg.arriveLocal)")
                #expect(leg.departLocal.hasSuffix("EDT"))
            }
        }
    }

    /// Retrosheet's day/night flag reaches the planner: MLB day games are laid out from 13:10, night games
    /// from 19:10 (not the 19:00 TBD assumption), and stay marked as not exact.
    @Test func mlbDayAndNightGamesUseTheirAssumedStarts() throws {
        let request = Quick.request(["mlb"], "2023-06-01", "2023-06-07", from: "fenway-park")
        let graph = TripGraph(request: request, catalog: catalog)
        let day = try #require(graph.candidates.first { $0.knowledge == .day && $0.game.gameNumber == nil })
        #expect(graph.clock.localClock(day.start, zone: day.zone) == "13:10" && day.isTBD && day.assumedMinute == 13 * 60 + 10)
        let night = try #require(graph.candidates.first { $0.knowledge == .night && $0.game.gameNumber == nil })
        #expect(graph.clock.localClock(night.start, zone: night.zone) == "19:10" && night.isTBD)
        #expect(graph.dayNightStartCount == graph.count && graph.unknownStartCount == 0)
    }

    /// Game 2 of a doubleheader starts at its own assumed start, but not before game 1 is over and left:
    /// day–day 13:10 / 16:40 (3 h game + 30 min), day–night 13:10 / 19:10, TBD–TBD 19:00 / 22:30.
    @Test func doubleheadersWithAssumedStartsFollowTheirFirstGame() throws {
        func pair(_ stadium: String, _ home: String, _ first: StartKnowledge, _ second: StartKnowledge) -> [Game] {
            [
                Synthetic.unpublished(Synthetic.game("mlb", at: stadium, "2023-07-01 12:00", home: home, away: "nyy", number: 1), first),
                Synthetic.unpublished(Synthetic.game("mlb", at: stadium, "2023-07-01 12:00", home: home, away: "nyy", number: 2), second),
            ]
        }
        let games =
            pair("fenway-park", "bos", .day, .day) + pair("oriole-park-at-camden-yards", "bal", .day, .night)
            + pair("nationals-park", "wsn", .unknown, .unknown)
        let store = Synthetic.catalog(games)
        let graph = TripGraph(request: Synthetic.request(["mlb"], "2023-07-01", "2023-07-01", from: "fenway-park"), catalog: store)
        func starts(_ stadium: String) -> [String] {
            graph.candidates.filter { $0.game.stadiumId == stadium }.sorted { $0.game.id < $1.game.id }
                .map { graph.clock.localClock($0.start, zone: $0.zone) }
        }
        #expect(starts("fenway-park") == ["13:10", "16:40"])
        #expect(starts("oriole-park-at-camden-yards") == ["13:10", "19:10"])
        #expect(starts("nationals-park") == ["19:00", "22:30"])
        #expect(graph.dayNightStartCount == 4 && graph.unknownStartCount == 2)
    }

    /// A day game in Baltimore and a night game in Washington the same day (0.9 h apart): both fit only
    /// because the day game is laid out from 13:10 (over 16:10, leave 16:40, arrive 17:33, 18:10 needed).
    /// Planned at the TBD 19:00, or with the day start overridden to 14:30, only one fits.
    @Test func aDayGameIsPlannedFromItsDayStart() throws {
        let dayGame = Synthetic.game("mlb", at: "oriole-park-at-camden-yards", "2023-07-01 12:00", home: "bal", away: "nyy")
        let nightGame = Synthetic.game("mlb", at: "nationals-park", "2023-07-01 12:00", home: "wsn", away: "atl")
        func best(_ day: StartKnowledge, _ night: StartKnowledge, configure: (inout PlanRequest) -> Void = { _ in }) throws -> TripOption {
            let store = Synthetic.catalog([Synthetic.unpublished(dayGame, day), Synthetic.unpublished(nightGame, night)])
            let request = Synthetic.request(["mlb"], "2023-07-01", "2023-07-01", from: "oriole-park-at-camden-yards") {
                $0.maxGamesPerDay = 2; configure(&$0)
            }
            return try #require(TripPlanner.plan(request, catalog: store).options.first)
        }
        let both = try best(.day, .night)
        #expect(both.score.games == 2)
        let visits = both.visits
        #expect(visits.map(\.startKnowledge) == [.day, .night])
        #expect(visits.map(\.assumedLocalTime) == ["13:10", "19:10"])
        #expect(visits.allSatisfy { $0.localTime == nil && $0.startUTC == nil })
        let leg = try #require(both.legs.first)
        // The day game is over at 16:10, left at 16:40: the earliest arrival is 17:33, 37 min before the 18:10
        // the night game needs (the leg itself is laid out as late as possible: it arrives at 18:10).
        #expect(leg.arriveLocal == "2023-07-01 18:10 EDT" && leg.departLocal >= "2023-07-01 16:40 EDT")
        #expect(both.score.minSlackHours == 0.62)
        #expect(leg.assumedStartGameIds == [dayGame.id, nightGame.id])
        #expect(
            both.warnings.contains {
                $0.hasPrefix("2 of 2 games are only known to be a day or night game")
                    && $0.contains("mlb day games at 13:10, mlb night games at 19:10")
            })
        #expect(!both.warnings.contains { $0.contains("TBD") })

        let tbd = try best(.unknown, .unknown)
        #expect(tbd.score.games == 1)
        #expect(tbd.visits.map(\.startKnowledge) == [.unknown] && tbd.visits.first?.assumedLocalTime == "19:00")
        #expect(tbd.warnings.contains { $0.hasPrefix("1 of 1 game has no start time yet (TBD); planned as starting at 19:00 local") })

        let later = try best(.day, .night) { $0.travel.assumedStarts["mlb"]?.day = 14 * 60 + 30 }
        #expect(later.score.games == 1)

        // Published 13:10 and 19:10 starts are exact: nothing is assumed, no drive rests on an assumption.
        let published = [
            Synthetic.game("mlb", at: "oriole-park-at-camden-yards", "2023-07-01 13:10", home: "bal", away: "nyy"),
            Synthetic.game("mlb", at: "nationals-park", "2023-07-01 19:10", home: "wsn", away: "atl"),
        ]
        let exact = try #require(
            TripPlanner.plan(
                Synthetic.request(["mlb"], "2023-07-01", "2023-07-01", from: "oriole-park-at-camden-yards") { $0.maxGamesPerDay = 2 },
                catalog: Synthetic.catalog(published)
            ).options.first)
        #expect(exact.score.games == 2)
        #expect(exact.visits.map(\.startKnowledge) == [.exact, .exact] && exact.visits.map(\.localTime) == ["13:10", "19:10"])
        #expect(exact.visits.allSatisfy { $0.assumedLocalTime == nil })
        #expect(exact.legs.allSatisfy { $0.assumedStartGameIds == nil })
        #expect(!exact.warnings.contains { $0.contains("assumed") || $0.contains("TBD") })
    }

    /// A conflict whose numbers rest on assumed starts says so: Boston's day game (assumed 13:10) and
    /// Baltimore's night game (assumed 19:10) the same day are too far apart.
    @Test func aConflictNamesTheAssumedStartsItRestsOn() throws {
        let games = [
            Synthetic.unpublished(Synthetic.game("mlb", at: "fenway-park", "2023-07-01 12:00", home: "bos", away: "nyy"), .day),
            Synthetic.unpublished(
                Synthetic.game("mlb", at: "oriole-park-at-camden-yards", "2023-07-01 12:00", home: "bal", away: "tbr"), .night),
        ]
        let request = Synthetic.request(["mlb"], "2023-07-01", "2023-07-01", from: "fenway-park") {
            $0.maxGamesPerDay = 2; $0.mustSeeGameIds = games.map(\.id)
        }
        let plan = TripPlanner.plan(request, catalog: Synthetic.catalog(games))
        let conflict = try #require(plan.conflicts.first)
        #expect(
            conflict.reason.contains(
                "between the end of the first and the start of the second (assumed starts: "
                    + "\(games[0].id) 13:10, day game; \(games[1].id) 19:10, night game)"), "\(conflict.reason)")
    }

    // MARK: Conflicts and infeasibility

    @Test func sameDayInDifferentCitiesIsAConflictAndBranchesAreShown() throws {
        let request = Quick.request(["mlb"], "2023-06-08", "2023-06-10", from: "fenway-park") {
            $0.mustSeeGameIds = ["mlb-2023-2023-06-09-bos-at-nyy", "mlb-2023-2023-06-09-kcr-at-bal"]
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.isEmpty)
        let conflict = try #require(plan.conflicts.first)
        #expect(Set(conflict.gameIds) == Set(request.mustSeeGameIds))
        #expect(conflict.reason.contains("same day (2023-06-09)") && conflict.reason.contains("different cities (New York and Baltimore)"))
        #expect(plan.infeasibility?.hasPrefix("Must-see games") == true)
        let branches = try #require(plan.branches)
        #expect(branches.count == 2)
        #expect(branches.allSatisfy { $0.score.mustSeeCovered == 1 && $0.score.mustSeeTotal == 2 })
    }

    @Test func tooFarForTheTimeBetweenNamesTheNumbers() throws {
        let request = Quick.request(["nba"], "2026-02-05", "2026-02-08", from: "td-garden") {
            $0.mustSeeGameIds = ["nba-2025-26-2026-02-06-mia-at-bos", "nba-2025-26-2026-02-07-gsw-at-lal"]
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.isEmpty)
        let text = try #require(plan.infeasibility)
        #expect(text.contains("km apart"))
        #expect(text.contains("h between the end of the first and the start of the second"))
        #expect(text.contains("the driving limit allows 8 h per day between 09:00 and 22:00 local"))
        #expect(text.contains("5,006 km apart")) // 1.2 × 4,172 km great-circle
    }

    @Test func restDaysAreNamedWhenTheyBlock() throws {
        let request = Quick.request(["mlb"], "2023-06-08", "2023-06-11", from: "fenway-park") {
            $0.mustSeeGameIds = ["mlb-2023-2023-06-09-bos-at-nyy", "mlb-2023-2023-06-10-bos-at-nyy"]
            $0.restDays = 2
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.isEmpty)
        #expect(plan.infeasibility?.contains("restDays 2") == true)
    }

    @Test func anOceanIsNamed() throws {
        let request = Quick.request(["mlb"], "2023-06-20", "2023-06-25", from: "fenway-park") {
            $0.mustSeeGameIds = ["mlb-2023-2023-06-24-chc-at-stl"]
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.isEmpty)
        #expect(plan.infeasibility?.contains("different landmasses") == true)
    }

    @Test func aMustSeeOutOfReachOfTheStartIsNamed() throws {
        let west = try #require(
            catalog.games(from: LocalDate(iso8601: "2026-01-10")!, through: LocalDate(iso8601: "2026-01-11")!)
                .first { $0.sport == "nba" && catalog.stadium($0.stadiumId)?.timeZone == "America/Los_Angeles" })
        let request = Quick.request(["nba"], "2026-01-10", west.localDate.iso8601, from: "td-garden") { $0.mustSeeGameIds = [west.id] }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.isEmpty)
        let text = try #require(plan.infeasibility)
        #expect(text.contains("from the start (TD Garden)") && text.contains("cannot get there"))
    }

    @Test func anEndOutOfReachIsNamed() throws {
        let request = Quick.request(["mlb"], "2023-06-09", "2023-06-10", from: "fenway-park") {
            $0.mustSeeGameIds = ["mlb-2023-2023-06-09-bos-at-nyy"]
            $0.end = Quick.place("dodger-stadium")
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.isEmpty)
        #expect(plan.infeasibility?.contains("the end (Dodger Stadium)") == true)
    }

    @Test func noGamesOutOfSeasonIsExplained() throws {
        let request = Quick.request(["mlb"], "2023-12-01", "2023-12-07", from: "fenway-park")
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.isEmpty)
        #expect(plan.infeasibility == "There are no mlb games between 2023-12-01 and 2023-12-07 (the mlb season runs Mar–Oct).")
    }

    // MARK: Objectives, stops, options

    @Test func mustSeeGamesAreAttended() throws {
        let request = Quick.request(["mlb"], "2023-06-06", "2023-06-12", from: "fenway-park") {
            $0.mustSeeGameIds = ["mlb-2023-2023-06-09-bos-at-nyy", "mlb-2023-2023-06-11-kcr-at-bal"]
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(!plan.options.isEmpty)
        for option in plan.options {
            #expect(Set(request.mustSeeGameIds).isSubset(of: Set(option.visits.map(\.gameId))))
            #expect(option.score.mustSeeCovered == 2 && option.score.mustSeeTotal == 2)
            #expect(option.visits.filter(\.isMustSee).count == 2)
        }
    }

    @Test func leastDrivingAttendsTheMustSeeGamesOnly() throws {
        let request = Quick.request(["mlb"], "2023-06-06", "2023-06-12", from: "fenway-park", objective: .leastDriving) {
            $0.mustSeeGameIds = ["mlb-2023-2023-06-09-bos-at-nyy"]
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        let best = try #require(plan.options.first)
        #expect(best.isProvenOptimal)
        #expect(plan.search.method.steps == [.exactShortestPath])
        #expect(abs(best.score.total - best.score.drivingHours) < 0.01)
        // The only drive is Boston → the Bronx.
        #expect(best.legs.count == 1 && best.legs[0].toStadiumId == "yankee-stadium")
    }

    @Test func aRequiredStadiumWithoutAGameBecomesAStop() throws {
        let request = Quick.request(["mlb"], "2023-06-05", "2023-06-11", from: "fenway-park") {
            $0.requiredStadiumIds = ["td-garden", "gillette-stadium"]
        }
        let plan = TripPlanner.plan(request, catalog: catalog)
        let best = try #require(plan.options.first)
        let stops = try #require(best.stops)
        #expect(Set(stops.map(\.stadiumId)) == ["td-garden", "gillette-stadium"])
        #expect(plan.search.method.steps.contains(.heldKarp))
        #expect(best.legs.contains { $0.toStadiumId == "td-garden" } || best.legs.contains { $0.fromStadiumId == "td-garden" })
        #expect(best.days.contains { $0.stopIndices != nil })
        #expect(best.warnings.contains { $0.contains("visited without a game") })
    }

    @Test func aRequiredStadiumWithGamesIsVisitedAtAGame() throws {
        let request = Quick.request(["mlb"], "2023-06-12", "2023-06-18", from: "fenway-park") { $0.requiredStadiumIds = ["citi-field"] }
        let plan = TripPlanner.plan(request, catalog: catalog)
        for option in plan.options { #expect(option.visits.contains { $0.stadiumId == "citi-field" }) }
        #expect(plan.options.first?.stops == nil)
    }

    @Test func optionsDifferInAtLeastTwoStadiumsOrSayWhy() throws {
        let request = Quick.request(["mlb"], "2023-06-05", "2023-06-11", from: "fenway-park") { $0.optionCount = 5 }
        let plan = TripPlanner.plan(request, catalog: catalog)
        #expect(plan.options.map(\.rank) == Array(1...plan.options.count))
        #expect(plan.options.first?.isProvenOptimal == true)
        for (i, a) in plan.options.enumerated() {
            for b in plan.options[(i + 1)...] {
                let sa = Set(a.visits.map(\.stadiumId)), sb = Set(b.visits.map(\.stadiumId))
                #expect(sa.symmetricDifference(sb).count >= 2 || b.warnings.contains { $0.contains("differs from option") })
            }
            if i > 0 { #expect(plan.options[i - 1].score.total >= a.score.total) }
        }
    }

    @Test func mostStadiumsIsExactAndReported() throws {
        let request = Quick.request(["mlb"], "2023-07-05", "2023-07-11", from: "wrigley-field", objective: .mostStadiums)
        let plan = TripPlanner.plan(request, catalog: catalog)
        let best = try #require(plan.options.first)
        #expect(
            plan.search.method.steps == [.exactTargetFirst] && plan.search.isExact && plan.search.upperBound == nil
                && plan.search.tieBreakExact == true)
        #expect(best.isProvenOptimal)
        #expect(best.score.total == Double(best.score.distinctStadiums))
        #expect(best.score.distinctStadiums >= 5)
    }

    /// A most-stadiums request's second beam runs on another core on a copy of the graph: the copy has
    /// memos of its own (a shared clock raced before) and searches to the same trips as the original,
    /// also while both are searched at once.
    @Test func aGraphCopyHasItsOwnMemosAndSearchesTheSame() throws {
        let request = Quick.request(["mlb"], "2023-07-05", "2023-07-11", from: "wrigley-field", objective: .mostStadiums)
        let graph = TripGraph(request: request, catalog: catalog)
        let copy = TripGraph(copying: graph)
        #expect(copy.clock !== graph.clock && copy.scheduler.clock === copy.clock)
        #expect(copy.count == graph.count && copy.arcs.map(\.count) == graph.arcs.map(\.count))
        @Sendable func keys(_ graph: TripGraph) -> [TripKey] {
            var search = LabelSearch(
                graph: graph,
                .init(objective: .mostStadiums, mode: .beam(width: 64), poolSize: 8, labelBudget: 100_000, rankByPotential: true))
            search.run()
            return search.pool.map(\.key)
        }
        let alone = keys(graph)
        #expect(!alone.isEmpty)
        let handed = HandOver(TripGraph(copying: graph))
        let other = Background { () -> [TripKey] in keys(handed.value) }
        #expect(keys(graph) == alone)
        #expect(other.value() == alone)
        #expect(keys(copy) == alone)
    }

    @Test func aDynamicSportPlansWithTheDefaultGameLength() throws {
        let ufl = Sport(
            id: "ufl", abbreviation: "UFL", displayName: "United Football League", iconName: "football",
            colorHex: "#002244", seasonStartMonth: 3, seasonEndMonth: 6, isActive: true, isBuiltIn: false,
            lastModified: RealData.stamp, source: "reference")
        let games = [
            Synthetic.game("ufl", at: "ford-field", "2025-04-05 13:00", home: "mich", away: "stl"),
            Synthetic.game("ufl", at: "huntington-bank-field", "2025-04-06 16:00", home: "x", away: "y"),
        ]
        let store = Synthetic.catalog(games, sports: [ufl])
        let text = "id: ufl-test\ntitle: UFL\nsports: [ufl]\nfirstDate: 2025-04-05\nlastDate: 2025-04-06\nstart: {stadium: ford-field}\n"
        let request = try RequestResolver.resolve(text: text, path: "fixtures/requests/ufl-test.yaml", catalog: store)
        let plan = TripPlanner.plan(request, catalog: store)
        let best = try #require(plan.options.first)
        #expect(best.score.games == 2)
        #expect(plan.request.constants["defaultGameHours"] == 3)
        // Detroit → Cleveland goes around Lake Erie.
        #expect(plan.request.constants["pairCircuity.cleveland|detroit"] == 1.85)
        var inactive = ufl
        inactive.isActive = false
        let hidden = Synthetic.catalog(games, sports: [inactive])
        #expect(throws: PipelineError.self) {
            try RequestResolver.resolve(text: text, path: "fixtures/requests/ufl-test.yaml", catalog: hidden)
        }
        var nba = Quick.request(["ufl"], "2025-04-05", "2025-04-06", from: "ford-field")
        nba.sports = ["ufl"]
        #expect(TripGraph(request: nba, catalog: hidden).count == 0)
    }

    @Test func inputOrderDoesNotChangeThePlan() throws {
        let window = catalog.games(from: LocalDate(iso8601: "2026-01-08")!, through: LocalDate(iso8601: "2026-01-18")!)
        var rng = SplitMix64(seed: 42)
        let shuffled = Synthetic.catalog(Array(window).shuffled(using: &rng))
        let ordered = Synthetic.catalog(Array(window))
        let request = Quick.request(["nba", "nhl"], "2026-01-10", "2026-01-16", from: "td-garden") { $0.maxGamesPerDay = 2 }
        let a = try Envelope(kind: .tripPlan, producer: Producer(stage: "plan"), records: [TripPlanner.plan(request, catalog: shuffled)])
            .canonicalData()
        let b = try Envelope(kind: .tripPlan, producer: Producer(stage: "plan"), records: [TripPlanner.plan(request, catalog: ordered)])
            .canonicalData()
        #expect(a == b)
    }
}
