import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// Field-level overrides: format, pinning, reporting, errors with file:line.
@Suite struct OverrideTests {
    let reference = T.reference(teams: ["mlb-bos", "mlb-bal"], extraStadiums: [T.stadium("fenway-park")])
    let march = T.instant("2023-03-01T00:00:00Z")
    let april = T.instant("2023-04-01T00:00:00Z")
    let path = "fixtures/overrides/mlb-2023.yaml"

    func opener(at time: Instant, start: String? = nil, status: GameStatus = .scheduled) -> Game {
        T.game(
            date: "2023-03-30", away: "mlb-bal", home: "mlb-bos", start: start, status: status, source: "retrosheet-2023",
            lastModified: time)
    }

    let yaml = """
        overrides:
          - entity: game
            id: mlb-2023-2023-03-30-bal-at-bos
            set:
              startUTC: 2023-03-30T18:10:00Z
              timeTBD: false
            reason: Retrosheet gives only day/night; first pitch was 2:10 p.m. EDT.
          - entity: stadium
            id: fenway-park
            set:
              capacity: 37755
            reason: Official capacity for night games.
        """

    @Test func overrideFileParsesIntoFieldPatchesWithLocations() throws {
        let patches = try OverrideParser.parse(files: [(path, yaml)])
        #expect(patches.map(\.field) == ["capacity", "startUTC", "timeTBD"]) // stadiums fold before games
        let start = try #require(patches.first { $0.field == "startUTC" })
        #expect(start.entity == .games && start.value == .string("2023-03-30T18:10:00Z"))
        #expect(start.location == SourceLocation(path: path, line: 5, column: 17))
        #expect(patches.first { $0.field == "capacity" }?.value == .int(37755))
    }

    @Test func pinnedFieldSurvivesANewerBatch() throws {
        let patches = try OverrideParser.parse(files: [(path, yaml)])
        let first = T.batch(source: "retrosheet-2023", scrapedAt: march, games: [opener(at: march)])
        let result1 = try Merger.merge(MergeInput(reference: reference, gameBatches: [first], overrides: patches))
        let id = opener(at: march).id
        #expect(result1.store.games[id]?.startUTC == T.instant("2023-03-30T18:10:00Z"))
        #expect(result1.store.games[id]?.timeTBD == false)

        // A newer scrape says something else about the start and changes the status: the pinned start
        // and timeTBD stay, the status follows the newer scrape.
        let newer = T.batch(
            source: "retrosheet-2023", scrapedAt: april,
            games: [opener(at: april, start: "2023-03-30T17:05:00Z", status: .postponed)])
        let result2 = try Merger.merge(MergeInput(reference: reference, gameBatches: [first, newer], overrides: patches))
        let game = try #require(result2.store.games[id])
        #expect(game.startUTC == T.instant("2023-03-30T18:10:00Z") && game.timeTBD == false)
        #expect(game.status == .postponed && game.lastModified == april)
        let outcome = try #require(result2.overrideOutcomes.first { $0.field == "startUTC" })
        #expect(outcome.status == .applied && outcome.foldedValue == .string("2023-03-30T17:05:00Z"))
        #expect(outcome.reason.hasPrefix("Retrosheet gives only day/night"))
        #expect(outcome.location == "\(path):5:17")
        #expect(result2.overrideOutcomes.first { $0.field == "capacity" }?.status == .applied)
    }

