import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimePlan

@Suite struct RequestTests {
    let catalog = RealData.shared
    let path = "fixtures/requests/x.yaml"

    let valid = """
        id: x
        title: A week
        sports: [mlb]
        firstDate: 2023-06-05
        lastDate: 2023-06-11
        start: {stadium: fenway-park}
        """

    /// The diagnostics a request text produces, as printed.
    func errors(_ text: String) -> [String] {
        do {
            _ = try RequestResolver.resolve(text: text, path: path, catalog: catalog)
            return []
        } catch let error as PipelineError {
            #expect(error.exitCode == 2)
            return error.diagnostics.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test func aMustSeeGameNamedByAFormerIdIsTheGameMergeReDated() throws {
        // Merge matched a source's Sunday listing to the Saturday game and kept the Sunday id as former.
        let saturday = try #require(catalog.games.first { $0.id == "mlb-2023-2023-06-10-bos-at-nyy" })
        #expect(catalog.game("mlb-2023-2023-06-13-bos-at-nyy") == nil)
        var moved = saturday
        moved.formerIds = ["mlb-2023-2023-06-13-bos-at-nyy"]
        let games = catalog.games.filter { $0.id != saturday.id } + [moved]
        let relabelled = PlanCatalog(sports: catalog.sports, stadiums: catalog.stadiums, teams: catalog.teams, games: games)
        #expect(relabelled.game("mlb-2023-2023-06-13-bos-at-nyy")?.id == saturday.id)
        let request = try RequestResolver.resolve(
            text: valid + "\nmustSee:\n  - {game: mlb-2023-2023-06-13-bos-at-nyy}\n",
            path: path, catalog: relabelled)
        #expect(request.mustSeeGameIds == [saturday.id])
    }

    @Test func aRequestsScopeNamesTheSportsDatesAndSeasonsItCanNeed() throws {
        let text =
            valid + """

                mustSee:
                  - {game: nba-2025-26-2026-02-04-den-at-nyk}
                  - {game: mlb-2023-2023-06-10-bos-at-nyy}
                  - {team: nhl-bos, date: 2023-06-08}
                """
        let scope = try #require(RequestResolver.scope(data: Data(text.utf8), path: path))
        #expect(scope.sports == ["mlb", "nba", "nhl"])
        #expect(scope.first == LocalDate(iso8601: "2023-06-02") && scope.last == LocalDate(iso8601: "2023-06-14"))
        #expect(scope.seasonsNamed == ["nba-2025-26", "mlb-2023"])
        // A request that does not decode has no scope: the command then reads the whole store.
        #expect(RequestResolver.scope(data: Data("id: [".utf8), path: path) == nil)
    }

    @Test func aMinimalRequestGetsTheDefaults() throws {
        let r = try RequestResolver.resolve(text: valid, path: path, catalog: catalog)
        #expect(r.objective == .mostGames && r.maxGamesPerDay == 1 && r.restDays == 0 && r.optionCount == 3)
        #expect(r.travel == TravelModel())
        #expect(r.end == nil)
        #expect(r.start.stadiumId == "fenway-park" && r.start.timeZone == "America/New_York")
        #expect(r.resolved.constants["maxDrivingHoursPerDay"] == 8)
    }

    @Test func everyOptionIsRead() throws {
        let text = """
            id: x
            title: Everything
            sports: [mlb]
            firstDate: 2023-06-06
            lastDate: 2023-06-12
            start: {city: Boston}
            end: {latitude: 42.36, longitude: -71.06, name: Home}
            objective: mostStadiums
            mustSee:
              - game: mlb-2023-2023-06-09-bos-at-nyy
              - {team: mlb-bal, date: 2023-06-11}
            requiredStadiums: [citi-field]
            homeTeams: [mlb-nyy, mlb-bal, mlb-phi]
            maxDrivingHoursPerDay: 6.5
            drivingWindow: {from: "08:30", to: "21:00"}
            maxGamesPerDay: 2
            restDays: 1
            options: 4
            travel:
              baseDriveMinutes: 20
              circuity: 1.25
              averageSpeedMph: 60
              maxLegKilometres: 4000
              gameHours: {mlb: 3.25}
              defaultGameHours: 2.75
              leaveAfterGameMinutes: 20
              arriveBeforeGameMinutes: 45
              tbdAssumedStart: "18:30"
              stadiumVisitHours: 1.5
              pairCircuity:
                - {between: [Boston, New York], circuity: 1.4}
                - {between: [Detroit, Cleveland], circuity: 1.9}
            search: {labelBudget: 5000, beamWidth: 8, candidatePool: 12, heldKarpLimit: 10}
            """
        let r = try RequestResolver.resolve(text: text, path: path, catalog: catalog)
        #expect(r.objective == .mostStadiums)
        #expect(r.mustSeeGameIds == ["mlb-2023-2023-06-09-bos-at-nyy", "mlb-2023-2023-06-11-kcr-at-bal"])
        #expect(r.start.name == "Boston, MA" && r.start.stadiumId == nil)
        #expect(r.end?.name == "Home" && r.end?.timeZone == "America/New_York")
        #expect(
            r.travel.maxDrivingHoursPerDay == 6.5 && r.travel.drivingWindowStartMinute == 510 && r.travel.drivingWindowEndMinute == 1260)
        #expect(r.travel.gameHours["mlb"] == 3.25 && r.travel.tbdAssumedStartMinute == 1110)
        #expect(r.travel.pairCircuity.map(\.key) == ["boston|newyork", "buffalo|toronto", "cleveland|detroit"])
        #expect(r.travel.pairCircuity.first { $0.key == "cleveland|detroit" }?.circuity == 1.9)
        #expect(r.search.labelBudget == 5000 && r.search.beamWidth == 8 && r.candidatePool == 12 && r.search.heldKarpLimit == 10)
        #expect(r.maxGamesPerDay == 2 && r.restDays == 1 && r.optionCount == 4)
    }

    @Test func assumedStartsAreOverriddenPerSportAndByDefault() throws {
        let r = try RequestResolver.resolve(
            text: valid + """

                travel:
                  assumedStarts:
                    mlb: {day: "12:35", night: "18:40"}
                    nba: {unknown: "19:30"}
                    default: {day: "12:00", unknown: "18:00"}
                """, path: path, catalog: catalog)
        let t = r.travel
        #expect(t.assumedStartMinute(.day, sport: "mlb") == 755 && t.assumedStartMinute(.night, sport: "mlb") == 1120)
        #expect(t.assumedStartMinute(.unknown, sport: "mlb") == 1080 && t.assumedStartMinute(.unknown, sport: "nba") == 1170)
        #expect(t.assumedStartMinute(.day, sport: "nhl") == 720 && t.assumedStartMinute(.night, sport: "nhl") == 1140)
        #expect(t.assumedStartMinute(.exact, sport: "mlb") == nil)
        #expect(t.tbdAssumedStartMinute == 1080)
        #expect(r.resolved.constants["assumedStartHour.mlb.day"] == (755.0 / 60).rounded(toPlaces: 6))
        #expect(r.resolved.constants["assumedStartHour.nba.unknown"] == 19.5)
        #expect(r.resolved.constants["assumedStartHour.default.day"] == 12 && r.resolved.constants["tbdAssumedStartHour"] == 18)

        // One field alone keeps the sport's other default.
        let partial = try RequestResolver.resolve(
            text: valid + "\ntravel: {assumedStarts: {mlb: {day: \"12:05\"}}}", path: path, catalog: catalog)
        #expect(
            partial.travel.assumedStartMinute(.day, sport: "mlb") == 725 && partial.travel.assumedStartMinute(.night, sport: "mlb") == 1150)
        // The defaults: MLB 13:10 / 19:10, other sports 13:00 / 19:00, TBD 19:00.
        let model = TravelModel()
        #expect(model.assumedStartMinute(.day, sport: "mlb") == 790 && model.assumedStartMinute(.night, sport: "mlb") == 1150)
        #expect(model.assumedStartMinute(.day, sport: "nfl") == 780 && model.assumedStartMinute(.night, sport: "nfl") == 1140)
        #expect(model.assumedStartMinute(.unknown, sport: "mlb") == 1140)
    }

    @Test func badAssumedStartsAreLocatedErrors() {
        #expect(
            errors(valid + "\ntravel:\n  assumedStarts:\n    xfl: {day: \"13:00\"}") == [
                "fixtures/requests/x.yaml:9:10: error: unknown sport 'xfl' in travel.assumedStarts. Use default or one of: mlb, mls, nba, nfl, nhl, nwsl, wnba."
            ])
        #expect(
            errors(valid + "\ntravel:\n  assumedStarts:\n    mlb: {day: \"25:00\"}") == [
                "fixtures/requests/x.yaml:9:16: error: travel.assumedStarts.mlb.day '25:00' is not a time of day. Write it as HH:MM between 00:00 and 23:59, e.g. \"13:10\"."
            ])
        #expect(
            errors(valid + "\ntravel:\n  assumedStarts:\n    mlb: {dusk: \"18:00\"}").first?
                .hasPrefix(
                    "fixtures/requests/x.yaml:9:11: error: unknown key 'dusk' in travel.assumedStarts.mlb. Use one of: day, night, unknown."
                ) == true)
        #expect(
            errors(valid + "\ntravel:\n  assumedStarts:\n    mlb: {}") == [
                "fixtures/requests/x.yaml:9:10: error: travel.assumedStarts.mlb sets no start. Give day, night and/or unknown as HH:MM, e.g. {day: \"13:10\"}."
            ])
        #expect(
            errors(valid + "\ntravel:\n  assumedStarts:\n    mlb: {day: \"20:00\"}") == [
                "fixtures/requests/x.yaml:9:10: error: travel.assumedStarts.mlb: the night start 19:10 is not later than the day start 20:00. Make the night start later than the day start."
            ])
        #expect(
            errors(valid + "\ntravel:\n  tbdAssumedStart: \"18:30\"\n  assumedStarts:\n    default: {unknown: \"19:00\"}") == [
                "fixtures/requests/x.yaml:10:24: error: travel.assumedStarts.default.unknown 19:00 contradicts travel.tbdAssumedStart 18:30. Keep one of the two (they are the same setting)."
            ])
    }

    @Test func unknownKeysAndTypesPointAtTheLine() {
        #expect(
            errors(valid + "\nmaxGamesPerDya: 2") == [
                "fixtures/requests/x.yaml:7:1: error: unknown key 'maxGamesPerDya'. Use one of: drivingWindow, end, firstDate, homeTeams, id, lastDate, maxDrivingHoursPerDay, maxGamesPerDay, mustSee, objective, options, requiredStadiums, restDays, search, sports, start, title, travel."
            ])
        #expect(
            errors(valid + "\ntravel: {speed: 70}").first?.hasPrefix("fixtures/requests/x.yaml:7:10: error: unknown key 'speed' in travel.")
                == true)
        #expect(
            errors(valid + "\noptions: three").first?.hasPrefix("fixtures/requests/x.yaml:7:10: error: options: expected an integer")
                == true)
    }

    @Test func unknownSportsTeamsStadiumsAndGamesAreErrorsWithLines() {
        #expect(
            errors(valid.replacingOccurrences(of: "[mlb]", with: "[mlb, xfl]")) == [
                "fixtures/requests/x.yaml:3:15: error: unknown sport 'xfl'. Use one of: mlb, mls, nba, nfl, nhl, nwsl, wnba."
            ])
        #expect(
            errors(valid.replacingOccurrences(of: "fenway-park", with: "fenway")) == [
                "fixtures/requests/x.yaml:6:18: error: unknown stadium 'fenway'. Did you mean fenway-park?"
            ])
        #expect(
            errors(valid + "\nhomeTeams: [mlb-bos, mlb-bso]") == [
                "fixtures/requests/x.yaml:7:22: error: unknown team 'mlb-bso'. Did you mean mlb-bos?"
            ])
        #expect(
            errors(valid + "\nmustSee:\n  - game: mlb-2023-2023-06-09-bos-at-nya") == [
                "fixtures/requests/x.yaml:8:11: error: unknown game 'mlb-2023-2023-06-09-bos-at-nya'. Did you mean mlb-2023-2023-06-09-bos-at-nyy?"
            ])
        #expect(
            errors(valid + "\nrequiredStadiums: [citi-feld]").first
                == "fixtures/requests/x.yaml:7:20: error: unknown stadium 'citi-feld'. Did you mean citi-field?")
        #expect(
            errors(valid.replacingOccurrences(of: "{stadium: fenway-park}", with: "{city: Springfield}")).first?
                .hasPrefix("fixtures/requests/x.yaml:6:15: error: no stadium in a city named 'Springfield'.") == true)
    }

    /// Once `unknown game '…-mia-at-bos'. Did you mean …-mem-at-por?`, ranked by string distance alone.
    /// Same teams first (either side), then the same date, then distance; a game whose teams play no game
    /// near the date was dropped upstream, which the fix says instead of guessing.
    @Test func unknownGameSuggestionsRankBySameTeamsAndDate() throws {
        // Teams swapped: the real game of those two teams that day, not a string-alike.
        #expect(
            errors(valid + "\nmustSee:\n  - game: mlb-2023-2023-06-09-nyy-at-bos") == [
                "fixtures/requests/x.yaml:8:11: error: unknown game 'mlb-2023-2023-06-09-nyy-at-bos'. Did you mean mlb-2023-2023-06-09-bos-at-nyy?"
            ])
        // The game dropped from the merged games (a lost stadium name): no other game of either team
        // within a day, so no string-alike is offered.
        let dropped = catalog.games.filter {
            ![$0.homeTeamId, $0.awayTeamId].contains("mlb-bos") && ![$0.homeTeamId, $0.awayTeamId].contains("mlb-nyy")
        }
        let store = PlanCatalog(sports: catalog.sports, stadiums: catalog.stadiums, teams: catalog.teams, games: dropped)
        do {
            _ = try RequestResolver.resolve(
                text: valid + "\nmustSee:\n  - game: mlb-2023-2023-06-09-bos-at-nyy", path: path, catalog: store)
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(
                error.diagnostics.map(\.description).contains(
                    "fixtures/requests/x.yaml:8:11: error: unknown game 'mlb-2023-2023-06-09-bos-at-nyy'. No game of mlb-bos or mlb-nyy is within a day of 2023-06-09 in the merged games; if it should be there, look for it in out/normalize/rejects.jsonl and out/normalize/unresolved.json."
                ))
        }
    }

    @Test func inactiveSportsAreRefused() {
        var xfl = BuiltInSport.mlb.sport
        xfl.id = "xfl"; xfl.isBuiltIn = false; xfl.isActive = false
        let store = PlanCatalog(sports: [xfl], stadiums: catalog.stadiums, teams: catalog.teams, games: [])
        do {
            _ = try RequestResolver.resolve(text: valid.replacingOccurrences(of: "[mlb]", with: "[xfl]"), path: path, catalog: store)
            Issue.record("an inactive sport was accepted")
        } catch let error as PipelineError {
            #expect(
                error.diagnostics.map(\.description) == [
                    "fixtures/requests/x.yaml:3:10: error: sport 'xfl' is inactive. Remove it, or mark the sport active in fixtures/reference/sports.yaml."
                ])
        } catch { Issue.record("\(error)") }
    }

    /// `start: any` is read for `fewestDays` (the planner picks the start), refused at its line otherwise,
    /// and any other word is not a place.
    @Test func startAnyIsForFewestDaysOnly() throws {
        let any = valid.replacingOccurrences(of: "start: {stadium: fenway-park}", with: "start: any")
        let request = try RequestResolver.resolve(
            text: any + "\nobjective: fewestDays\nrequiredStadiums: [fenway-park, yankee-stadium]", path: path, catalog: catalog)
        #expect(request.startsAnywhere)
        #expect(
            errors(any) == [
                "fixtures/requests/x.yaml:6:8: error: start: any is only for objective: fewestDays. Give a place (start: {stadium: fenway-park}) or set objective: fewestDays."
            ])
        #expect(errors(any.replacingOccurrences(of: "start: any", with: "start: anywhere")).first?.contains("x.yaml:6:8: error:") == true)
    }

    @Test func emptyWindowsAreErrors() {
        #expect(
            errors(valid.replacingOccurrences(of: "lastDate: 2023-06-11", with: "lastDate: 2023-06-01")) == [
                "fixtures/requests/x.yaml:5:11: error: the date window is empty: lastDate 2023-06-01 is before firstDate 2023-06-05. Set lastDate on or after firstDate."
            ])
        #expect(
            errors(valid + "\ndrivingWindow: {from: \"22:00\", to: \"09:00\"}") == [
                "fixtures/requests/x.yaml:7:16: error: the driving window 22:00–09:00 is empty. Make 'from' earlier than 'to' (a window may not cross midnight)."
            ])
        #expect(
            errors(valid.replacingOccurrences(of: "lastDate: 2023-06-11", with: "lastDate: 2023-09-30")) == [
                "fixtures/requests/x.yaml:5:11: error: the date window 2023-06-05…2023-09-30 is 118 days long, more than the 62 days one request may span. Split the trip into requests of at most 62 days."
            ])
        #expect(
            errors(valid.replacingOccurrences(of: "2023-06-05", with: "2023-02-30")).first
                == "fixtures/requests/x.yaml:4:12: error: firstDate '2023-02-30' is not a date. Write it as YYYY-MM-DD.")
    }

    @Test func mustSeeGamesAreChecked() {
        #expect(
            errors(valid + "\nmustSee:\n  - game: mlb-2023-2023-06-13-nyy-at-nym") == [
                "fixtures/requests/x.yaml:8:11: error: game 'mlb-2023-2023-06-13-nyy-at-nym' is on 2023-06-13, outside the window 2023-06-05…2023-06-11. Widen the window or drop the game."
            ])
        #expect(
            errors(valid + "\nmustSee:\n  - {team: mlb-nym, date: 2023-06-05}") == [
                "fixtures/requests/x.yaml:8:27: error: mlb-nym has no game on 2023-06-05. New York Mets play on 2023-06-02, 2023-06-03, 2023-06-04, 2023-06-06, 2023-06-07, 2023-06-08."
            ])
        #expect(
            errors(valid + "\nmustSee:\n  - {team: mlb-nyy}") == [
                "fixtures/requests/x.yaml:8:5: error: a must-see entry needs game, or team and date. Write e.g. {game: mlb-2023-2023-06-02-nyy-at-bos} or {team: mlb-bos, date: 2023-06-02}."
            ])
        #expect(
            errors(valid + "\nmustSee:\n  - game: nba-2025-26-2026-02-06-mia-at-bos").first
                == "fixtures/requests/x.yaml:8:11: error: game 'nba-2025-26-2026-02-06-mia-at-bos' is nba, which is not in sports. Add nba to sports."
        )
        #expect(
            errors(valid.replacingOccurrences(of: "id: x", with: "id: y")) == [
                "fixtures/requests/x.yaml:1:5: error: id 'y' does not match the file name 'x.yaml'. Name the file y.yaml or set id: x."
            ])
        #expect(
            errors(valid + "\nobjective: leastDriving") == [
                "fixtures/requests/x.yaml:7:12: error: objective leastDriving needs mustSee games or requiredStadiums (otherwise the best trip is staying home). Add mustSee games, or use mostGames."
            ])
    }

    @Test func severalProblemsAreReportedTogetherInLineOrder() {
        let text = valid.replacingOccurrences(of: "[mlb]", with: "[mlbb]") + "\nmaxGamesPerDay: 9\nrestDays: -1"
        let found = errors(text)
        #expect(found.count == 3)
        #expect(found.map { $0.split(separator: ":")[1] } == ["3", "7", "8"])
    }

    /// A megabyte-long id used to make the suggestion search compare it with every stadium by edit
    /// distance (a table of a million rows per stadium): minutes, found by the bad-input corpus.
    @Test(.timeLimit(.minutes(1))) func aHugeUnknownIdIsRefusedQuicklyAndShortly() {
        let huge = String(repeating: "x", count: 1_000_000)
        let found = errors(valid + "\nrequiredStadiums: [\(huge)]\nhomeTeams: [\(huge)]")
        #expect(found.count == 2)
        // The id is quoted by its first 80 characters (`Diagnostic.quoted`), so no message costs its size.
        #expect(found.allSatisfy { $0.utf8.count < 1000 && $0.contains("'\(String(repeating: "x", count: 80))…'") }, "\(found)")
        #expect(found.first?.hasPrefix("fixtures/requests/x.yaml:7:20: error: unknown stadium 'xxx") == true)
        #expect(Suggest.closest(to: "fenway-parc", in: catalog.stadiums.map(\.id), count: 3) == ["fenway-park"])
    }

    @Test func anUnknownTeamGetsACloseIdOrTheTeamsOfTheSports() {
        #expect(
            errors(valid + "\nhomeTeams: [mlb-bos-red-sox]") == [
                "fixtures/requests/x.yaml:7:13: error: unknown team 'mlb-bos-red-sox'. Did you mean mlb-bos?"
            ])
        let found = errors(valid + "\nhomeTeams: [mlb-boston-red-sox]")
        #expect(found.count == 1)
        #expect(
            found.first?.hasPrefix("fixtures/requests/x.yaml:7:13: error: unknown team 'mlb-boston-red-sox'. Use a team id of mlb: mlb-")
                == true, "\(found)")
        #expect(found.first?.contains("mlb-bos") == true && found.first?.contains("nba-") == false, "\(found)")
    }

    /// Found by fuzz-request: a must-see game checked against an empty window built the range
    /// firstDate...lastDate with lastDate first, which traps.
    @Test func aMustSeeGameWithAnEmptyWindowIsAnErrorNotATrap() {
        let text =
            valid.replacingOccurrences(of: "lastDate: 2023-06-11", with: "lastDate: 2023-06-01")
            + "\nmustSee:\n  - game: mlb-2023-2023-06-09-bos-at-nyy\n  - {team: mlb-bal, date: 2023-06-11}"
        #expect(
            errors(text) == [
                "fixtures/requests/x.yaml:5:11: error: the date window is empty: lastDate 2023-06-01 is before firstDate 2023-06-05. Set lastDate on or after firstDate."
            ])
    }

    @Test func aUTF16RequestIsRefusedAtLineOne() {
        for (data, encoding) in [(valid.data(using: .utf16)!, "UTF-16"), (valid.data(using: .utf32)!, "UTF-32")] {
            #expect {
                _ = try RequestResolver.resolve(data: data, path: path, catalog: catalog)
            } throws: { error in
                "\(error)" == "fixtures/requests/x.yaml:1: error: the file is \(encoding) encoded. Save it as UTF-8 and re-run."
            }
        }
        #expect(throws: PipelineError.self) {
            try RequestResolver.resolve(data: Data([0x69, 0x64, 0x3A, 0xFF]), path: path, catalog: catalog)
        }
        #expect((try? RequestResolver.resolve(data: Data(valid.utf8), path: path, catalog: catalog))?.id == "x")
    }
}