    @Test func overrideMatchingNoRecordIsReportedNotFailed() throws {
        let patches = try OverrideParser.parse(files: [(path, yaml)])
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: [], overrides: patches))
        let unmatched = result.overrideOutcomes.filter { $0.status == .unmatched }
        #expect(unmatched.map(\.field) == ["startUTC", "timeTBD"])
        #expect(unmatched[0].id == "override:game:mlb-2023-2023-03-30-bal-at-bos:startUTC")
        // One warning for the override, not one per field it sets.
        #expect(
            result.warnings.map(\.description).filter { $0.contains("matches no record") } == [
                "\(path):5:17: warning: override of game 'mlb-2023-2023-03-30-bal-at-bos' matches no record (it sets startUTC, timeTBD). Fix the id, or remove the override if the data no longer needs it."
            ])
    }

    @Test func valueAlreadyFoldedIsUnchangedButStillPinned() throws {
        let patches = try OverrideParser.parse(files: [(path, yaml)])
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "retrosheet-2023", scrapedAt: march, games: [opener(at: march, start: "2023-03-30T18:10:00Z")])
                ],
                overrides: patches))
        #expect(result.overrideOutcomes.first { $0.field == "startUTC" }?.status == .unchanged)
    }

    func problem(_ text: String) -> String {
        do {
            _ = try OverrideParser.parse(files: [(path, text)])
            return "no error"
        } catch let error as PipelineError {
            #expect(error.exitCode == 2)
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func unknownFieldIsAnErrorWithFileAndLine() {
        let text = "overrides:\n  - entity: game\n    id: g\n    set:\n      kickoff: 2023-03-30T18:10:00Z\n    reason: r\n"
        #expect(
            problem(text).hasPrefix("\(path):5:7: error: unknown field 'kickoff' for entity game. Use one of: awayTeamId, deprecatedAt,"))
    }

    @Test func identityFieldCannotBeOverridden() {
        let text = "overrides:\n  - entity: game\n    id: g\n    set:\n      season: '2024'\n    reason: r\n"
        #expect(problem(text).hasPrefix("\(path):5:7: error: field 'season' of a game cannot be overridden"))
    }

    @Test func badValueIsAnErrorAtTheValue() {
        let text = "overrides:\n  - entity: game\n    id: g\n    set:\n      startUTC: half past seven\n    reason: r\n"
        #expect(
            problem(text)
                == "\(path):5:17: error: field 'startUTC' of a game: 'half past seven' is not an ISO-8601 instant like 2023-03-30T18:10:00Z. Fix the value."
        )
        let status = "overrides:\n  - entity: game\n    id: g\n    set:\n      status: delayed\n    reason: r\n"
        #expect(problem(status).contains("'delayed' is not one of scheduled, postponed, cancelled, final"))
        let null = "overrides:\n  - entity: game\n    id: g\n    set:\n      stadiumId: null\n    reason: r\n"
        #expect(problem(null).contains("null, but the field needs a value"))
    }

    @Test func unknownEntityUnknownKeyAndMissingReasonAreErrors() {
        #expect(
            problem("overrides:\n  - entity: venue\n    id: x\n    set: {name: y}\n    reason: r\n")
                .hasPrefix(
                    "\(path):2:13: error: unknown entity 'venue'. Use one of: sport, stadium, team, game, league-structure, team-alias, stadium-alias"
                ))
        #expect(
            problem("overrides:\n  - entity: stadium\n    id: x\n    set: {name: y}\n    reason: r\n    author: me\n")
                .contains("\(path):6:5: error: unknown key 'author'"))
        #expect(problem("overrides:\n  - entity: stadium\n    id: x\n    set: {name: y}\n").contains("missing key 'reason'"))
        // A misspelt key names itself, at its line, not only the key it leaves missing.
        #expect(
            problem("overrides:\n  - entity: stadium\n    id: x\n    set: {name: y}\n    reson: r\n")
                == "\(path):5:5: error: unknown key 'reson' in overrides[0], and the required key 'reason' is missing. Rename 'reson' to 'reason'."
        )
        #expect(
            problem("overrides:\n  - entity: stadium\n    id: x\n    set: {name: y}\n    reason: '  '\n")
                .contains("\(path):5:13: error: the override of 'x' has an empty reason"))
    }

    @Test func twoOverridesOfOneFieldAreAnError() {
        let a = "overrides:\n  - entity: stadium\n    id: x\n    set: {capacity: 1}\n    reason: r\n"
        let b = "overrides:\n  - entity: stadium\n    id: x\n    set: {capacity: 2}\n    reason: r\n"
        do {
            _ = try OverrideParser.parse(files: [("fixtures/overrides/b.yaml", b), ("fixtures/overrides/a.yaml", a)])
            Issue.record("expected an error")
        } catch {
            #expect(
                "\(error)".contains(
                    "fixtures/overrides/b.yaml:4:21: error: stadium 'x' field 'capacity' is already overridden at fixtures/overrides/a.yaml:4:21"
                ))
        }
    }

    /// Issue 15: an override may not point at an unknown stadium, nor make a team play itself.
    @Test(arguments: [
        (
            "stadiumId: atlantis", 18,
            "override of game 'mlb-2023-2023-03-30-bal-at-bos' sets stadiumId to 'atlantis', which is not a known stadium"
        ),
        (
            "homeTeamId: mlb-bal", 19,
            "override of game 'mlb-2023-2023-03-30-bal-at-bos' sets homeTeamId to 'mlb-bal', which is also its awayTeamId: a team cannot play itself. Set the team that really played, or override awayTeamId too."
        ),
    ])
    func overrideThatBreaksTheReferenceIsAnInputError(set: String, column: Int, message: String) throws {
        let text = "overrides:\n  - entity: game\n    id: mlb-2023-2023-03-30-bal-at-bos\n    set:\n      \(set)\n    reason: r\n"
        let input = MergeInput(
            reference: reference,
            gameBatches: [
                T.batch(source: "retrosheet-2023", scrapedAt: march, games: [opener(at: march)])
            ], overrides: try OverrideParser.parse(files: [(path, text)]))
        let error = try #require(throws: PipelineError.self) { try Merger.merge(input) }
        #expect(error.exitCode == 2)
        #expect(error.description.hasPrefix("\(path):5:\(column): error: \(message)"))
    }

    @Test func overrideSwappingBothTeamsIsAccepted() throws {
        // Swapping both teams at once is fine.
        let swap =
            "overrides:\n  - entity: game\n    id: mlb-2023-2023-03-30-bal-at-bos\n    set:\n      homeTeamId: mlb-bal\n      awayTeamId: mlb-bos\n    reason: r\n"
        let swapped = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "retrosheet-2023", scrapedAt: march, games: [opener(at: march)])
                ],
                overrides: try OverrideParser.parse(files: [(path, swap)])))
        #expect(swapped.store.games["mlb-2023-2023-03-30-bal-at-bos"]?.homeTeamId == "mlb-bal")
    }

    @Test func overrideCanMoveAGameToAnotherStadiumAndClearAnOptional() throws {
        let text = """
            overrides:
              - entity: game
                id: mlb-2023-2023-03-30-bal-at-bos
                set:
                  stadiumId: fenway-park
                  makeupDate: ~
                  gameNumber: null
                reason: Moved by the league.
            """
        let patches = try OverrideParser.parse(files: [(path, text)])
        var game = opener(at: march)
        game.makeupDate = T.date("2023-04-02")
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "retrosheet-2023", scrapedAt: march, games: [game])
                ], overrides: patches))
        #expect(result.store.games[game.id]?.stadiumId == "fenway-park")
        #expect(result.store.games[game.id]?.makeupDate == nil)
        #expect(result.overrideOutcomes.first { $0.field == "gameNumber" }?.status == .unchanged)
    }

    @Test func sportColourOverrideIsNormalized() throws {
        let text = "overrides:\n  - entity: sport\n    id: mlb\n    set: {colorHex: '#abc'}\n    reason: r\n"
        let patches = try OverrideParser.parse(files: [(path, text)])
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: [], overrides: patches))
        #expect(result.store.sports["mlb"]?.colorHex == "#AABBCC")
    }

    /// The real override files in `fixtures/overrides/` parse.
    @Test func repositoryOverrideFilesParse() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("fixtures/overrides")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(!names.isEmpty)
        let files = try names.map {
            ("fixtures/overrides/\($0)", try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
        }
        let patches = try OverrideParser.parse(files: files)
        #expect(!patches.isEmpty)
        #expect(patches.allSatisfy { !$0.reason.isEmpty })
    }
}
